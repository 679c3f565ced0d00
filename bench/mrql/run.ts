// MRQL benchmark runner (mrql.md §23.3): loads (or reuses) the profile's fixture, starts a library
// on loopback, runs each scenario 5 times to warm up and 100 measured times, and prints per
// scenario p50/p95 wall time, SQL statement count and rows as JSON.
// Run: npm run bench:mrql -- --profile 100k --backend sqlite [--runs 100] [--only id,id] [--fresh] [--cpu]
//      [--pg-database name] (PostgreSQL: the fixture database's name, stacks_bench_mrql_<profile> by default)
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { parseLibraryArgs } from '../../src/library/config.js';
import { startLibrary, type RunningLibrary } from '../../src/library/main.js';
import type { MrqlResult, Stats } from '../../src/library/mrql/engine.js';
import { loadPostgres, loadSqlite, PROFILES } from './fixture.js';
import { SCENARIOS, type Scenario } from './scenarios.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const profile = PROFILES[arg('profile', 'tiny')];
if (!profile) throw new Error(`unknown profile; use one of ${Object.keys(PROFILES).join(', ')}`);
const backend = arg('backend', 'sqlite');
const runs = Number(arg('runs', '100'));
const only = arg('only', '').split(',').filter(Boolean);
const fresh = process.argv.includes('--fresh');
// --cpu: time each run by the process's CPU time instead of the wall clock, so a busy machine
// (other processes competing for the cores) does not blur an A/B comparison.
const clock = process.argv.includes('--cpu') ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; } : () => performance.now();
const PG_URL = process.env.PG_BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dataDir = join(import.meta.dirname, '..', '.data');

async function start(args: string[]): Promise<RunningLibrary> {
  const base = ['-bind-address', '127.0.0.1:0', '-file-save-path', join(dataDir, 'files'), '-quiet', '-mrql-default-limit', '500', '-mrql-page-query-budget', '200'];
  const { config } = parseLibraryArgs([...base, ...args], {});
  return startLibrary(config, { log: () => undefined });
}

/** A library on the profile's fixture, loading it first when it is not there yet. */
async function open(): Promise<RunningLibrary> {
  mkdirSync(dataDir, { recursive: true });
  if (backend === 'sqlite') {
    const file = join(dataDir, `mrql-${profile.name}.db`);
    if (fresh || !existsSync(file)) {
      rmSync(file, { force: true });
      rmSync(`${file}-wal`, { force: true });
      rmSync(`${file}-shm`, { force: true });
      await (await start(['-db-dsn', file])).close();
      const t = performance.now();
      await loadSqlite(file, profile);
      console.error(`loaded ${profile.name} into SQLite in ${Math.round(performance.now() - t)} ms`);
    }
    return start(['-db-dsn', file]);
  }
  const name = arg('pg-database', `stacks_bench_mrql_${profile.name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (fresh || !exists) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    await (await start(['-db-type', 'POSTGRES', '-db-dsn', url.toString()])).close();
    const t = performance.now();
    await loadPostgres(url.toString(), profile);
    console.error(`loaded ${profile.name} into PostgreSQL in ${Math.round(performance.now() - t)} ms`);
  } else await admin.end();
  return start(['-db-type', 'POSTGRES', '-db-dsn', url.toString()]);
}

function rowsOf(r: MrqlResult): number {
  if ('mode' in r) return r.mode === 'aggregated' ? r.rows.length : r.buckets.reduce((s, b) => s + b.items.length, 0);
  return r.resources.length + r.notes.length + r.groups.length;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(lib: RunningLibrary, s: Scenario) {
  const { service: svc, shortcodes } = lib.mrql;
  let last = { statements: 0, rows: 0 };
  const once = async () => {
    const stats: Stats = { statements: 0, rows: 0 };
    const rows = await s.run({ lib, svc, shortcodes, stats });
    last = { statements: stats.statements, rows };
  };
  for (let i = 0; i < 5; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = clock();
    await once();
    times.push(clock() - t);
  }
  times.sort((a, b) => a - b);
  return { id: s.id, p50_ms: +percentile(times, 50).toFixed(3), p95_ms: +percentile(times, 95).toFixed(3), statements: last.statements, rows: last.rows };
}

const lib = await open();
try {
  const results = [];
  for (const s of SCENARIOS) {
    if (only.length && !only.includes(s.id)) continue;
    const r = await measure(lib, s);
    results.push(r);
    console.error(`${r.id.padEnd(24)} p50 ${String(r.p50_ms).padStart(8)} ms  p95 ${String(r.p95_ms).padStart(8)} ms  statements ${r.statements}  rows ${r.rows}`);
  }
  console.log(JSON.stringify({ benchmark: 'mrql', profile: profile.name, backend, runs, results }, null, 2));
} finally {
  await lib.close();
}

export { rowsOf };
