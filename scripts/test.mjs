// `npm test`: the whole suite on SQLite, then the library suite again on PostgreSQL when one
// is reachable (PG_TEST_URL, default postgres://postgres@127.0.0.1:5432/postgres). Each test
// file creates and drops its own database. Prints one "N passed, N failed" line at the end.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const pgUrl = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const extra = process.argv.slice(2);
const outDir = mkdtempSync(join(tmpdir(), 'stacks-test-'));

async function postgresReachable() {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// Names of failed tests with the first lines of their errors, repeated after the totals: a CI log
// is often read from its tail only.
const failures = [];
function failedTests(label, report) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const failedCases = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedCases) {
      const reason = String(t.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join(' | ').slice(0, 400);
      names.push(`${label}: ${file.name} > ${t.fullName}\n      ${reason}`);
    }
    if (failedCases.length === 0 && file.status === 'failed') names.push(`${label}: ${file.name} (${(file.message ?? '').split('\n')[0]})`);
  }
  return names;
}

function run(label, env, files) {
  console.log(`\n=== tests on ${label} ===`);
  const out = join(outDir, `${label}.json`);
  const r = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...files, ...extra], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed = report.numPassedTests;
    failed = report.numFailedTests + (report.numFailedTestSuites ?? 0);
    failures.push(...failedTests(label, report));
  } catch {
    failed += 1;
  }
  if (r.status !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped: 0 };
}

const totals = [run('sqlite', { TEST_DB: 'sqlite' }, [])];
if (await postgresReachable()) {
  totals.push(run('postgres', { TEST_DB: 'postgres', PG_TEST_URL: pgUrl }, ['test/library']));
} else {
  console.log(`\nPostgreSQL not reachable at ${pgUrl}; skipping the PostgreSQL pass.`);
}
rmSync(outDir, { recursive: true, force: true });
const passed = totals.reduce((a, t) => a + t.passed, 0);
const failed = totals.reduce((a, t) => a + t.failed, 0);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
