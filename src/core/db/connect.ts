// Opens a Kysely database on SQLite (better-sqlite3, WAL) or PostgreSQL (pg). Both drivers
// are set up to hand back the same JavaScript shapes: timestamps as ISO strings, JSON columns as
// text, 64-bit counts as numbers, booleans as 0/1-or-boolean (read them with `bool()`).
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  OperationNodeTransformer,
  type ValueNode,
} from 'kysely';
import type { DbKind, Dialect } from './dialect/types.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { withAmbientTransactions } from './ambient.js';
import { postgresDialect } from './dialect/postgres.js';
import { cachingStatements } from './statement-cache.js';

export type { DbKind } from './dialect/types.js';


export interface DbHandle<DB> {
  db: Kysely<DB>;
  kind: DbKind;
  dialect: Dialect;
  /** The raw SQLite connection (SQLite only). */
  sqlite?: Database.Database;
  close(): Promise<void>;
}

// pg: return timestamps, JSON and bigint columns in the same form SQLite gives.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => new Date(v).toISOString());
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (v) => new Date(v + 'Z').toISOString());
pg.types.setTypeParser(pg.types.builtins.JSONB, (v) => v);
pg.types.setTypeParser(pg.types.builtins.JSON, (v) => v);

/** better-sqlite3 refuses JS booleans as parameters; bind them as 1/0. */
class BooleanToInteger extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const n = super.transformValue(node);
    return typeof n.value === 'boolean' ? { ...n, value: n.value ? 1 : 0 } : n;
  }
  protected override transformPrimitiveValueList(node: import('kysely').PrimitiveValueListNode) {
    return { ...node, values: node.values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)) };
  }
}

class SqliteBooleans implements KyselyPlugin {
  private readonly t = new BooleanToInteger();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.t.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** Plugins every SQLite Kysely instance runs with (the SQL snapshots use them too). */
export function sqlitePlugins(): KyselyPlugin[] {
  return [new SqliteBooleans()];
}

export interface ConnectOptions {
  kind: DbKind;
  /** SQLite: file path or ":memory:"; PostgreSQL: libpq key/value string or postgres:// URL. */
  dsn: string;
  readonly?: boolean;
  maxConnections?: number;
}

export function openSqlite(path: string, readonly = false): Database.Database {
  const file = path.startsWith('file:') ? path.slice(5).split('?')[0] : path;
  const ro = readonly || /[?&]mode=ro\b/.test(path);
  // A new database file may need its folder (./data on a fresh checkout).
  if (!ro && file !== ':memory:' && file !== '') mkdirSync(dirname(resolve(file)), { recursive: true });
  const conn = new Database(file, { readonly: ro, fileMustExist: ro });
  if (!ro) conn.pragma('journal_mode = WAL');
  conn.pragma('synchronous = NORMAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 10000');
  return conn;
}

/** libpq key/value strings ("host=… dbname=…") are turned into a pg config object. */
export function pgConfig(dsn: string): pg.PoolConfig {
  if (/^postgres(ql)?:\/\//.test(dsn)) return { connectionString: dsn };
  const config: Record<string, string> = {};
  for (const m of dsn.matchAll(/(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/g)) {
    config[m[1]] = m[2].startsWith("'") ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
  }
  const { dbname, sslmode, ...rest } = config;
  return {
    ...rest,
    port: rest.port ? Number(rest.port) : undefined,
    database: dbname,
    ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' } : undefined,
  } as pg.PoolConfig;
}

/**
 * Adds a server setting to the startup packet (libpq's `options`, e.g. `-c name=value`), after any
 * the DSN already carries. In a connection string pg lets the URL's own `options` win over the
 * config's, so there it is rewritten in place.
 */
export function withStartupOption(config: pg.PoolConfig, option: string): pg.PoolConfig {
  const join = (existing: string | null | undefined) => (existing ? `${existing} ${option}` : option);
  if (config.connectionString) {
    const url = new URL(config.connectionString);
    url.searchParams.set('options', join(url.searchParams.get('options')));
    return { ...config, connectionString: url.toString() };
  }
  return { ...config, options: join(config.options) };
}

/** Makes every transaction on the connection read-only unless it asks otherwise. */
export const READ_ONLY_SESSION = '-c default_transaction_read_only=on';

/**
 * A pg pool whose idle clients cannot crash the process: a server restart or an administrator
 * terminating connections surfaces as an 'error' event, which pg rethrows when nobody listens.
 * `startupOption` is sent with the connection itself, so it is in force before the first query.
 */
export function newPool(dsn: string, max: number, startupOption?: string): pg.Pool {
  const config = startupOption ? withStartupOption(pgConfig(dsn), startupOption) : pgConfig(dsn);
  const pool = new pg.Pool({ ...config, max });
  pool.on('error', (err) => console.error('database connection lost:', err.message));
  return pool;
}

/** The pg pool behind each PostgreSQL Kysely instance `connect` opened. */
const pools = new WeakMap<object, pg.Pool>();

/**
 * The pg pool behind `db` when `connect` opened it on PostgreSQL, for the few statements that
 * need the wire protocol Kysely does not expose (`pg-prefixed.ts`); undefined otherwise.
 */
export function pgPoolOf(db: object): pg.Pool | undefined {
  return pools.get(db);
}

export function connect<DB>(options: ConnectOptions): DbHandle<DB> {
  if (options.kind === 'sqlite') {
    const conn = openSqlite(options.dsn, options.readonly);
    const db = new Kysely<DB>({ dialect: withAmbientTransactions(new SqliteDialect({ database: cachingStatements(conn) }), true), plugins: sqlitePlugins() });
    return { db, kind: 'sqlite', dialect: sqliteDialect, sqlite: conn, close: () => db.destroy() };
  }
  // Read-only as a startup option, not a SET sent on 'connect': that SET was not awaited, so the
  // pool's first query went to a client still executing it, which pg 8 deprecates and pg 9 removes.
  const pool = newPool(options.dsn, options.maxConnections || 10, options.readonly ? READ_ONLY_SESSION : undefined);
  const db = new Kysely<DB>({ dialect: withAmbientTransactions(new PostgresDialect({ pool })) });
  pools.set(db, pool);
  return { db, kind: 'postgres', dialect: postgresDialect, close: () => db.destroy() };
}
