// Impact-ordered postings behind `ORDER BY RANK` on PostgreSQL (mrql.md §9.4, §22.5; issue 18).
// ts_rank of a one-lexeme query depends on nothing but that lexeme's positions and weights in
// the row's own tsvector (no corpus statistics), so it can be computed once per (row, lexeme)
// when the row is written. `<table>_fts_postings` holds that score for every lexeme of every
// row, indexed by (lexeme, score): the best rows for a common word are the first index entries
// instead of a ts_rank over every match. Kept by triggers, so every write path (create, update,
// delete, merge, import, bulk loads) keeps it exact. SQLite's bm25 depends on corpus-wide
// statistics that change with every write; its postings (014) store what does not.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

/** The entity tables MRQL can order by RANK. */
export const RANKED_TABLES = ['resources', 'notes', 'groups'];

async function postgresPostings(db: AnyDb, table: string): Promise<void> {
  const postings = `${table}_fts_postings`;
  // score = -ts_rank(search_vector, '<lexeme>'::tsquery): the sort key MRQL uses (lower is better).
  await sql
    .raw(
      `CREATE TABLE ${postings} (id bigint NOT NULL REFERENCES ${table}(id) ON DELETE CASCADE ON UPDATE CASCADE, lexeme text NOT NULL, score real NOT NULL, ` +
        `PRIMARY KEY (id, lexeme))`,
    )
    .execute(db);
  await sql.raw(`CREATE INDEX idx_${postings}_rank ON ${postings} (lexeme, score, id)`).execute(db);
  // The lexeme quoted as tsquery input (quotes doubled, backslashes escaped) is the same
  // one-operand query plainto_tsquery builds for that word, so the score is the same float.
  const fill = (row: string, where: string) =>
    `INSERT INTO ${postings} (id, lexeme, score) SELECT ${row}.id, u.lexeme, ` +
    `-ts_rank(${row}.search_vector, ('''' || replace(replace(u.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery) ` +
    `FROM ${where} CROSS JOIN LATERAL unnest(${row}.search_vector) u`;
  await sql
    .raw(
      `CREATE FUNCTION ${postings}_sync() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP = 'UPDATE' THEN DELETE FROM ${postings} WHERE id = OLD.id; END IF; ` +
        `${fill('n', `(SELECT NEW.id AS id, NEW.search_vector AS search_vector) n`)}; ` +
        `RETURN NULL; END $$`,
    )
    .execute(db);
  // Deletes cascade through the foreign key; updates that leave the text alone cost nothing.
  await sql.raw(`CREATE TRIGGER ${postings}_ai AFTER INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${postings}_sync()`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${postings}_au AFTER UPDATE ON ${table} FOR EACH ROW ` +
        `WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector) EXECUTE FUNCTION ${postings}_sync()`,
    )
    .execute(db);
  await sql.raw(fill('t', `${table} t`)).execute(db);
}

export function ftsPostingsMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await d.byEngine({
        sqlite: async () => undefined,
        postgres: async (pdb: AnyDb) => {
          for (const table of RANKED_TABLES) await postgresPostings(pdb, table);
        },
      })(db);
    },
  };
}
