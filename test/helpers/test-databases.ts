// The PostgreSQL server the tests use and the template databases the global setup
// (test/global-setup.ts) migrates once per run for startTestLibrary to copy.
import pg from 'pg';

export function postgresUrl(): string {
  return process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Environment variables through which the global setup hands its templates to the test workers. */
export const TEMPLATE_ENV = {
  sqlite: 'STACKS_TEST_SQLITE_TEMPLATE',
  postgres: 'STACKS_TEST_PG_TEMPLATE',
  runPrefix: 'STACKS_TEST_PG_PREFIX',
} as const;

/** A database-name prefix unique to this process and moment. */
export function runDatabasePrefix(): string {
  return `stacks_test_${process.pid}_${Date.now()}_`;
}

/** One statement on the server's maintenance database (CREATE/DROP DATABASE). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
