// Scope confinement (issue 13): list latency for a group-limited principal against the
// administrator at 100,000 resources. Groups form a tree of 100 groups; the scoped user's subtree
// holds a fifth of them (and of the resources), the leaf user's one group a hundredth.
// Run: npx tsx bench/scope.ts [--resources 100000] [--runs 40] [--backend sqlite|postgres]
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { argText as arg } from './args.js';

const total = Number(arg('resources', '100000'));
const runs = Number(arg('runs', '40'));
// The test helpers read TEST_DB when they load, so they are imported after it is set.
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';
process.env.PG_TEST_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const { ADMIN, asBearer, login, makeAccount, startAuthLibrary } = await import('../test/helpers/accounts.js');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * p50 of each request of `requests`, measured in turns (one of each per round) so that load
 * from other processes on a shared machine falls on all of them alike.
 */
async function p50s(label: string, runs: number, requests: (() => Promise<Response>)[]): Promise<number[]> {
  for (let i = 0; i < 3; i++) for (const request of requests) await (await request()).arrayBuffer();
  const times: number[][] = requests.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, request] of requests.entries()) {
      const t = performance.now();
      const r = await request();
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${label}: HTTP ${r.status}`);
      times[k].push(performance.now() - t);
    }
  }
  return times.map((list) => +percentile(list.sort((a, b) => a - b), 50).toFixed(2));
}

const lib = await startAuthLibrary(['-hash-worker-disabled']);
try {
  const db = lib.lib.db;
  const stamp = () => ({ created_at: new Date().toISOString(), updated_at: new Date().toISOString(), description: '', meta: '{}' });
  // 100 groups: 0 is the scoped user's root with 19 descendants (chains of depth up to 4), the
  // other 80 hang under one top-level group outside it.
  const groupIds: number[] = [];
  for (let k = 0; k < 100; k++) {
    const owner = k === 0 || k === 20 ? null : k < 20 ? groupIds[Math.floor((k - 1) / 4) * 0 + (k < 5 ? 0 : k - 4)] : groupIds[20];
    groupIds.push((await db.insertInto('groups').values({ ...stamp(), name: `group ${k}`, owner_id: owner } as never).returning('id').executeTakeFirstOrThrow()).id);
  }
  const category = (await db.selectFrom('resource_categories').select('id').where('name', '=', 'Default').executeTakeFirstOrThrow()).id;
  const now = Date.now();
  const loadStart = performance.now();
  for (let start = 0; start < total; start += 500) {
    const rows = Array.from({ length: Math.min(500, total - start) }, (_, j) => {
      const n = start + j;
      const ts = new Date(now - (total - n) * 1000).toISOString();
      const hash = n.toString(16).padStart(40, '0');
      return {
        created_at: ts, updated_at: ts, name: `resource ${n}`, original_name: `file-${n}.jpg`, original_location: '', hash, hash_type: 'SHA1',
        location: `/resources/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.jpg`, description: '', meta: '{}', own_meta: '{}',
        width: 100, height: 100, file_size: 1000, category: '', content_type: 'image/jpeg', content_category: 'image', resource_category_id: category,
        owner_id: groupIds[n % 100],
      };
    });
    await db.insertInto('resources').values(rows as never).execute();
  }
  // PostgreSQL: the statistics and visibility map autovacuum keeps on a live database (plans
  // depend on them); SQLite is left as the library leaves it, without ANALYZE.
  if (process.env.TEST_DB === 'postgres') await sql`VACUUM ANALYZE`.execute(db);
  const loadMs = performance.now() - loadStart;
  const admin = await login(lib, ADMIN.username, ADMIN.password);
  const adminToken = asBearer((await makeAccount(lib, admin, { role: 'admin' })).token);
  const scoped = asBearer((await makeAccount(lib, admin, { role: 'user', scopeGroupId: groupIds[0] })).token);
  const leaf = asBearer((await makeAccount(lib, admin, { role: 'user', scopeGroupId: groupIds[99] })).token);
  const cases: [string, string][] = [
    ['list page 1', '/v1/resources'],
    ['list page 50', '/v1/resources?page=50'],
    ['list filtered by name', '/v1/resources?Name=resource%20999'],
    ['notes list page 1', '/v1/notes'],
    ['groups list page 1', '/v1/groups'],
  ];
  const results = [];
  for (const [label, path] of cases) {
    const [unscoped, subtree, one] = await p50s(label, runs, [adminToken, scoped, leaf].map((headers) => () => lib.fetch(path, { headers })));
    results.push({ scenario: label, admin_p50_ms: unscoped, scoped_p50_ms: subtree, scoped_ratio: +(subtree / unscoped).toFixed(2), leaf_p50_ms: one, leaf_ratio: +(one / unscoped).toFixed(2) });
  }
  console.log(JSON.stringify({ benchmark: 'scope', backend: process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite', resources: total, groups: 100, scoped_share: '20%', leaf_share: '1%', load_ms: Math.round(loadMs), results }, null, 2));
} finally {
  await lib.close();
}
