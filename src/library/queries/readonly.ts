// Saved SQL runs read-only through the runner in core/db; the library says which of its
// columns hold JSON documents, so their cells come back as structure.
import type Database from 'better-sqlite3';
import { createReadonlyRunner as createRunner, type ReadonlyRunner } from '../../core/db/readonly.js';
import type { DbKind } from '../../core/db/dialect/index.js';

export type { QueryResultSet, ReadonlyRunner } from '../../core/db/readonly.js';
export { parameterNames, paramValue, positionalParams } from '../../core/db/readonly.js';

const JSON_COLUMNS = new Set(['meta', 'own_meta', 'section_config', 'details', 'content', 'state', 'payload']);

export function createReadonlyRunner(opts: { kind: DbKind; mainDsn: string; readonlyDsn: string; sqliteMain?: Database.Database }): ReadonlyRunner {
  return createRunner({ ...opts, jsonColumns: JSON_COLUMNS });
}
