// Executes user-written SQL read-only (the library's saved queries). With a read-only DSN the
// database enforces it (a read-only user, a replica, or SQLite mode=ro). Without it the runner
// itself refuses anything that is not read-only: on SQLite the statement is prepared on a
// read-only connection and must report itself read-only; on PostgreSQL it runs as one prepared
// statement (so no second command can be smuggled in) inside a READ ONLY transaction that is
// always rolled back. Each engine's runner lives here, beside the drivers it talks to.
import type Database from 'better-sqlite3';
import pg from 'pg';
import { badRequest } from '../http/errors.js';
import { newPool, openSqlite, type DbKind } from './connect.js';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';

export interface QueryResultSet {
  columns: string[];
  rows: unknown[][];
}

export interface ReadonlyRunner {
  run(text: string, params: Record<string, unknown>): Promise<QueryResultSet>;
  /** True when the database itself blocks writes (DSN with mode=ro or a separate Postgres DSN). */
  readonly enforcedByDatabase: boolean;
  close(): Promise<void>;
}

/**
 * Rewrites `:name` placeholders to positional ones, skipping string literals, quoted
 * identifiers, comments and `::` casts. Returns the names in order of appearance.
 */
export function positionalParams(text: string, placeholder: (n: number) => string): { text: string; names: string[] } {
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end < 0 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop);
      i = stop;
    } else if (c === ':' && text[i + 1] === ':') {
      out += '::';
      i += 2;
    } else if (c === ':' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))!;
      names.push(m[0]);
      out += placeholder(names.length);
      i += 1 + m[0].length;
    } else {
      out += c;
      i += 1;
    }
  }
  return { text: out, names };
}

/** The `:name` parameters of a statement, in order of appearance (repeats included). */
export function parameterNames(text: string): string[] {
  return positionalParams(text, () => '?').names;
}

/** Parameter text is parsed as JSON when possible (numbers, booleans, null, quoted strings). */
export function paramValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? null;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null ? raw : v;
  } catch {
    return raw;
  }
}

function jsonCell(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function bindValues(names: string[], params: Record<string, unknown>): unknown[] {
  const lower = new Map(Object.entries(params).map(([k, v]) => [k.toLowerCase(), v]));
  return names.map((n) => {
    const v = paramValue(lower.get(n.toLowerCase()));
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  });
}

class SqliteRunner implements ReadonlyRunner {
  constructor(
    private readonly conn: Database.Database,
    readonly enforcedByDatabase: boolean,
    private readonly owned: boolean,
    private readonly jsonColumns: ReadonlySet<string>,
  ) {}

  async run(text: string, params: Record<string, unknown>): Promise<QueryResultSet> {
    const { text: sqlText, names } = positionalParams(text, sqliteDialect.placeholder);
    let stmt: Database.Statement;
    try {
      stmt = this.conn.prepare(sqlText);
    } catch (e) {
      throw badRequest(`query failed: ${(e as Error).message}`);
    }
    if (!stmt.readonly || !stmt.reader) throw badRequest('query refused: saved queries may only read (a single SELECT statement)');
    const columns = stmt.columns();
    const isJson = columns.map((c) => c.column !== null && this.jsonColumns.has(c.column));
    try {
      const rows = stmt.raw(true).all(...(bindValues(names, params) as unknown[])) as unknown[][];
      return { columns: columns.map((c) => c.name), rows: rows.map((r) => r.map((v, i) => (isJson[i] ? jsonCell(v) : v))) };
    } catch (e) {
      throw badRequest(`query failed: ${(e as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.owned) this.conn.close();
  }
}

const PG_JSON_TYPES = new Set([114, 3802]);

class PostgresRunner implements ReadonlyRunner {
  private counter = 0;
  constructor(
    private readonly pool: pg.Pool,
    readonly enforcedByDatabase: boolean,
  ) {}

  async run(text: string, params: Record<string, unknown>): Promise<QueryResultSet> {
    const { text: sqlText, names } = positionalParams(text, postgresDialect.placeholder);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      await client.query("SET LOCAL statement_timeout = '30s'");
      // A named statement forces the extended protocol, which refuses multiple commands.
      const result = await client.query({
        name: `saved_query_${++this.counter}`,
        text: sqlText,
        values: bindValues(names, params),
        rowMode: 'array',
      });
      const isJson = result.fields.map((f) => PG_JSON_TYPES.has(f.dataTypeID));
      return {
        columns: result.fields.map((f) => f.name),
        rows: (result.rows as unknown[][]).map((r) => r.map((v, i) => (isJson[i] ? jsonCell(v) : v))),
      };
    } catch (e) {
      throw badRequest(`query failed: ${(e as Error).message}`);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      // Prepared statement names are per connection; drop the connection's cache of them.
      await client.query('DEALLOCATE ALL').catch(() => undefined);
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export function createReadonlyRunner(opts: {
  kind: DbKind;
  mainDsn: string;
  readonlyDsn: string;
  /** The main SQLite connection, used only when no file can be reopened read-only (:memory:). */
  sqliteMain?: Database.Database;
  /** SQLite column names whose text cells are JSON documents (PostgreSQL knows from the type). */
  jsonColumns: ReadonlySet<string>;
}): ReadonlyRunner {
  const dsn = opts.readonlyDsn || opts.mainDsn;
  if (opts.kind === 'sqlite') {
    if (dsn === ':memory:' || dsn === '') {
      if (!opts.sqliteMain) throw new Error('in-memory database without a connection');
      return new SqliteRunner(opts.sqliteMain, false, false, opts.jsonColumns);
    }
    return new SqliteRunner(openSqlite(dsn, true), /[?&]mode=ro\b/.test(opts.readonlyDsn), true, opts.jsonColumns);
  }
  const pool = newPool(dsn, 4);
  return new PostgresRunner(pool, opts.readonlyDsn !== '' && opts.readonlyDsn !== opts.mainDsn);
}
