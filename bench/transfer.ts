// Export/import benchmark (issue 8): a library with a group tree, many small files, a few large
// ones and notes with blocks is exported (estimate, job, download), then uploaded, parsed and
// applied in a fresh library. Prints durations, throughput and the server's peak memory growth
// while the archive streams (it should stay far below the archive size).
// Run: npx tsx bench/transfer.ts [--groups 200] [--resources 2000] [--notes 1000] [--large 2] [--mb 64] [--backend sqlite|postgres]
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startTestLibrary, type TestLibrary } from '../test/helpers/library.js';
import { argText as arg } from './args.js';

const groups = Number(arg('groups', '200'));
const resources = Number(arg('resources', '2000'));
const notes = Number(arg('notes', '1000'));
const large = Number(arg('large', '2'));
const mb = Number(arg('mb', '64'));
if (arg('backend', 'sqlite') === 'postgres') process.env.TEST_DB = 'postgres';

async function job(lib: TestLibrary, id: string): Promise<{ status: string; error?: string }> {
  for (;;) {
    const r = await lib.json<{ status: string; error?: string }>('GET', `/v1/jobs/get?id=${id}`);
    if (['completed', 'failed', 'cancelled'].includes(r.body.status)) {
      if (r.body.status !== 'completed') throw new Error(`job ${id}: ${r.body.status} ${r.body.error ?? ''}`);
      return r.body;
    }
    await new Promise((res) => setTimeout(res, 20));
  }
}

async function uploadFiles(lib: TestLibrary, owner: number, files: { name: string; data: Buffer }[]): Promise<void> {
  const form = new FormData();
  form.append('OwnerId', String(owner));
  for (const f of files) form.append('resource', new Blob([new Uint8Array(f.data)]), f.name);
  const res = await fetch(lib.url + '/v1/resource', { method: 'POST', body: form, headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

/** Peak resident memory growth while `work` runs. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakGrowthMb: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await work();
    return { result, peakGrowthMb: +((peak - base) / 1048576).toFixed(1) };
  } finally {
    clearInterval(timer);
  }
}

const a = await startTestLibrary(['-hash-worker-disabled']);
const b = await startTestLibrary(['-hash-worker-disabled']);
try {
  const loadStart = performance.now();
  const root = (await a.json<{ ID: number }>('POST', '/v1/group', { Name: 'bench root' })).body.ID;
  const ids: number[] = [root];
  for (let i = 1; i < groups; i++) {
    const parent = ids[Math.floor((i - 1) / 10)];
    ids.push((await a.json<{ ID: number }>('POST', '/v1/group', { Name: `group ${i}`, OwnerId: parent, Meta: `{"n":${i}}` })).body.ID);
  }
  for (let i = 0; i < resources; i += 50) {
    const batch = Array.from({ length: Math.min(50, resources - i) }, (_, k) => ({ name: `file-${i + k}.bin`, data: randomBytes(4096 + ((i + k) % 16) * 1024) }));
    await uploadFiles(a, ids[(i / 50) % ids.length], batch);
  }
  for (let i = 0; i < large; i++) await uploadFiles(a, root, [{ name: `large-${i}.bin`, data: randomBytes(mb * 1048576) }]);
  const db = a.lib.db;
  const now = new Date().toISOString();
  for (let i = 0; i < notes; i += 200) {
    const rows = Array.from({ length: Math.min(200, notes - i) }, (_, k) => ({ created_at: now, updated_at: now, name: `note ${i + k}`, description: 'text', meta: '{}', owner_id: ids[(i + k) % ids.length], guid: crypto.randomUUID() }));
    const inserted = await db.insertInto('notes').values(rows as never).returning('id').execute();
    const blocks = inserted.flatMap((n) =>
      ['n', 'q', 't'].map((position, j) => ({ created_at: now, updated_at: now, note_id: n.id, type: j === 1 ? 'todos' : 'text', position, content: j === 1 ? '{"items":[{"id":"a","label":"x"}]}' : '{"text":"text"}', state: j === 1 ? '{"checked":["a"]}' : '{}' })),
    );
    await db.insertInto('note_blocks').values(blocks as never).execute();
  }
  const loadMs = performance.now() - loadStart;

  const body = { rootGroupIds: [root], fidelity: { resource_versions: true } };
  let t = performance.now();
  const est = await a.json<{ estimatedBytes: number; counts: Record<string, number> }>('POST', '/v1/groups/export/estimate', body);
  const estimateMs = performance.now() - t;

  t = performance.now();
  const exported = await peakRss(async () => {
    const sub = await a.json<{ jobId: string }>('POST', '/v1/groups/export', body);
    await job(a, sub.body.jobId);
    return sub.body.jobId;
  });
  const exportMs = performance.now() - t;
  t = performance.now();
  const archive = Buffer.from(await (await a.fetch(`/v1/exports/${exported.result}/download`)).arrayBuffer());
  const downloadMs = performance.now() - t;

  t = performance.now();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(archive)]), 'bench.tar');
  const up = await fetch(b.url + '/v1/groups/import/parse', { method: 'POST', body: form, headers: { accept: 'application/json' } });
  const parseId = ((await up.json()) as { jobId: string }).jobId;
  const uploadMs = performance.now() - t;
  t = performance.now();
  await job(b, parseId);
  const parseMs = performance.now() - t;
  t = performance.now();
  const applied = await peakRss(async () => {
    const r = await b.json<{ jobId: string }>('POST', `/v1/imports/${parseId}/apply`, {});
    await job(b, r.body.jobId);
    return (await b.json<Record<string, number>>('GET', `/v1/imports/${parseId}/result`)).body;
  });
  const applyMs = performance.now() - t;
  const entities = applied.result.created_groups + applied.result.created_resources + applied.result.created_notes;
  const archiveMb = archive.length / 1048576;

  console.log(
    JSON.stringify(
      {
        backend: process.env.TEST_DB ?? 'sqlite',
        fixture: { groups, resources: resources + large, largeFileMb: mb, notes, loadMs: Math.round(loadMs) },
        counts: est.body.counts,
        archiveMb: +archiveMb.toFixed(1),
        estimateMs: +estimateMs.toFixed(1),
        exportMs: Math.round(exportMs),
        exportMbPerS: +(archiveMb / (exportMs / 1000)).toFixed(1),
        exportPeakRssGrowthMb: exported.peakGrowthMb,
        downloadMs: Math.round(downloadMs),
        uploadAndCheckMs: Math.round(uploadMs),
        parseMs: Math.round(parseMs),
        applyMs: Math.round(applyMs),
        applyEntitiesPerS: Math.round(entities / (applyMs / 1000)),
        applyPeakRssGrowthMb: applied.peakGrowthMb,
        created: { groups: applied.result.created_groups, resources: applied.result.created_resources, notes: applied.result.created_notes },
      },
      null,
      2,
    ),
  );
} finally {
  await a.close();
  await b.close();
}
