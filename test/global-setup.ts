// Vitest global setup: migrates one template database per run (SQLite file, and a PostgreSQL
// database under TEST_DB=postgres) that startTestLibrary copies for each test library instead of
// running every migration again (about 0.7 s per start on SQLite and several seconds on
// PostgreSQL, times a few hundred starts). The template is built by this run from this checkout's
// migration list, so it can never be stale; tests that start from an empty database
// (`emptyDatabase`) still run the migrations from nothing. The PostgreSQL databases of the run
// share a name prefix and are dropped together at its end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { connect } from '../src/core/db/connect.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { libraryMigrations } from '../src/library/schema/migrations.js';
import { adminQuery, postgresUrl, runDatabasePrefix, TEMPLATE_ENV } from './helpers/test-databases.js';

async function migrate(kind: 'sqlite' | 'postgres', dsn: string): Promise<void> {
  const handle = connect({ kind, dsn, maxConnections: 1 });
  try {
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, libraryMigrations(handle.dialect));
  } finally {
    await handle.close();
  }
}

/**
 * Drops the template and every database this run's libraries used, including those of failed
 * tests. Eight at a time: each DROP waits for a checkpoint, and concurrent requests share one
 * (16 drops: 18–21 s one by one, 3.7–7.6 s eight at a time, load 7).
 */
async function dropRunDatabases(prefix: string): Promise<void> {
  const lister = new pg.Client({ connectionString: postgresUrl() });
  await lister.connect();
  let names: string[];
  try {
    const { rows } = await lister.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    names = rows.map((r) => r.datname);
  } finally {
    await lister.end();
  }
  const dropNext = async (): Promise<void> => {
    for (let name = names.pop(); name; name = names.pop()) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  await Promise.all(Array.from({ length: 8 }, dropNext));
}

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-test-template-'));
  const sqliteFile = join(dir, 'library.db');
  await migrate('sqlite', sqliteFile);
  process.env[TEMPLATE_ENV.sqlite] = sqliteFile;

  let pgTemplate: string | undefined;
  if (process.env.TEST_DB === 'postgres') {
    const prefix = runDatabasePrefix();
    process.env[TEMPLATE_ENV.runPrefix] = prefix;
    pgTemplate = `${prefix}template`;
    await adminQuery(`CREATE DATABASE ${pgTemplate}`);
    const url = new URL(postgresUrl());
    url.pathname = `/${pgTemplate}`;
    await migrate('postgres', url.toString());
    process.env[TEMPLATE_ENV.postgres] = pgTemplate;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (pgTemplate) await dropRunDatabases(process.env[TEMPLATE_ENV.runPrefix]!);
  };
}
