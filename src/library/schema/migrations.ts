// The ordered list of library migrations; names sort in application order.
import type { Migration } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { initialMigration } from './migrations/001-initial.js';
import { resourcesMigration } from './migrations/003-resources.js';
import { notesMigration } from './migrations/004-notes.js';
import { searchMigration } from './migrations/005-search.js';
import { jobsMigration } from './migrations/006-jobs.js';
import { accountsMigration } from './migrations/007-accounts.js';
import { mrqlPerfMigration } from './migrations/009-mrql-perf.js';
import { pluginsMigration } from './migrations/010-plugins.js';
import { scopePerfMigration } from './migrations/011-scope-perf.js';
import { ftsPostingsMigration } from './migrations/012-fts-postings.js';
import { keyCountsMigration } from './migrations/013-key-counts.js';
import { ftsSqlitePostingsMigration } from './migrations/014-fts-sqlite-postings.js';
import { sizeListOrderMigration } from './migrations/015-size-list-order.js';

export function libraryMigrations(d: Dialect): Record<string, Migration> {
  return {
    '001-initial': initialMigration(d),
    '003-resources': resourcesMigration(),
    '004-notes': notesMigration(d),
    '005-search': searchMigration(d),
    '006-jobs': jobsMigration(d),
    '007-accounts': accountsMigration(d),
    '009-mrql-perf': mrqlPerfMigration(d),
    '010-plugins': pluginsMigration(d),
    '011-scope-perf': scopePerfMigration(d),
    '012-fts-postings': ftsPostingsMigration(d),
    '013-key-counts': keyCountsMigration(d),
    '014-fts-sqlite-postings': ftsSqlitePostingsMigration(d),
    '015-size-list-order': sizeListOrderMigration(d),
  };
}
