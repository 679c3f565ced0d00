// The ordered list of library migrations; names sort in application order.
import type { Migration } from 'kysely';
import type { DbKind } from '../../core/db/connect.js';
import { initialMigration } from './migrations/001-initial.js';
import { searchMigration } from './migrations/005-search.js';

export function libraryMigrations(kind: DbKind): Record<string, Migration> {
  return {
    '001-initial': initialMigration(kind),
    '005-search': searchMigration(kind),
  };
}
