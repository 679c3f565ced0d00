// The ordered list of clip-store migrations; names sort in application order.
import type { Migration } from 'kysely';
import { initialMigration } from './migrations/001-initial.js';
import { listIndexesMigration } from './migrations/002-list-indexes.js';
import { blobJournalMigration } from './migrations/003-blob-journal.js';

export const clipMigrations: Record<string, Migration> = {
  '001-initial': initialMigration,
  '002-list-indexes': listIndexesMigration,
  '003-blob-journal': blobJournalMigration,
};
