// Full-text search structures (companion §2.7) and the indexes MRQL's translations rely on
// (mrql.md §22.1). SQLite: external-content FTS5 tables kept in sync by triggers. PostgreSQL:
// a stored generated tsvector column with a GIN index, plus trigram indexes on names.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/** Searchable tables and their indexed text columns, name first (weight A). */
export const SEARCHABLE: Record<string, string[]> = {
  resources: ['name', 'description', 'original_name'],
  notes: ['name', 'description'],
  groups: ['name', 'description'],
  tags: ['name', 'description'],
  categories: ['name', 'description'],
  queries: ['name', 'description'],
  group_relation_types: ['name', 'description'],
  note_types: ['name', 'description'],
  resource_categories: ['name', 'description'],
};

async function sqliteFts(db: AnyDb, table: string, cols: string[]): Promise<void> {
  const fts = `${table}_fts`;
  const list = cols.join(', ');
  const newVals = cols.map((c) => `new.${c}`).join(', ');
  const oldVals = cols.map((c) => `old.${c}`).join(', ');
  await sql.raw(`CREATE VIRTUAL TABLE ${fts} USING fts5(${list}, content='${table}', content_rowid='id')`).execute(db);
  await sql.raw(`CREATE TRIGGER ${table}_ai AFTER INSERT ON ${table} BEGIN INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${newVals}); END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER ${table}_ad AFTER DELETE ON ${table} BEGIN INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${oldVals}); END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${table}_au AFTER UPDATE OF ${list} ON ${table} BEGIN ` +
        `INSERT INTO ${fts}(${fts}, rowid, ${list}) VALUES ('delete', old.id, ${oldVals}); ` +
        `INSERT INTO ${fts}(rowid, ${list}) VALUES (new.id, ${newVals}); END`,
    )
    .execute(db);
  await sql.raw(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`).execute(db);
}

async function postgresFts(db: AnyDb, table: string, cols: string[], trigram: boolean): Promise<void> {
  const weights = table === 'resources' ? { name: 'A', original_name: 'B', description: 'C' } : { name: 'A', description: 'B' };
  const vector = cols.map((c) => `setweight(to_tsvector('english', coalesce(${c}, '')), '${(weights as Record<string, string>)[c]}')`).join(' || ');
  await sql.raw(`ALTER TABLE ${table} ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${vector}) STORED`).execute(db);
  await sql.raw(`CREATE INDEX idx_${table}_fts ON ${table} USING gin (search_vector)`).execute(db);
  if (trigram) await sql.raw(`CREATE INDEX idx_${table}_trgm ON ${table} USING gin (name gin_trgm_ops)`).execute(db);
}

async function postgresSearch(db: AnyDb): Promise<void> {
  const available = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'pg_trgm'`.execute(db);
  const trigram = Boolean(available.rows[0]?.n);
  if (trigram) await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  for (const [table, cols] of Object.entries(SEARCHABLE)) await postgresFts(db, table, cols, trigram);
}

async function sqliteSearch(db: AnyDb): Promise<void> {
  for (const [table, cols] of Object.entries(SEARCHABLE)) await sqliteFts(db, table, cols);
}

export function searchMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await d.byEngine({ sqlite: sqliteSearch, postgres: postgresSearch })(db);
      // Scoped "newest first" pages and hierarchy walks (mrql.md §22.1–22.2); resources have
      // theirs from 003-resources.
      await sql`CREATE INDEX idx_notes_owner_created ON notes (owner_id, created_at)`.execute(db);
    },
  };
}
