// Scope confinement (issue 13): list latency for a group-limited principal against the
// administrator at 100,000 resources. Groups form a tree of 100 groups; the scoped user's subtree
// holds a fifth of them (and of the resources), the leaf user's one group a hundredth.
// Run: npx tsx bench/scope.ts [--resources 100000] [--backend sqlite|postgres]
import { performance } from 'node:perf_hooks';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const total = Number(arg('resources', '100000'));
// The test helpers read TEST_DB when they load, so they are imported after it is set.
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';
process.env.PG_TEST_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const { ADMIN, asBearer, login, makeAccount, startAuthLibrary } = await import('../test/helpers/accounts.js');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function p50(label: string, runs: number, request: () => Promise<Response>) {
  for (let i = 0; i < 3; i++) await (await request()).arrayBuffer();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await request();
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${label}: HTTP ${r.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return +percentile(times, 50).toFixed(2);
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
    const unscoped = await p50(`${label} admin`, 30, () => lib.fetch(path, { headers: adminToken }));
    const subtree = await p50(`${label} scoped`, 30, () => lib.fetch(path, { headers: scoped }));
    const one = await p50(`${label} leaf`, 30, () => lib.fetch(path, { headers: leaf }));
    results.push({ scenario: label, admin_p50_ms: unscoped, scoped_p50_ms: subtree, scoped_ratio: +(subtree / unscoped).toFixed(2), leaf_p50_ms: one, leaf_ratio: +(one / unscoped).toFixed(2) });
  }
  console.log(JSON.stringify({ benchmark: 'scope', backend: process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite', resources: total, groups: 100, scoped_share: '20%', leaf_share: '1%', load_ms: Math.round(loadMs), results }, null, 2));
} finally {
  await lib.close();
}
