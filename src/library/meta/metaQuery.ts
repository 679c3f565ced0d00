// MetaQuery (companion §4.2): `key:value` (contains) or `key:OP:value` conditions on an entity's
// JSON meta, turned into one parameterised SQL condition. Every key and value is bound as a
// parameter; nothing the client sends is spliced into the SQL text.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DbKind } from '../../core/db/connect.js';
import { escapeLike } from '../../core/db/dialect.js';

export const META_OPERATORS = ['EQ', 'LI', 'NE', 'NL', 'GT', 'GE', 'LT', 'LE'] as const;
export type MetaOperator = (typeof META_OPERATORS)[number];
export type MetaValue = string | number | boolean | null;

export interface MetaCondition {
  /** Dot path inside meta, without any parent./child. prefix. */
  path: string[];
  op: MetaOperator;
  value: MetaValue;
  /** The value text as given (used by the contains operators). */
  text: string;
  scope: 'self' | 'parent' | 'child';
}

/** Typed value: true/false, null, "quoted" text, numbers, else text. */
export function typedValue(text: string): MetaValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1);
  if (text.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

/** Parses one MetaQuery value; returns null for values the reference ignores. */
export function parseMetaQuery(raw: string, allowScopes: boolean): MetaCondition | null {
  const parts = raw.split(':');
  if (parts.length < 2) return null;
  let key: string;
  let op: MetaOperator = 'LI';
  let text: string;
  if (parts.length >= 3 && (META_OPERATORS as readonly string[]).includes(parts[1])) {
    key = parts[0];
    op = parts[1] as MetaOperator;
    text = parts.slice(2).join(':');
  } else {
    key = parts[0];
    text = parts.slice(1).join(':');
  }
  if (key.trim() === '') return null;
  let scope: MetaCondition['scope'] = 'self';
  if (allowScopes && key.startsWith('parent.')) {
    scope = 'parent';
    key = key.slice('parent.'.length);
  } else if (allowScopes && key.startsWith('child.')) {
    scope = 'child';
    key = key.slice('child.'.length);
  }
  const path = key.split('.');
  if (path.some((s) => s === '')) return null;
  return { path, op, value: typedValue(text), text, scope };
}

/** SQLite JSON path with every segment quoted, so keys may hold any character. */
function sqlitePath(path: string[]): string {
  return '$' + path.map((s) => `."${s.replace(/"/g, '\\"')}"`).join('');
}

function extract(kind: DbKind, column: RawBuilder<unknown>, path: string[]): RawBuilder<unknown> {
  if (kind === 'sqlite') return sql`json_extract(${column}, ${sqlitePath(path)})`;
  return sql`(${column} #> CAST(${path} AS text[]))`;
}

function bindValue(kind: DbKind, v: MetaValue): RawBuilder<unknown> {
  if (kind === 'sqlite') return typeof v === 'boolean' ? sql`${v ? 1 : 0}` : sql`${v}`;
  return sql`CAST(${JSON.stringify(v)} AS jsonb)`;
}

/**
 * Ordering comparisons only hold between values of the same JSON type, so a string "5" is never
 * greater than the number 4 on either engine (SQLite alone would order all text above numbers).
 */
function sameType(kind: DbKind, column: RawBuilder<unknown>, path: string[], v: MetaValue): RawBuilder<SqlBool> {
  const jsonType = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : v === null ? 'null' : 'string';
  if (kind === 'postgres') return sql<SqlBool>`jsonb_typeof(${extract(kind, column, path)}) = ${jsonType}`;
  const sqliteTypes = { number: ['integer', 'real'], boolean: ['true', 'false'], null: ['null'], string: ['text'] }[jsonType];
  return sql<SqlBool>`json_type(${column}, ${sqlitePath(path)}) IN (${sql.join(sqliteTypes)})`;
}

function condition(kind: DbKind, column: RawBuilder<unknown>, c: MetaCondition): RawBuilder<SqlBool> {
  const x = extract(kind, column, c.path);
  const ordered = (op: string) => sql<SqlBool>`(${sameType(kind, column, c.path, c.value)} AND ${x} ${sql.raw(op)} ${bindValue(kind, c.value)})`;
  const isNull = kind === 'sqlite' ? sql<SqlBool>`${x} IS NULL` : sql<SqlBool>`(${x} IS NULL OR ${x} = 'null'::jsonb)`;
  const pattern = `%${escapeLike(c.value === null ? c.text : String(c.value))}%`;
  const asText = kind === 'sqlite' ? x : sql`CAST(${x} AS text)`;
  switch (c.op) {
    case 'EQ':
      return c.value === null ? isNull : sql<SqlBool>`${x} = ${bindValue(kind, c.value)}`;
    case 'NE':
      return c.value === null ? sql<SqlBool>`NOT ${isNull}` : sql<SqlBool>`${x} <> ${bindValue(kind, c.value)}`;
    case 'LI':
      return sql<SqlBool>`${asText} LIKE ${pattern} ESCAPE '\\'`;
    case 'NL':
      return sql<SqlBool>`${asText} NOT LIKE ${pattern} ESCAPE '\\'`;
    case 'GT':
      return ordered('>');
    case 'GE':
      return ordered('>=');
    case 'LT':
      return ordered('<');
    case 'LE':
      return ordered('<=');
  }
}

/** AND of the conditions, except several EQ conditions on one key, which are OR-ed together. */
function combine(kind: DbKind, column: RawBuilder<unknown>, conditions: MetaCondition[]): RawBuilder<SqlBool> {
  const eqByKey = new Map<string, MetaCondition[]>();
  const terms: RawBuilder<SqlBool>[] = [];
  for (const c of conditions) {
    if (c.op === 'EQ') {
      const k = c.path.join('.');
      eqByKey.set(k, [...(eqByKey.get(k) ?? []), c]);
    } else {
      terms.push(condition(kind, column, c));
    }
  }
  for (const group of eqByKey.values()) {
    const ors = group.map((c) => condition(kind, column, c));
    terms.push(ors.length === 1 ? ors[0] : sql<SqlBool>`(${sql.join(ors, sql` OR `)})`);
  }
  return sql<SqlBool>`(${sql.join(terms, sql` AND `)})`;
}

/**
 * The SQL condition for MetaQuery values on `table` (its `meta` column). Groups also accept
 * parent.<key> (the direct owner's meta) and child.<key> (any direct child's meta).
 */
export function metaQueryCondition(kind: DbKind, table: string, values: string[], groups = false): RawBuilder<SqlBool> | null {
  const parsed = values.map((v) => parseMetaQuery(v, groups)).filter((c): c is MetaCondition => c !== null);
  if (parsed.length === 0) return null;
  const parts: RawBuilder<SqlBool>[] = [];
  const own = parsed.filter((c) => c.scope === 'self');
  if (own.length) parts.push(combine(kind, sql.ref(`${table}.meta`), own));
  const parent = parsed.filter((c) => c.scope === 'parent');
  if (parent.length) {
    parts.push(sql<SqlBool>`EXISTS (SELECT 1 FROM "groups" mq_parent WHERE mq_parent.id = ${sql.ref(`${table}.owner_id`)} AND ${combine(kind, sql.ref('mq_parent.meta'), parent)})`);
  }
  const child = parsed.filter((c) => c.scope === 'child');
  if (child.length) {
    parts.push(sql<SqlBool>`EXISTS (SELECT 1 FROM "groups" mq_child WHERE mq_child.owner_id = ${sql.ref(`${table}.id`)} AND ${combine(kind, sql.ref('mq_child.meta'), child)})`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}
