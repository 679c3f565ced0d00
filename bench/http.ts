// HTTP load on the busiest reads (issue 18): autocannon with a fixed number of connections against
// a library over the deterministic MRQL fixture (bench/mrql, 100k resources by default), one route
// at a time. The library runs as its own process, so the load generator does not share its event
// loop. Every route must answer 200 before it is measured; non-2xx answers under load are counted.
// Prints a table (stderr) and JSON (stdout): requests/s, p50/p99 latency and the server's CPU ms
// per request (user + system, a figure other processes' load inflates less than latency).
// Run: npm run bench:http -- [--backend sqlite|postgres] [--profile 100k] [--connections 16] [--duration 10]
//      [--warmup 2] [--only id,id] [--fresh] [--pg-database NAME] [--cpu-prof DIR]
import { readFileSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import autocannon from 'autocannon';
import { cpuSeconds, startLibraryProcess } from './library-process.js';
import { PROFILES } from './mrql/fixture.js';
import { fixtureLibraryArgs, prepareFixture } from './mrql/library.js';
import { QUERIES } from './mrql/scenarios.js';
import { argText as arg } from './args.js';

const profile = PROFILES[arg('profile', '100k')];
if (!profile) throw new Error(`unknown profile; use one of ${Object.keys(PROFILES).join(', ')}`);
const backend = arg('backend', 'sqlite');
const connections = Number(arg('connections', '16'));
const duration = Number(arg('duration', '10'));
const warmup = Number(arg('warmup', '2'));
const only = arg('only', '').split(',').filter(Boolean);
const cpuProf = arg('cpu-prof', '');

interface Route {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

// Ids and terms picked from the fixture's shape (bench/mrql/fixture.ts), scaled to the profile.
const groupsHalf = Math.floor(profile.groups / 2);
/** The deepest group of the first chain under group 2 (32 levels), so the tree opens its longest path. */
const deepGroup = Math.min(profile.groups, groupsHalf + 32);
const note = Math.ceil(profile.notes / 2);
const mrqlQuery = QUERIES.find(([id]) => id === 'relation-common-tag')![1];

const ROUTES: Route[] = [
  { id: 'resources-json', method: 'GET', path: '/v1/resources' },
  { id: 'resources-html', method: 'GET', path: '/resources' },
  { id: 'group-tree-html', method: 'GET', path: `/group/tree?containing=${deepGroup}` },
  // Group 1 is the shallow root: every group of the first half is its child, the widest level.
  { id: 'group-tree-children', method: 'GET', path: '/v1/group/tree/children?parentId=1' },
  { id: 'note-html', method: 'GET', path: `/note?id=${note}` },
  // A term in a fifth of the resources and every note, then one resource's name as typed.
  { id: 'search-common', method: 'GET', path: '/v1/search?q=benchmarkneedle' },
  { id: 'search-name', method: 'GET', path: `/v1/search?q=${encodeURIComponent(`benchmark-resource-${String(Math.ceil(profile.resources / 2)).padStart(9, '0')}`)}` },
  { id: 'mrql', method: 'POST', path: '/v1/mrql', body: JSON.stringify({ query: mrqlQuery }) },
];

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** Fails unless the route answers 200: a benchmark of error pages measures nothing. */
async function checkAnswers(url: string, r: Route): Promise<number> {
  const res = await fetch(url + r.path, { method: r.method, body: r.body, headers: r.body ? { 'content-type': 'application/json' } : {} });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${r.id}: ${r.method} ${r.path} answered ${res.status}: ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
}

function load(url: string, r: Route, seconds: number) {
  return autocannon({
    url: url + r.path,
    method: r.method,
    body: r.body,
    headers: r.body ? { 'content-type': 'application/json' } : undefined,
    connections,
    duration: seconds,
  });
}

/**
 * Waits until the server is idle (under 20 ms of CPU in half a second, 2 minutes at most): requests
 * a slow route had queued when its run ended are still being answered, and would otherwise count
 * against the next route.
 */
async function settle(pid: number): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const before = cpuSeconds(pid);
    await setTimeout(500);
    if (cpuSeconds(pid) - before < 0.02) return;
  }
}

async function measure(lib: { pid: number; url: string }, r: Route) {
  const bytes = await checkAnswers(lib.url, r);
  if (warmup > 0) await load(lib.url, r, warmup);
  await settle(lib.pid);
  const cpuBefore = cpuSeconds(lib.pid);
  const res = await load(lib.url, r, duration);
  const cpuMs = (cpuSeconds(lib.pid) - cpuBefore) * 1000;
  await settle(lib.pid);
  const total = res.requests.total;
  return {
    route: r.id,
    request: `${r.method} ${r.path}`,
    response_bytes: bytes,
    requests_per_s: +res.requests.average.toFixed(1),
    p50_ms: res.latency.p50,
    p99_ms: res.latency.p99,
    requests: total,
    non_2xx: res.non2xx,
    errors: res.errors, // timeouts included
    timeouts: res.timeouts,
    server_cpu_ms_per_request: total ? +(cpuMs / total).toFixed(2) : null,
    load_average: loadAverage(),
  };
}

const dbArgs = await prepareFixture({ profile, backend, fresh: process.argv.includes('--fresh'), pgDatabase: arg('pg-database', '') || undefined });
const lib = await startLibraryProcess([...fixtureLibraryArgs(dbArgs), '-hash-worker-disabled'], cpuProf);
try {
  const results = [];
  const loadBefore = loadAverage();
  for (const r of ROUTES) {
    if (only.length && !only.includes(r.id)) continue;
    results.push(await measure(lib, r));
  }
  console.error(`\n${profile.name} on ${backend}, ${connections} connections, ${duration} s per route after ${warmup} s warm-up, load average ${loadBefore} → ${loadAverage()}`);
  console.error('route                  req/s    p50 ms   p99 ms  non-2xx  errors  server CPU ms/req  load');
  for (const x of results) {
    console.error(`${x.route.padEnd(20)} ${String(x.requests_per_s).padStart(7)} ${String(x.p50_ms).padStart(9)} ${String(x.p99_ms).padStart(8)} ${String(x.non_2xx).padStart(8)} ${String(x.errors).padStart(7)} ${String(x.server_cpu_ms_per_request).padStart(18)} ${String(x.load_average).padStart(5)}`);
  }
  console.log(JSON.stringify({ benchmark: 'http', profile: profile.name, backend, connections, duration_s: duration, warmup_s: warmup, results }, null, 2));
} finally {
  await lib.stop();
}
