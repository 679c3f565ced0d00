// MRQL benchmark runner (mrql.md §23.3): loads (or reuses) the profile's fixture, starts a library
// on loopback, runs each scenario 5 times to warm up and 100 measured times, and prints per
// scenario p50/p95 wall time, SQL statement count and rows as JSON.
// Run: npm run bench:mrql -- --profile 100k --backend sqlite [--runs 100] [--only id,id] [--fresh] [--cpu]
//      [--pg-database name] (PostgreSQL: the fixture database's name, stacks_bench_mrql_<profile> by default)
import { performance } from 'node:perf_hooks';
import type { RunningLibrary } from '../../src/library/main.js';
import type { MrqlResult, Stats } from '../../src/library/mrql/engine.js';
import { PROFILES } from './fixture.js';
import { openFixtureLibrary } from './library.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import { argText as arg } from '../args.js';

const profile = PROFILES[arg('profile', 'tiny')];
if (!profile) throw new Error(`unknown profile; use one of ${Object.keys(PROFILES).join(', ')}`);
const backend = arg('backend', 'sqlite');
const runs = Number(arg('runs', '100'));
const only = arg('only', '').split(',').filter(Boolean);
const fresh = process.argv.includes('--fresh');
// --cpu: time each run by the process's CPU time instead of the wall clock, so a busy machine
// (other processes competing for the cores) does not blur an A/B comparison.
const clock = process.argv.includes('--cpu') ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; } : () => performance.now();
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

const lib = await openFixtureLibrary({ profile, backend, fresh, pgDatabase: arg('pg-database', '') || undefined });
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
