// The few places where SQLite and PostgreSQL differ live here and nowhere else:
// column types in migrations, case-insensitive matching, JSON paths and time values.
import { sql, type CreateTableBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DbKind } from './connect.js';

export const columnType = {
  json: (kind: DbKind) => (kind === 'sqlite' ? 'text' : 'jsonb'),
  timestamp: (kind: DbKind) => (kind === 'sqlite' ? 'text' : 'timestamptz'),
  bool: (kind: DbKind) => (kind === 'sqlite' ? 'integer' : 'boolean'),
} as const;

/** Adds the auto-increment integer primary key `id`. */
export function withId<T extends string>(kind: DbKind, table: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
  return kind === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey());
}

/** Adds created_at / updated_at (UTC) columns. */
export function withTimestamps<T extends string, C extends string>(kind: DbKind, table: CreateTableBuilder<T, C>) {
  return table
    .addColumn('created_at', columnType.timestamp(kind), (c) => c.notNull())
    .addColumn('updated_at', columnType.timestamp(kind), (c) => c.notNull());
}

/** Escapes LIKE wildcards so user text matches literally (escape character is \). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive substring match of a column against user text. */
export function containsText(kind: DbKind, column: Expression<unknown> | string, text: string): RawBuilder<SqlBool> {
  const col = typeof column === 'string' ? sql.ref(column) : column;
  const pattern = `%${escapeLike(text)}%`;
  return kind === 'sqlite'
    ? sql<SqlBool>`${col} LIKE ${pattern} ESCAPE '\\'`
    : sql<SqlBool>`${col} ILIKE ${pattern} ESCAPE '\\'`;
}

/** The text of a top-level key of a JSON column (meta->>'key'). Key must be pre-validated. */
export function jsonKeyText(kind: DbKind, column: string, key: string): RawBuilder<unknown> {
  return kind === 'sqlite'
    ? sql`json_extract(${sql.ref(column)}, ${'$.' + key})`
    : sql`(${sql.ref(column)} ->> ${key})`;
}

/** The current instant as stored in timestamp columns. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Reads a boolean column value from either engine. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Parses a JSON column (text on both engines once connect.ts has set the pg parsers). */
export function parseJson<T = unknown>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}
