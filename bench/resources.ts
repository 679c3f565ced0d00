// Resource list latency at 100,000 resources (issue 4): API filters and the HTML grid page.
// Upload throughput is measured by bench/uploads.ts.
// Run: npx tsx bench/resources.ts [--resources 100000] [--backend sqlite|postgres]
import { performance } from 'node:perf_hooks';
import { startTestLibrary } from '../test/helpers/library.js';
import { argText as arg } from './args.js';

const total = Number(arg('resources', '100000'));
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(label: string, runs: number, request: (i: number) => Promise<Response>) {
  for (let i = 0; i < 3; i++) await (await request(i)).arrayBuffer();
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

const lib = await startTestLibrary(['-hash-worker-disabled']);
try {
  // List latency at `total` resources, loaded in bulk straight into the database.
  const db = lib.lib.db;
  const now = Date.now();
  const category = (await db.selectFrom('resource_categories').select('id').where('name', '=', 'Default').executeTakeFirstOrThrow()).id;
  const tag = (await db.insertInto('tags').values({ created_at: new Date().toISOString(), updated_at: new Date().toISOString(), name: 'bench', description: '', meta: '{}' } as never).returning('id').executeTakeFirstOrThrow()).id;
  const owner = (await db.insertInto('groups').values({ created_at: new Date().toISOString(), updated_at: new Date().toISOString(), name: 'bench owner', description: '', meta: '{}' } as never).returning('id').executeTakeFirstOrThrow()).id;
  const loadStart = performance.now();
  const batch = 500;
  for (let start = 0; start < total; start += batch) {
    const rows = Array.from({ length: Math.min(batch, total - start) }, (_, k) => {
      const n = start + k;
      const ts = new Date(now - (total - n) * 1000).toISOString();
      const hash = n.toString(16).padStart(40, '0');
      const image = n % 3 !== 0;
      return {
        created_at: ts, updated_at: ts, name: `resource ${n}`, original_name: `file-${n}.${image ? 'jpg' : 'pdf'}`, original_location: '',
        hash, hash_type: 'SHA1', location: `/resources/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash.slice(4, 6)}/${hash}.jpg`, description: '',
        meta: `{"n": ${n % 100}}`, own_meta: '{}', width: image ? 1000 + (n % 1000) : 0, height: image ? 800 : 0, file_size: 100_000 + n,
        category: '', content_type: image ? 'image/jpeg' : 'application/pdf', content_category: image ? 'image' : 'application',
        resource_category_id: category, owner_id: n % 10 === 0 ? owner : null,
      };
    });
    const ids = await db.insertInto('resources').values(rows as never).returning('id').execute();
    const tagged = ids.filter((_, k) => (start + k) % 4 === 0).map((r) => ({ resource_id: r.id, tag_id: tag }));
    if (tagged.length) await db.insertInto('resource_tags').values(tagged).execute();
  }
  const loadMs = performance.now() - loadStart;
  const results = [
    await measure('list page 1', 30, () => lib.fetch('/v1/resources')),
    await measure('list page 1000', 30, () => lib.fetch('/v1/resources?page=1000')),
    await measure('list filtered by name', 30, (i) => lib.fetch(`/v1/resources?Name=resource%2099${i % 10}`)),
    await measure('list filtered by tag', 30, () => lib.fetch(`/v1/resources?Tags=${tag}`)),
    await measure('list filtered by owner + content type', 30, () => lib.fetch(`/v1/resources?OwnerId=${owner}&ContentTypes=image/jpeg`)),
    await measure('list filtered by MetaQuery', 30, () => lib.fetch('/v1/resources?MetaQuery=n:EQ:42')),
    await measure('list sorted by file size', 30, () => lib.fetch('/v1/resources?SortBy=file_size%20desc')),
    await measure('HTML grid page 1', 30, () => lib.fetch('/resources')),
  ];
  console.log(JSON.stringify({ benchmark: 'resources', backend: process.env.TEST_DB ?? 'sqlite', resources: total, load_ms: Math.round(loadMs), results }, null, 2));
} finally {
  await lib.close();
}
