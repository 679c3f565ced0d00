// Page render time (issue 16): p50/p95 of the main HTML pages at 100,000 resources, loaded in
// bulk straight into the database (with tags, notes and groups around them). Target: p50 < 50 ms.
// Run: npx tsx bench/pages.ts [--resources 100000] [--runs 30] [--backend sqlite|postgres]
import { performance } from 'node:perf_hooks';
import { startTestLibrary } from '../test/helpers/library.js';
import { argText as arg } from './args.js';

const total = Number(arg('resources', '100000'));
const runs = Number(arg('runs', '30'));
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const lib = await startTestLibrary(['-hash-worker-disabled']);
try {
  const db = lib.lib.db;
  const stamp = () => new Date().toISOString();
  const category = (await db.selectFrom('resource_categories').select('id').where('name', '=', 'Default').executeTakeFirstOrThrow()).id;
  const tags: number[] = [];
  for (let t = 0; t < 50; t++) {
    tags.push((await db.insertInto('tags').values({ created_at: stamp(), updated_at: stamp(), name: `tag ${t}`, description: '', meta: '{}' } as never).returning('id').executeTakeFirstOrThrow()).id);
  }
  const owners: number[] = [];
  for (let g = 0; g < 200; g++) {
    owners.push((await db.insertInto('groups').values({ created_at: stamp(), updated_at: stamp(), name: `group ${g}`, description: 'a group', meta: '{}' } as never).returning('id').executeTakeFirstOrThrow()).id);
  }
  for (let n = 0; n < 2000; n++) {
    await db.insertInto('notes').values({ created_at: stamp(), updated_at: stamp(), name: `note ${n}`, description: 'text', meta: '{}', owner_id: owners[n % owners.length] } as never).execute();
  }
  const now = Date.now();
  const loadStart = performance.now();
  for (let start = 0; start < total; start += 500) {
    const rows = Array.from({ length: Math.min(500, total - start) }, (_, k) => {
      const n = start + k;
      const ts = new Date(now - (total - n) * 1000).toISOString();
      const hash = n.toString(16).padStart(40, '0');
      return {
        created_at: ts, updated_at: ts, name: `resource ${n}`, original_name: `file-${n}.jpg`, original_location: '',
        hash, hash_type: 'SHA1', location: `/resources/${hash.slice(0, 2)}/${hash}.jpg`, description: '', meta: '{}', own_meta: '{}',
        width: 1000, height: 800, file_size: 100_000 + n, category: '', content_type: 'image/jpeg', content_category: 'image',
        resource_category_id: category, owner_id: owners[n % owners.length],
      };
    });
    const ids = await db.insertInto('resources').values(rows as never).returning('id').execute();
    const links = ids.flatMap((r, k) => ((start + k) % 3 === 0 ? [{ resource_id: r.id, tag_id: tags[(start + k) % tags.length] }] : []));
    if (links.length) await db.insertInto('resource_tags').values(links).execute();
  }
  const loadMs = performance.now() - loadStart;
  const someResource = total;
  const pages = [
    '/dashboard',
    '/resources',
    '/resources/details',
    `/resources?Tags=${tags[0]}`,
    `/resource?id=${someResource}`,
    '/notes',
    '/groups',
    `/group?id=${owners[0]}`,
    '/tags',
    `/tag?id=${tags[0]}`,
    '/mrql',
    '/admin/settings',
  ];
  const results = [];
  for (const path of pages) {
    const res = await lib.fetch(path, { headers: { accept: 'text/html' } });
    if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
    await res.text();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await lib.fetch(path, { headers: { accept: 'text/html' } });
      await r.text();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    results.push({ page: path, p50_ms: +percentile(times, 50).toFixed(1), p95_ms: +percentile(times, 95).toFixed(1) });
  }
  console.log(JSON.stringify({ benchmark: 'pages', backend: process.env.TEST_DB ?? 'sqlite', resources: total, load_ms: Math.round(loadMs), target_p50_ms: 50, results }, null, 2));
} finally {
  await lib.close();
}
