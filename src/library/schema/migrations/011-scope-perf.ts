// Indexes behind the scoped-list target (issue 13: a group-limited principal's list costs at
// most twice the administrator's). Both kept in step by the database itself.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/**
 * The default list order (created_at DESC, id DESC) carrying the owner: a scoped page that walks
 * that order tests each row's owner inside the index, so a deep page skips the rows outside the
 * subtree without reading them. It replaces the plain created_at index (its prefix).
 */
async function ownerInListOrder(db: AnyDb): Promise<void> {
  for (const table of ['resources', 'notes']) {
    await sql.raw(`DROP INDEX idx_${table}_created_at`).execute(db);
    await sql.raw(`CREATE INDEX idx_${table}_created_id_owner ON ${table} (created_at, id, owner_id)`).execute(db);
  }
}

/**
 * SQLite has no substring index on names (PostgreSQL has its trigram index): a scoped list
 * filtered by name reads the subtree's names from (owner_id, id, lower(name)) — lower(name) is
 * the expression the Name filter compares — and reads a row only when its name matches. It
 * replaces the plain owner_id index, which the planner would otherwise prefer as the narrower
 * one; the id keeps a group's entries in id order as before (MRQL's scoped pages in id order).
 */
async function sqliteOwnerNames(db: AnyDb): Promise<void> {
  for (const table of ['resources', 'notes']) {
    await sql.raw(`DROP INDEX idx_${table}_owner_id`).execute(db);
    await sql.raw(`CREATE INDEX idx_${table}_owner_id_name ON ${table} (owner_id, id, lower(name))`).execute(db);
  }
}

/**
 * PostgreSQL: a small subtree's page reads each group's first rows in list order from
 * (owner_id, created_at, id) alone (an index-only scan; SQLite's index ends in the rowid
 * already). It replaces (owner_id, created_at), its prefix.
 */
async function postgresOwnerListOrder(db: AnyDb): Promise<void> {
  for (const table of ['resources', 'notes']) {
    await sql.raw(`DROP INDEX idx_${table}_owner_created`).execute(db);
    await sql.raw(`CREATE INDEX idx_${table}_owner_created_id ON ${table} (owner_id, created_at, id)`).execute(db);
  }
}

export function scopePerfMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await ownerInListOrder(db);
      await d.byEngine({ sqlite: sqliteOwnerNames, postgres: postgresOwnerListOrder })(db);
    },
  };
}
