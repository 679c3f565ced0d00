// Group export over HTTP: the estimate and submit bodies and their errors, the job snapshot, the
// download (404/409/410, headers, gzip), and the archive: layout, manifest and entity payloads.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { buildFixture, type Fixture } from '../../helpers/transfer-fixture.js';
import { exportArchive, jsonOf, readTar, waitJob, type Job } from '../../helpers/transfer.js';

let lib: TestLibrary;
let stub: StubServer;
let fx: Fixture;
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

type Estimate = { counts: Record<string, number>; uniqueBlobs: number; estimatedBytes: number; danglingByKind: Record<string, number> };
type Manifest = {
  schema_version: number;
  created_by: string;
  roots: string[];
  counts: Record<string, number>;
  export_options: Record<string, unknown>;
  entries: Record<string, { export_id: string; name: string; source_id: number; path: string; guid?: string; owner?: string; hash?: string; shell?: boolean }[]>;
  schema_defs: Record<string, { export_id: string; name: string; path: string }[]>;
  dangling_references: { id: string; kind: string; from: string; to_stub: { source_id: number; name: string; reason: string }; relation_type_name?: string }[];
  warnings: string[];
};

beforeAll(async () => {
  stub = await startStubServer();
  stub.routes.set('/stall', (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('x');
  });
  // One worker slot, so a stalled download can hold an export in `pending`.
  lib = await startTestLibrary(['-hash-worker-disabled', '-max-job-concurrency', '1', '-allow-private-fetch', '127.0.0.1']);
  fx = await buildFixture(lib);
});
afterAll(async () => {
  await lib?.close();
  await stub?.close();
});

