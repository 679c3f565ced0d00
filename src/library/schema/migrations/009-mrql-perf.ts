// Structures behind the MRQL performance targets (mrql.md §22–23, issue 18). Every one is kept
// in step by the database itself (indexes, triggers), so no write path has to know about it.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/**
 * PostgreSQL: a scoped page in id order (the default order, and what a shortcode's nested
 * `[mrql]` asks for) reads each subtree group's first rows from (owner_id, id); the plain
 * owner_id index orders a group's rows by their place in the heap. SQLite's owner_id index
 * already ends in the rowid.
 */
async function postgresOwnerOrder(db: AnyDb): Promise<void> {
  await sql`CREATE INDEX idx_resources_owner_id_id ON resources (owner_id, id)`.execute(db);
  await sql`CREATE INDEX idx_notes_owner_id_id ON notes (owner_id, id)`.execute(db);
}

export function mrqlPerfMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await d.byEngine({ sqlite: async () => undefined, postgres: postgresOwnerOrder })(db);
    },
  };
}
