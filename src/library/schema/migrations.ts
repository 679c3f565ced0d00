// The ordered list of library migrations; names sort in application order.
import type { Migration } from 'kysely';
import type { DbKind } from '../../core/db/connect.js';
import { initialMigration } from './migrations/001-initial.js';
import { resourcesMigration } from './migrations/003-resources.js';
import { notesMigration } from './migrations/004-notes.js';
import { searchMigration } from './migrations/005-search.js';
import { jobsMigration } from './migrations/006-jobs.js';

export function libraryMigrations(kind: DbKind): Record<string, Migration> {
  return {
    '001-initial': initialMigration(kind),
    '003-resources': resourcesMigration(),
    '004-notes': notesMigration(kind),
    '005-search': searchMigration(kind),
    '006-jobs': jobsMigration(kind),
  };
}
