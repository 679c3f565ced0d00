// Picks the dialect of a connection.
import type { DbKind } from './types.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import type { Dialect } from './types.js';

export type { Binder, DateBucket, DbKind, Dialect, FullTextTerms, JsonPathExprs, JsonType, SqlRow } from './types.js';
export { SAFE_SEGMENT } from './types.js';

export function dialectFor(kind: DbKind): Dialect {
  return kind === 'sqlite' ? sqliteDialect : postgresDialect;
}
