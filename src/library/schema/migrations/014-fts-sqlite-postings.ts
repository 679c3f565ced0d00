// Postings behind `ORDER BY RANK` on SQLite (mrql.md §22.5; issue 18). FTS5's bm25() of a
// one-word query depends on the row only through the word's frequency in the row (all columns,
// weight 1) and the row's token count; the rest (row count, average length, document frequency)
// is the same for every row. `<table>_fts_postings` holds, for every term of every row, that
// pair packed into one integer `profile` (frequency × 2³² + token count), keyed (term, profile,
// id): the rows of one profile tie, so a query walks the term's few distinct profiles, orders
// them by bm25 and reads rows profile by profile. The triggers tokenise through FTS5 itself:
// the row's text goes into a one-row contentless scratch FTS5 table with the same columns and
// tokenizer, its fts5vocab row counts are the term frequencies (their sum is the token count),
// and `delete-all` empties it. Every write path (create, update, delete, merge, import, bulk
// loads) goes through the table's triggers, as the FTS5 table's own triggers (005) do.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';
import { SEARCHABLE } from './005-search.js';
import { RANKED_TABLES } from './012-fts-postings.js';

type AnyDb = Kysely<unknown>;

/** The statements that replace the postings of row `rowRef` (new./old.) through the scratch table. */
function viaScratch(table: string, cols: string[], rowRef: string, write: (select: string) => string): string {
  const scratch = `${table}_fts_scratch`;
  const vocab = `${scratch}_vocab`;
  const select = `SELECT v.term, v.cnt * 4294967296 + (SELECT sum(cnt) FROM ${vocab}), ${rowRef}.id FROM ${vocab} v`;
  return (
    `INSERT INTO ${scratch}(rowid, ${cols.join(', ')}) VALUES (1, ${cols.map((c) => `${rowRef}.${c}`).join(', ')}); ` +
    `${write(select)}; INSERT INTO ${scratch}(${scratch}) VALUES ('delete-all');`
  );
}

async function sqlitePostings(db: AnyDb, table: string): Promise<void> {
  const cols = SEARCHABLE[table];
  const postings = `${table}_fts_postings`;
  const scratch = `${table}_fts_scratch`;
  await sql.raw(`CREATE VIRTUAL TABLE ${scratch} USING fts5(${cols.join(', ')}, content='')`).execute(db);
  await sql.raw(`CREATE VIRTUAL TABLE ${scratch}_vocab USING fts5vocab(${scratch}, row)`).execute(db);
  await sql.raw(`CREATE TABLE ${postings} (term text NOT NULL, profile integer NOT NULL, id integer NOT NULL, PRIMARY KEY (term, profile, id)) WITHOUT ROWID`).execute(db);
  const add = (row: string) => viaScratch(table, cols, row, (select) => `INSERT INTO ${postings} (term, profile, id) ${select}`);
  // The old text tokenises to exactly the keys it inserted (FTS5's own 'delete' relies on the same).
  const remove = (row: string) => viaScratch(table, cols, row, (select) => `DELETE FROM ${postings} WHERE (term, profile, id) IN (${select})`);
  await sql.raw(`CREATE TRIGGER ${postings}_ai AFTER INSERT ON ${table} BEGIN ${add('new')} END`).execute(db);
  await sql.raw(`CREATE TRIGGER ${postings}_ad AFTER DELETE ON ${table} BEGIN ${remove('old')} END`).execute(db);
  await sql.raw(`CREATE TRIGGER ${postings}_au AFTER UPDATE OF ${cols.join(', ')} ON ${table} BEGIN ${remove('old')} ${add('new')} END`).execute(db);
  // Existing rows: every (term, row) pair of the FTS5 index with the row's token count, in one pass.
  await sql.raw(`CREATE VIRTUAL TABLE temp.${table}_fts_instances USING fts5vocab(main, ${table}_fts, instance)`).execute(db);
  await sql
    .raw(
      `INSERT INTO ${postings} (term, profile, id) SELECT i.term, count(*) * 4294967296 + n.len, i.doc FROM temp.${table}_fts_instances i ` +
        `JOIN (SELECT doc, count(*) AS len FROM temp.${table}_fts_instances GROUP BY doc) n ON n.doc = i.doc GROUP BY i.term, i.doc`,
    )
    .execute(db);
  await sql.raw(`DROP TABLE temp.${table}_fts_instances`).execute(db);
}

export function ftsSqlitePostingsMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await d.byEngine({
        sqlite: async (sdb: AnyDb) => {
          for (const table of RANKED_TABLES) await sqlitePostings(sdb, table);
        },
        postgres: async () => undefined,
      })(db);
    },
  };
}
