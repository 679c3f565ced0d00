// The library over a profile's MRQL fixture (mrql.md §23), shared by the MRQL benchmark (which runs
// the library in its own process) and the HTTP load benchmark (which starts it as a child): the
// fixture is loaded into bench/.data (SQLite) or its own database (PostgreSQL) the first time and
// reused after that.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { connect } from '../../src/core/db/connect.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { parseLibraryArgs } from '../../src/library/config.js';
import { startLibrary, type RunningLibrary } from '../../src/library/main.js';
import type { Database as LibraryDatabase } from '../../src/library/schema/database.js';
import { libraryMigrations } from '../../src/library/schema/migrations.js';
import { seedEmptyLibrary } from '../../src/library/schema/seed.js';
import { loadPostgres, loadSqlite, type Profile } from './fixture.js';

export interface FixtureOptions {
  profile: Profile;
  backend: string;
  /** Drop and reload the fixture even when it is there. */
  fresh: boolean;
  /** PostgreSQL: the fixture database's name, stacks_bench_mrql_<profile> by default. */
  pgDatabase?: string;
}

const PG_URL = process.env.PG_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dataDir = join(import.meta.dirname, '..', '.data');

/** The command-line flags of a library over the fixture whose database flags are `dbArgs`. */
export function fixtureLibraryArgs(dbArgs: string[]): string[] {
  return ['-bind-address', '127.0.0.1:0', '-file-save-path', join(dataDir, 'files'), '-quiet', '-mrql-default-limit', '500', '-mrql-page-query-budget', '200', ...dbArgs];
}

async function start(dbArgs: string[]): Promise<RunningLibrary> {
  const { config } = parseLibraryArgs(fixtureLibraryArgs(dbArgs), {});
  return startLibrary(config, { log: () => undefined });
}

// Migrations from this one on add per-row triggers (full-text postings, content-type counts) and
// backfill existing rows with one set-based statement each. The bulk load runs before them, so
// a 1M load does not pay a trigger per row (it took 53 min that way under load); starting the
// library afterwards applies them to the loaded rows exactly as an upgrade of a live library does.
const FIRST_TRIGGER_MIGRATION = '012-fts-postings';

/** Migrates an empty fixture database up to the migrations that add per-row triggers, and seeds it. */
async function migrateForBulkLoad(dbArgs: string[]): Promise<void> {
  const { config } = parseLibraryArgs(fixtureLibraryArgs(dbArgs), {});
  const handle = connect<LibraryDatabase>({ kind: config.dbKind, dsn: config.dbDsn, maxConnections: 1 });
  try {
    const before = Object.entries(libraryMigrations(handle.dialect)).filter(([name]) => name < FIRST_TRIGGER_MIGRATION);
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, Object.fromEntries(before));
    await seedEmptyLibrary(handle.db);
  } finally {
    await handle.close();
  }
}

/** Applies the remaining migrations (their backfills) and refreshes the planner's statistics for the tables they filled. */
async function finishBulkLoad(dbArgs: string[], analyze: () => Promise<void>): Promise<void> {
  const t = performance.now();
  await (await start(dbArgs)).close();
  await analyze();
  console.error(`applied the trigger migrations' backfills and analyzed in ${Math.round(performance.now() - t)} ms`);
}

/** Loads the profile's fixture when it is not there yet (migrating the empty database first) and returns the library's database flags. */
export async function prepareFixture({ profile, backend, fresh, pgDatabase }: FixtureOptions): Promise<string[]> {
  mkdirSync(dataDir, { recursive: true });
  if (backend === 'sqlite') {
    const file = join(dataDir, `mrql-${profile.name}.db`);
    const dbArgs = ['-db-dsn', file];
    if (fresh || !existsSync(file)) {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      await migrateForBulkLoad(dbArgs);
      const t = performance.now();
      await loadSqlite(file, profile);
      console.error(`loaded ${profile.name} into SQLite in ${Math.round(performance.now() - t)} ms`);
      await finishBulkLoad(dbArgs, async () => {
        const db = new Database(file);
        db.exec('ANALYZE');
        db.close();
      });
    }
    return dbArgs;
  }
  if (backend !== 'postgres') throw new Error(`unknown backend ${backend}; use sqlite or postgres`);
  const name = pgDatabase ?? `stacks_bench_mrql_${profile.name}`;
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dbArgs = ['-db-type', 'POSTGRES', '-db-dsn', url.toString()];
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (fresh || !exists) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    await migrateForBulkLoad(dbArgs);
    const t = performance.now();
    await loadPostgres(url.toString(), profile);
    console.error(`loaded ${profile.name} into PostgreSQL in ${Math.round(performance.now() - t)} ms`);
    await finishBulkLoad(dbArgs, async () => {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query('VACUUM ANALYZE');
      await c.end();
    });
  } else await admin.end();
  return dbArgs;
}

/** A library on the profile's fixture in this process, loading the fixture first when it is not there yet. */
export async function openFixtureLibrary(options: FixtureOptions): Promise<RunningLibrary> {
  return start(await prepareFixture(options));
}
