// Group list and tree-children latency at 10,000 groups (issue 3). Loads fixtures in bulk
// through the database, then measures HTTP requests against a started server on loopback.
// Run: npx tsx bench/groups.ts [--groups 10000] [--backend sqlite|postgres]
import { performance } from 'node:perf_hooks';
import { startTestLibrary } from '../test/helpers/library.js';
import { argText as arg } from './args.js';

const total = Number(arg('groups', '10000'));
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label: string, runs: number, request: (i: number) => Promise<Response>) {
  for (let i = 0; i < 5; i++) await (await request(i)).arrayBuffer(); // warm up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = await request(i);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${label}: HTTP ${r.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { scenario: label, runs, p50_ms: +percentile(times, 50).toFixed(2), p95_ms: +percentile(times, 95).toFixed(2) };
}

const lib = await startTestLibrary();
try {
  const db = lib.lib.db;
  const now = new Date().toISOString();
  const tag = await db.insertInto('tags').values({ created_at: now, updated_at: now, name: 'bench', description: '', meta: '{}' } as never).returning('id').executeTakeFirstOrThrow();
  // 100 roots, each with 99 children: a realistic two-level library.
  const loadStart = performance.now();
  const roots: number[] = [];
  for (let r = 0; r < total / 100; r++) {
    const row = await db.insertInto('groups').values({ created_at: now, updated_at: now, name: `root ${r}`, meta: `{"n": ${r}}` } as never).returning('id').executeTakeFirstOrThrow();
    roots.push(row.id);
    const kids = Array.from({ length: 99 }, (_, k) => ({ created_at: now, updated_at: now, name: `group ${r}-${k}`, description: `child ${k}`, meta: `{"n": ${k}}`, owner_id: row.id }));
    const ids = await db.insertInto('groups').values(kids as never).returning('id').execute();
    await db.insertInto('group_tags').values(ids.filter((_, k) => k % 3 === 0).map((x) => ({ group_id: x.id, tag_id: tag.id }))).execute();
  }
  const loadMs = performance.now() - loadStart;
  const results = [
    await measure('list page 1', 50, () => lib.fetch('/v1/groups')),
    await measure('list page 50', 50, () => lib.fetch('/v1/groups?page=50')),
    await measure('list filtered by name', 50, (i) => lib.fetch(`/v1/groups?Name=group%20${i % 100}-`)),
    await measure('list filtered by tag + meta', 50, () => lib.fetch(`/v1/groups?Tags=${tag.id}&MetaQuery=n:GT:50`)),
    await measure('tree children of a root (99)', 50, (i) => lib.fetch(`/v1/group/tree/children?parentId=${roots[i % roots.length]}&limit=100`)),
    await measure('tree roots', 50, () => lib.fetch('/v1/group/tree/children')),
  ];
  console.log(JSON.stringify({ benchmark: 'groups', backend: process.env.TEST_DB ?? 'sqlite', groups: total, load_ms: Math.round(loadMs), results }, null, 2));
} finally {
  await lib.close();
}
