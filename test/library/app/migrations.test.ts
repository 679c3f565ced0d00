// Start-up on an empty database runs every migration, and gives the same schema as the migrated
// template the other test files start from (test/global-setup.ts), on SQLite and PostgreSQL.
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { libraryMigrations } from '../../../src/library/schema/migrations.js';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { TEMPLATE_ENV } from '../../helpers/test-databases.js';

/** Tables, columns and indexes, in a stable order. */
async function schemaOf(db: Kysely<unknown>): Promise<string[]> {
  const query =
    TEST_DB === 'postgres'
      ? sql<{ line: string }>`SELECT table_name || '.' || column_name || ' ' || data_type AS line FROM information_schema.columns WHERE table_schema = 'public'
          UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
          UNION ALL SELECT event_object_table || ' trigger ' || trigger_name FROM information_schema.triggers WHERE trigger_schema = 'public'`
      : sql<{ line: string }>`SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS line FROM sqlite_master`;
  return (await query.execute(db)).rows.map((r) => r.line).sort();
}

const migrationNames = async (db: Kysely<unknown>) => (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name);

describe(`migrations (${TEST_DB})`, () => {
  const libs: TestLibrary[] = [];
  afterAll(async () => {
    for (const lib of libs) await lib.close();
  });

  it('the global setup hands its template to the test workers', () => {
    expect(process.env[TEST_DB === 'postgres' ? TEMPLATE_ENV.postgres : TEMPLATE_ENV.sqlite]).toBeTruthy();
  });

  it('start-up on an empty database applies every migration and matches the template copy', async () => {
    const fromEmpty = await startTestLibrary([], { emptyDatabase: true });
    libs.push(fromEmpty);
    const fromTemplate = await startTestLibrary();
    libs.push(fromTemplate);
    const expected = Object.keys(libraryMigrations(fromEmpty.lib.dialect)).sort();
    const emptyDb = fromEmpty.lib.db as unknown as Kysely<unknown>;
    const templateDb = fromTemplate.lib.db as unknown as Kysely<unknown>;
    expect(await migrationNames(emptyDb)).toEqual(expected);
    expect(await migrationNames(templateDb)).toEqual(expected);
    const schema = await schemaOf(emptyDb);
    expect(schema.length).toBeGreaterThan(50);
    expect(await schemaOf(templateDb)).toEqual(schema);
    const tags = await fromEmpty.json<{ Name: string }>('POST', '/v1/tag', { Name: 'first' });
    expect(tags.status).toBe(200);
  });
});
