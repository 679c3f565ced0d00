// Picks the dialect of a connection.
import { PostgresAdapter, type Kysely } from 'kysely';
import type { DbKind } from './types.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import type { Dialect } from './types.js';

export type { Binder, DateBucket, DbKind, Dialect, FullTextTerms, JsonPathExprs, JsonType, SqlRow } from './types.js';
export { SAFE_SEGMENT } from './types.js';
export { profileGroups, profileOrder } from './sqlite-bm25.js';

export function dialectFor(kind: DbKind): Dialect {
  return kind === 'sqlite' ? sqliteDialect : postgresDialect;
}

/**
 * The dialect of an open database or transaction, read from the adapter it compiles with. For
 * helpers whose callers hold only a connection; feature wiring passes `lib.dialect` instead.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database type
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresDialect : sqliteDialect;
}
