// The index behind a size filter's list page on SQLite (issue 18, scenario scalar-selective of
// mrql.md §23). Kept in step by the database itself.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/**
 * SQLite answers `fileSize > n ORDER BY created DESC` from the size index and sorts every
 * match; with the list order in that index the page's ids are sorted from the index alone (the
 * statement reads ids first, `planner.keysFirst`), and only the page's rows are read. It
 * replaces the plain file_size index (its prefix). PostgreSQL walks the list-order index and
 * stops after the page, so it keeps the plain one.
 */
async function sqliteSizeListOrder(db: AnyDb): Promise<void> {
  await sql`DROP INDEX idx_resources_file_size`.execute(db);
  await sql`CREATE INDEX idx_resources_file_size_created_id ON resources (file_size, created_at, id)`.execute(db);
}

export function sizeListOrderMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await d.byEngine({ sqlite: sqliteSizeListOrder, postgres: async () => undefined })(db);
    },
  };
}
