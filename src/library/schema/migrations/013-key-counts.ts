// Resource counts per content type, kept by the database on every write (issue 18: MRQL's
// `GROUP BY contentType COUNT()` at 1M rows). Counting from an index still reads one entry per
// row; this table answers the unfiltered, unscoped count with one row per content type. Triggers
// keep it in step, so no write path (create, update, delete, merge, import) has to know about it.
// Rows are never removed: a type whose count fell to 0 stays and is skipped by its readers.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../../../core/db/dialect/index.js';

type AnyDb = Kysely<unknown>;

async function countTable(db: AnyDb): Promise<void> {
  await sql.raw(`CREATE TABLE resource_content_type_counts (content_type TEXT NOT NULL PRIMARY KEY, n BIGINT NOT NULL)`).execute(db);
  await sql.raw(`INSERT INTO resource_content_type_counts (content_type, n) SELECT content_type, COUNT(*) FROM resources GROUP BY content_type`).execute(db);
}

const bump = (row: 'new' | 'old', by: 1 | -1) =>
  `INSERT INTO resource_content_type_counts (content_type, n) VALUES (${row}.content_type, ${by}) ` +
  `ON CONFLICT (content_type) DO UPDATE SET n = resource_content_type_counts.n + ${by}`;

async function sqliteTriggers(db: AnyDb): Promise<void> {
  await sql.raw(`CREATE TRIGGER resources_ct_count_ai AFTER INSERT ON resources BEGIN ${bump('new', 1)}; END`).execute(db);
  await sql.raw(`CREATE TRIGGER resources_ct_count_ad AFTER DELETE ON resources BEGIN ${bump('old', -1)}; END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER resources_ct_count_au AFTER UPDATE OF content_type ON resources WHEN old.content_type IS NOT new.content_type ` +
        `BEGIN ${bump('old', -1)}; ${bump('new', 1)}; END`,
    )
    .execute(db);
}

async function postgresTriggers(db: AnyDb): Promise<void> {
  await sql
    .raw(
      `CREATE FUNCTION resources_ct_count() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF TG_OP IN ('DELETE', 'UPDATE') THEN ${bump('old', -1)}; END IF; ` +
        `IF TG_OP IN ('INSERT', 'UPDATE') THEN ${bump('new', 1)}; END IF; ` +
        `RETURN NULL; END $$`,
    )
    .execute(db);
  await sql.raw(`CREATE TRIGGER resources_ct_count_aid AFTER INSERT OR DELETE ON resources FOR EACH ROW EXECUTE FUNCTION resources_ct_count()`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER resources_ct_count_au AFTER UPDATE OF content_type ON resources FOR EACH ROW ` +
        `WHEN (old.content_type IS DISTINCT FROM new.content_type) EXECUTE FUNCTION resources_ct_count()`,
    )
    .execute(db);
}

export function keyCountsMigration(d: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await countTable(db);
      await d.byEngine({ sqlite: sqliteTriggers, postgres: postgresTriggers })(db);
    },
  };
}