describe('estimate', () => {
  it('counts what the export would hold and what points outside it', async () => {
    const r = await lib.json<Estimate>('POST', '/v1/groups/export/estimate', { rootGroupIds: [fx.acme] });
    expect(r.status).toBe(200);
    expect(r.body.counts).toEqual({ groups: 3, notes: 2, resources: 4, series: 1, blobs: 4, previews: 0, versions: 0 });
    expect(r.body.uniqueBlobs).toBe(4);
    expect(r.body.estimatedBytes).toBeGreaterThan(0);
    // Acme → Outside (related group), Acme → stray and Kick-off → stray (related resources).
    expect(r.body.danglingByKind).toEqual({ related_group: 1, related_resource: 2 });
  });

  it('follows related groups as shell groups and counts versions when asked', async () => {
    const r = await lib.json<Estimate>('POST', '/v1/groups/export/estimate', { rootGroupIds: [fx.acme], relatedDepth: 1, fidelity: { resource_versions: true } });
    expect(r.body.counts).toMatchObject({ groups: 3, shell_groups: 1, versions: 5, blobs: 5 });
    expect(r.body.danglingByKind).toEqual({ related_resource: 2 });
    const narrow = await lib.json<Estimate>('POST', '/v1/groups/export/estimate', { rootGroupIds: [fx.acme], scope: { subtree: false, owned_notes: false }, fidelity: { resource_blobs: false } });
    expect(narrow.body.counts).toMatchObject({ groups: 1, notes: 0, resources: 1, blobs: 0 });
  });

  it('refuses empty roots, unknown roots and bad toggles without queueing anything', async () => {
    const before = (await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue')).body.jobs.length;
    for (const path of ['/v1/groups/export/estimate', '/v1/groups/export']) {
      const empty = await lib.json<{ error: string }>('POST', path, { rootGroupIds: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('rootGroupIds is required');
      expect((await lib.json('POST', path, {})).status).toBe(400);
      const unknown = await lib.json<{ error: string }>('POST', path, { rootGroupIds: [fx.acme, 999999] });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatch(/group not found or not permitted/);
      expect((await lib.json('POST', path, { rootGroupIds: [fx.acme], scope: { subtree: 'yes' } })).status).toBe(400);
      expect((await lib.json('POST', path, { rootGroupIds: [fx.acme], fidelity: [1] })).status).toBe(400);
      expect((await lib.json('POST', path, { rootGroupIds: [fx.acme], relatedDepth: 9 })).status).toBe(400);
    }
    expect((await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue')).body.jobs.length).toBe(before);
  });
});

describe('export job and download', () => {
  it('writes the archive as a job and serves it with attachment headers', async () => {
    const { job, bytes, res } = await exportArchive(lib, { rootGroupIds: [fx.acme] });
    expect(job).toMatchObject({ source: 'group-export', phase: 'completed', resultPath: `_exports/${job.id}.tar`, url: '' });
    expect(job.progress).toBe(job.totalSize);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="stacks-export-\d{8}-\d{6}\.tar"/);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.subarray(0, 13).toString()).toBe('manifest.json');
    const part = await lib.fetch(`/v1/exports/${job.id}/download`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 100));
    // The archive is not a public file, and exports are not download history.
    expect((await lib.fetch(`/files/_exports/${job.id}.tar`)).status).toBe(404);
    const history = await lib.json<{ downloads: unknown[] }>('GET', '/v1/downloads');
    expect(history.body.downloads).toEqual([]);
  });

  it('gzips when asked', async () => {
    const { job, bytes, res } = await exportArchive(lib, { rootGroupIds: [fx.team], gzip: true });
    expect(job.resultPath).toBe(`_exports/${job.id}.tar.gz`);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/filename="stacks-export-\d{8}-\d{6}\.tar\.gz"/);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const { names } = await readTar(bytes);
    expect(names[0]).toBe('manifest.json');
  });

  it('answers 404 for unknown ids, 409 until finished, 410 after retention', async () => {
    expect((await lib.json('GET', '/v1/exports/0123456789abcdef/download')).status).toBe(404);
    expect((await lib.json('GET', '/v1/exports/..%2F..%2Fetc/download')).status).toBe(404);
    // A stalled download holds the only worker slot, so the export waits in `pending`.
    const dl = await lib.json<{ jobs: Job[] }>('POST', '/v1/jobs/download/submit', { URL: `${stub.url}/stall` });
    const sub = await lib.json<{ jobId: string }>('POST', '/v1/groups/export', { rootGroupIds: [fx.acme] });
    expect(sub.status).toBe(202);
    const pending = await lib.json<{ error: string }>('GET', `/v1/exports/${sub.body.jobId}/download`);
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatch(/not finished/);
    // A cancelled export never becomes downloadable.
    expect((await lib.json('POST', `/v1/jobs/cancel?id=${sub.body.jobId}`)).status).toBe(200);
    expect((await lib.json('GET', `/v1/exports/${sub.body.jobId}/download`)).status).toBe(409);
    // The download job id is not an export.
    expect((await lib.json('GET', `/v1/exports/${dl.body.jobs[0].id}/download`)).status).toBe(404);
    await lib.json('POST', `/v1/jobs/cancel?id=${dl.body.jobs[0].id}`);

    const { job } = await exportArchive(lib, { rootGroupIds: [fx.team] });
    const record = join(lib.dir, 'files', '_exports', `${job.id}.json`);
    const saved = JSON.parse(readFileSync(record, 'utf8'));
    writeFileSync(record, JSON.stringify({ ...saved, completedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() }));
    const gone = await lib.json<{ error: string }>('GET', `/v1/exports/${job.id}/download`);
    expect(gone.status).toBe(410);
    expect(gone.body.error).toMatch(/expired/);
    // A longer retention makes it downloadable again (the setting applies on next use).
    expect((await lib.json('PUT', '/v1/admin/settings/export_retention', { value: '48h' })).status).toBe(200);
    expect((await lib.fetch(`/v1/exports/${job.id}/download`)).status).toBe(200);
    expect((await lib.json('DELETE', '/v1/admin/settings/export_retention')).status).toBe(200);
  });
});

describe('archive contents', () => {
  let names: string[];
  let files: Map<string, Buffer>;
  let manifest: Manifest;

  beforeAll(async () => {
    // A cached thumbnail of the logo, so previews have something to carry.
    expect((await lib.fetch(`/v1/resource/preview?id=${fx.logo}&Height=20`)).status).toBe(200);
    const out = await exportArchive(lib, { rootGroupIds: [fx.acme], fidelity: { resource_versions: true, resource_previews: true } });
    ({ names, files } = await readTar(out.bytes));
    manifest = jsonOf<Manifest>(files, 'manifest.json');
  });

  it('lays the archive out manifest first, then schemas, entities, blobs and previews', () => {
    expect(names[0]).toBe('manifest.json');
    expect(names.slice(1, 6)).toEqual(['schemas/categories.json', 'schemas/note_types.json', 'schemas/resource_categories.json', 'schemas/tags.json', 'schemas/group_relation_types.json']);
    const kinds = names.slice(6).map((n) => n.split('/')[0]);
    expect(kinds).toEqual([...kinds].sort((a, b) => ['groups', 'notes', 'resources', 'series', 'blobs', 'previews'].indexOf(a) - ['groups', 'notes', 'resources', 'series', 'blobs', 'previews'].indexOf(b)));
    expect(names.filter((n) => n.startsWith('groups/'))).toEqual(['groups/g0001.json', 'groups/g0002.json', 'groups/g0003.json']);
    expect(names.filter((n) => n.startsWith('notes/'))).toEqual(['notes/n0001.json', 'notes/n0002.json']);
    expect(names.filter((n) => n.startsWith('resources/'))).toHaveLength(4);
    expect(names.filter((n) => n.startsWith('series/'))).toEqual(['series/s0001.json']);
    // Blobs are named by the SHA-1 of their bytes; versions bring their own.
    const blobs = names.filter((n) => n.startsWith('blobs/'));
    expect(blobs).toHaveLength(5);
    for (const b of blobs) expect(sha1(files.get(b)!)).toBe(b.slice(6));
    expect(names.filter((n) => n.startsWith('previews/')).length).toBeGreaterThanOrEqual(1);
  });

  it('describes the export in the manifest', () => {
    expect(manifest).toMatchObject({ schema_version: 1, created_by: 'stacks', roots: ['g0001'], warnings: [] });
    expect(manifest.counts).toMatchObject({ groups: 3, shell_groups: 0, notes: 2, resources: 4, series: 1, blobs: 5, versions: 5 });
    expect(manifest.export_options).toMatchObject({ gzip: false, related_depth: 0, fidelity: { resource_versions: true, resource_previews: true, resource_blobs: true, resource_series: true } });
    expect(manifest.entries.groups.map((g) => [g.export_id, g.name, g.source_id, g.path, g.shell])).toEqual([
      ['g0001', 'Acme', fx.acme, 'groups/g0001.json', false],
      ['g0002', 'Team', fx.team, 'groups/g0002.json', false],
      ['g0003', 'Alice', fx.alice, 'groups/g0003.json', false],
    ]);
    const report = manifest.entries.resources.find((r) => r.source_id === fx.report)!;
    expect(report).toMatchObject({ owner: 'g0003', name: 'report.pdf' });
    expect(report.hash).toMatch(/^[0-9a-f]{40}$/);
    expect(manifest.entries.notes.find((n) => n.source_id === fx.meeting)).toMatchObject({ owner: 'g0001', name: 'Kick-off' });
    expect(manifest.schema_defs.categories.map((c) => c.name).sort()).toEqual(['Person', 'Project']);
    expect(manifest.schema_defs.group_relation_types.map((c) => c.name).sort()).toEqual(['Worked on by', 'Works on']);
    expect(manifest.schema_defs.tags.map((c) => c.name).sort()).toEqual(['alpha', 'beta']);
    expect(manifest.dangling_references.map((d) => [d.kind, d.from, d.to_stub.name, d.to_stub.reason]).sort()).toEqual([
      ['related_group', 'g0001', 'Outside', 'not in export'],
      ['related_resource', 'g0001', 'stray.png', 'not in export'],
      ['related_resource', 'n0001', 'stray.png', 'not in export'],
    ]);
  });

  it('writes entity payloads with export ids for every reference', () => {
    const acme = jsonOf(files, 'groups/g0001.json');
    const categories = jsonOf<{ export_id: string; name: string; custom_header: string; meta_schema: string; section_config: unknown }[]>(files, 'schemas/categories.json');
    const project = categories.find((c) => c.name === 'Project')!;
    expect(project).toMatchObject({ custom_header: '<h2>{{ entity.Name }}</h2>', section_config: { tags: false } });
    expect(JSON.parse(project.meta_schema)).toMatchObject({ type: 'object' });
    expect(acme).toMatchObject({
      export_id: 'g0001',
      source_id: fx.acme,
      shell: false,
      name: 'Acme',
      description: 'the **root**',
      url: 'https://acme.example/',
      owner_ref: null,
      category_ref: project.export_id,
      category_name: 'Project',
      meta: { budget: 12, nested: { a: [1, 2] } },
      related_groups: [],
    });
    expect(acme.tags).toEqual([{ ref: expect.stringMatching(/^t\d{4}$/), name: 'alpha' }]);
    expect(acme.relationships).toEqual([expect.objectContaining({ type_name: 'Worked on by', to_ref: 'g0003', from_category_name: 'Project', to_category_name: 'Person' })]);
    const alice = jsonOf(files, 'groups/g0003.json');
    expect(alice.relationships).toEqual([expect.objectContaining({ type_name: 'Works on', to_ref: 'g0001', name: 'lead', description: 'since 2020' })]);
    expect(jsonOf(files, 'groups/g0002.json')).toMatchObject({ owner_ref: 'g0001', related_groups: ['g0003'] });

    const resources = names.filter((n) => n.startsWith('resources/')).map((n) => jsonOf(files, n));
    const report = resources.find((r) => r.source_id === fx.report)!;
    expect(report.versions).toHaveLength(2);
    expect(report.versions).toEqual([
      expect.objectContaining({ version_number: 1, blob_missing: false, comment: 'Original' }),
      expect.objectContaining({ version_number: 2, comment: 'second draft', blob_ref: `blobs/${report.hash}` }),
    ]);
    expect(report.current_version_ref).toBe((report.versions as { version_export_id: string }[])[1].version_export_id);
    const photo = resources.find((r) => r.source_id === fx.photo)!;
    expect(photo).toMatchObject({ series_ref: 's0001', groups: ['g0001'], blob_ref: `blobs/${photo.hash}`, blob_missing: false, meta: { trip: 'alps', day: 1 } });
    const logo = resources.find((r) => r.source_id === fx.logo)!;
    expect(logo).toMatchObject({ resource_category_name: 'Scans', notes: ['n0001'], description: 'the logo' });
    expect((logo.previews as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect(jsonOf(files, 'series/s0001.json')).toMatchObject({ name: 'holiday', slug: 'holiday', meta: { trip: 'alps', day: 1 } });

    const note = jsonOf<{ blocks: { type: string; position: string; content: Record<string, unknown>; state: Record<string, unknown>; refs?: Record<string, unknown> }[] } & Record<string, unknown>>(files, 'notes/n0001.json');
    expect(note).toMatchObject({ name: 'Kick-off', owner_ref: 'g0001', note_type_name: 'Meeting', groups: ['g0002'], start_date: '2024-03-01T10:00:00.000Z', meta: { room: 'A' } });
    expect(note.resources).toEqual([logo.export_id]);
    expect(note.blocks.map((b) => b.type)).toEqual(['text', 'heading', 'todos', 'gallery', 'references', 'table', 'table', 'divider']);
    expect(note.blocks[2].state).toEqual({ checked: ['a'] });
    expect(note.blocks[3].refs).toEqual({ resourceIds: [photo.export_id, logo.export_id, null] });
    expect(note.blocks[4].refs).toEqual({ groupIds: ['g0002', null] });
    expect(note.blocks[5].refs).toEqual({ query_name: 'all tags' });
    const positions = note.blocks.map((b) => b.position);
    expect([...positions].sort()).toEqual(positions);
  });

  it('carries names instead of definitions when schema toggles are off, and leaves out what scope excludes', async () => {
    const { bytes } = await exportArchive(lib, {
      rootGroupIds: [fx.acme],
      scope: { subtree: false, owned_notes: false, related_m2m: false, group_relations: false },
      schemaDefs: { categories_and_types: false, tags: false, group_relation_types: false },
    });
    const t = await readTar(bytes);
    expect(t.names.filter((n) => n.startsWith('schemas/'))).toEqual([]);
    expect(t.names.filter((n) => n.startsWith('groups/'))).toEqual(['groups/g0001.json']);
    expect(t.names.filter((n) => n.startsWith('notes/'))).toEqual([]);
    const acme = jsonOf(t.files, 'groups/g0001.json');
    expect(acme).toMatchObject({ category_ref: null, category_name: 'Project', tags: [{ ref: null, name: 'alpha' }], relationships: [], related_groups: [], related_resources: [] });
    expect(jsonOf<Manifest>(t.files, 'manifest.json').dangling_references).toEqual([]);
  });

  it('names the relation type of a relation whose target stays outside', async () => {
    const { bytes } = await exportArchive(lib, { rootGroupIds: [fx.alice], scope: { related_m2m: false } });
    const t = await readTar(bytes);
    const dangling = jsonOf<Manifest>(t.files, 'manifest.json').dangling_references;
    expect(dangling).toEqual([{ id: expect.any(String), kind: 'group_relation', from: 'g0001', to_stub: { source_id: fx.acme, name: 'Acme', reason: 'not in export' }, relation_type_name: 'Works on' }]);
    const alice = jsonOf<{ relationships: Record<string, unknown>[] }>(t.files, 'groups/g0001.json');
    expect(alice.relationships).toEqual([expect.objectContaining({ type_name: 'Works on', dangling_ref: dangling[0].id, name: 'lead' })]);
  });

  it('follows related groups as shell groups', async () => {
    const { bytes } = await exportArchive(lib, { rootGroupIds: [fx.acme], relatedDepth: 1 });
    const t = await readTar(bytes);
    const m = jsonOf<Manifest>(t.files, 'manifest.json');
    expect(m.entries.groups.map((g) => [g.name, g.shell])).toEqual([
      ['Acme', false],
      ['Team', false],
      ['Alice', false],
      ['Outside', true],
    ]);
    const shell = jsonOf(t.files, 'groups/g0004.json');
    expect(shell).toMatchObject({ name: 'Outside', shell: true, relationships: [], related_resources: [] });
    expect(jsonOf(t.files, 'groups/g0001.json').related_groups).toEqual(['g0004']);
    // Shell groups are exported without what they own.
    expect(m.entries.resources.map((r) => r.name)).not.toContain('stray.png');
    expect(m.entries.notes.map((r) => r.name)).not.toContain('Elsewhere');
  });

  it('exports a resource whose file vanished without its bytes, with a warning', async () => {
    const rec = (await lib.json<{ Location: string; Hash: string }>('GET', `/v1/resource?id=${fx.stray}`)).body;
    rmSync(join(lib.dir, 'files', rec.Location), { force: true });
    const { job, bytes } = await exportArchive(lib, { rootGroupIds: [fx.outside] });
    expect(job.warnings?.join()).toMatch(/missing/);
    const t = await readTar(bytes);
    expect(t.names.some((n) => n.startsWith('blobs/'))).toBe(false);
    const stray = jsonOf(t.files, 'resources/r0001.json');
    expect(stray).toMatchObject({ blob_ref: null, blob_missing: true, hash: rec.Hash });
    expect(jsonOf<Manifest>(t.files, 'manifest.json').warnings.join()).toMatch(new RegExp(rec.Hash));
  });
});

describe('job lifecycle', () => {
  it('reports phases through the job events and keeps exports out of the download history', async () => {
    const sub = await lib.json<{ jobId: string }>('POST', '/v1/groups/export', { rootGroupIds: [fx.acme] });
    const job = await waitJob(lib, sub.body.jobId);
    expect(job.status).toBe('completed');
    const listed = (await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue')).body.jobs.find((j) => j.id === job.id);
    expect(listed).toMatchObject({ source: 'group-export', status: 'completed' });
    expect((await lib.json<{ downloads: unknown[] }>('GET', '/v1/downloads')).body.downloads.every((d) => (d as { jobId: string }).jobId !== job.id)).toBe(true);
  });
});
