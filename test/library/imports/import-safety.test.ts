// Untrusted archives: every malformed or malicious upload is refused with a 4xx while it
// streams in, no job is queued, no staging is left behind and nothing reaches the library.
// Also: an apply that stops after placing a file (a rollback here, a kill -9 in the crash test)
// leaves the import applicable again.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { MANIFEST, applyImport, parseArchive, rawTar, uploadArchive, waitJob, type Job } from '../../helpers/transfer.js';

let lib: TestLibrary;
let stub: StubServer;

beforeAll(async () => {
  stub = await startStubServer();
  stub.routes.set('/stall', (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('x');
  });
  // One worker slot: a stalled download keeps parse and apply jobs waiting.
  lib = await startTestLibrary(['-hash-worker-disabled', '-max-job-concurrency', '1', '-allow-private-fetch', '127.0.0.1']);
});
afterAll(async () => {
  await lib?.close();
  await stub?.close();
});

const group = (name: string) => JSON.stringify({ export_id: 'g0001', name, shell: false, owner_ref: null, tags: [], related_groups: [], related_resources: [], related_notes: [], relationships: [], meta: {} });

async function nothingChanged(): Promise<void> {
  expect((await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue')).body.jobs.filter((j) => j.source === 'group-import-parse')).toEqual([]);
  const staged = (() => {
    try {
      return readdirSync(join(lib.dir, 'files', '_imports'));
    } catch {
      return [];
    }
  })();
  expect(staged).toEqual([]);
  expect((await lib.json<unknown[]>('GET', '/v1/groups')).body).toEqual([]);
}

describe('refused archives', () => {
  const cases: [string, () => Buffer, RegExp][] = [
    ['an entry climbing out with ..', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'groups/../../escape.json', data: group('x') }]), /"\.\."/],
    ['an absolute entry name', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: '/etc/cron.d/x', data: 'boom' }]), /absolute path/],
    ['a manifest that climbs', () => rawTar([{ name: '../manifest.json', data: MANIFEST }]), /"\.\."/],
    ['a symbolic link', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'blobs/link', type: '2', linkname: '/etc/passwd' }]), /only regular files/],
    ['a hard link', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'groups/g0001.json', type: '1', linkname: 'manifest.json' }]), /only regular files/],
    ['no manifest at all', () => rawTar([{ name: 'groups/g0001.json', data: group('x') }]), /manifest\.json must be the first entry/],
    ['a manifest that is not first', () => rawTar([{ name: 'groups/g0001.json', data: group('x') }, { name: 'manifest.json', data: MANIFEST }]), /first entry/],
    ['two manifests', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'manifest.json', data: MANIFEST }]), /more than one manifest/],
    ['a manifest without schema_version', () => rawTar([{ name: 'manifest.json', data: '{"created_by":"x"}' }]), /no schema_version/],
    ['schema_version 2', () => rawTar([{ name: 'manifest.json', data: '{"schema_version":2}' }]), /unsupported schema_version 2/],
    ['a manifest that is not an object', () => rawTar([{ name: 'manifest.json', data: '[1,2]' }]), /JSON object/],
    ['broken JSON in an entity', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'groups/g0001.json', data: '{"name": ' }]), /not valid JSON/],
    ['a huge JSON entity', () => rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'notes/n0001.json', data: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20) }]), /too large/],
    ['an empty archive', () => rawTar([]), /not a valid tar archive|empty/],
    ['bytes that are not a tar', () => Buffer.from('this is not an archive at all '.repeat(100)), /not a valid tar archive/],
    ['a truncated gzip', () => gzipSync(rawTar([{ name: 'manifest.json', data: MANIFEST }])).subarray(0, 40), /could not be read|not a valid/],
  ];
  for (const [label, make, message] of cases) {
    it(`refuses ${label}`, async () => {
      const r = await uploadArchive(lib, make());
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatch(message);
      await nothingChanged();
    });
  }

  it('refuses a request without the file field, and bodies over max_import_size with 413', async () => {
    const wrongField = await uploadArchive(lib, rawTar([{ name: 'manifest.json', data: MANIFEST }]), 'archive');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error).toMatch(/file is required/);
    const notMultipart = await lib.json('POST', '/v1/groups/import/parse', { file: 'x' });
    expect(notMultipart.status).toBe(400);
    expect((await lib.json('PUT', '/v1/admin/settings/max_import_size', { value: '1M' })).status).toBe(200);
    try {
      const big = rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'blobs/' + 'a'.repeat(40), data: Buffer.alloc(1_200_000, 1) }]);
      const r = await uploadArchive(lib, big);
      expect(r.status).toBe(413);
      expect(r.body.error).toMatch(/request body too large/);
    } finally {
      await lib.json('DELETE', '/v1/admin/settings/max_import_size');
    }
    await nothingChanged();
  });
});

describe('tolerated oddities', () => {
  it('drops a blob whose bytes do not match its name and ignores unknown entries, with warnings', async () => {
    const fake = 'b'.repeat(40);
    const archive = rawTar([
      { name: './manifest.json', data: MANIFEST },
      { name: 'groups/', type: '5' },
      { name: 'groups/g0001.json', data: group('Kept') },
      { name: 'extras/readme.txt', data: 'hello' },
      { name: `blobs/${fake}`, data: 'not those bytes' },
    ]);
    const { id, plan } = await parseArchive(lib, archive);
    expect(plan.counts).toMatchObject({ groups: 1, blobs: 0 });
    expect(plan.warnings.join('\n')).toMatch(/does not match its hash/);
    expect(plan.warnings.join('\n')).toMatch(/unknown archive entry extras\/readme\.txt/);
    const r = await applyImport(lib, id);
    expect(r).toMatchObject({ created_groups: 1 });
    expect((await lib.json<{ Name: string }[]>('GET', '/v1/groups')).body.map((g) => g.Name)).toEqual(['Kept']);
  });
});

describe('imports whose jobs wait', () => {
  it('answers 404 for the plan and 409 for an apply until parsed, and 409 while an apply is queued', async () => {
    const stall = (await lib.json<{ jobs: Job[] }>('POST', '/v1/jobs/download/submit', { URL: `${stub.url}/stall` })).body.jobs[0].id;
    const up = await uploadArchive(lib, rawTar([{ name: 'manifest.json', data: MANIFEST }, { name: 'groups/g0001.json', data: group('Queued') }]));
    expect(up.status).toBe(202);
    const id = up.body.jobId;
    const early = await lib.json<{ error: string }>('GET', `/v1/imports/${id}/plan`);
    expect(early.status).toBe(404);
    expect(early.body.error).toMatch(/not ready/);
    expect((await lib.json('POST', `/v1/imports/${id}/apply`, {})).status).toBe(409);
    await lib.json('POST', `/v1/jobs/cancel?id=${stall}`);
    expect((await waitJob(lib, id)).status).toBe('completed');

    const stall2 = (await lib.json<{ jobs: Job[] }>('POST', '/v1/jobs/download/submit', { URL: `${stub.url}/stall` })).body.jobs[0].id;
    const first = await lib.json<{ jobId: string }>('POST', `/v1/imports/${id}/apply`, {});
    expect(first.status).toBe(202);
    const second = await lib.json<{ error: string }>('POST', `/v1/imports/${id}/apply`, {});
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/being applied/);
    expect((await lib.fetch(`/v1/imports/${id}`, { method: 'DELETE' })).status).toBe(409);
    // A cancelled apply leaves the plan applicable.
    await lib.json('POST', `/v1/jobs/cancel?id=${first.body.jobId}`);
    await lib.json('POST', `/v1/jobs/cancel?id=${stall2}`);
    const r = await applyImport(lib, id);
    expect(r.created_groups).toBe(1);
  });
});

describe('an apply stopped after placing a file', () => {
  it('keeps the staged bytes, so applying again completes the import', async () => {
    const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
    // Two versions whose stored files land under different top-level folders.
    const current = randomBytes(2048);
    let older = randomBytes(2048);
    while (sha1(older).slice(0, 2) === sha1(current).slice(0, 2)) older = randomBytes(2048);
    const [a, b] = [sha1(current), sha1(older)];
    const version = (n: number, hash: string) => ({ version_export_id: `v${n}`, version_number: n, hash: `blobs/${hash}`, file_size: 2048, content_type: 'application/octet-stream' });
    const resource = { export_id: 'r0001', guid: 'c7d1f0a2-5b8e-4c1d-9f3a-2e6b7a8c9d01', name: 'two versions.bin', hash: `blobs/${a}`, content_type: 'application/octet-stream', file_size: 2048, versions: [version(1, b), version(2, a)], current_version_ref: 'v2' };
    const { id } = await parseArchive(lib, rawTar([
      { name: 'manifest.json', data: MANIFEST },
      { name: 'resources/r0001.json', data: JSON.stringify(resource) },
      { name: `blobs/${a}`, data: current },
      { name: `blobs/${b}`, data: older },
    ]));
    // A file where the older version's folder must go: its placement fails after the current
    // version's file was placed, and the transaction rolls back.
    const blocker = join(lib.dir, 'files', 'resources', b.slice(0, 2));
    mkdirSync(join(lib.dir, 'files', 'resources'), { recursive: true });
    writeFileSync(blocker, 'in the way');
    try {
      const first = await lib.json<{ jobId: string }>('POST', `/v1/imports/${id}/apply`, {});
      expect(first.status).toBe(202);
      const failed = await waitJob(lib, first.body.jobId);
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/ENOTDIR/);
      expect((await lib.json<unknown[]>('GET', `/v1/resources?Name=${encodeURIComponent('two versions.bin')}`)).body).toEqual([]);
    } finally {
      rmSync(blocker);
    }
    const r = await applyImport(lib, id);
    expect(r.created_resources).toBe(1);
    const row = (await lib.json<{ Hash: string; url: string; versions: { id: number; hash: string }[] }>('GET', `/v1/resource?id=${r.created_resource_ids[0]}`)).body;
    expect(row.Hash).toBe(a);
    expect(sha1(Buffer.from(await (await lib.fetch(row.url)).arrayBuffer()))).toBe(a);
    expect(row.versions.map((v) => v.hash).sort()).toEqual([a, b].sort());
    for (const v of row.versions) expect(sha1(Buffer.from(await (await lib.fetch(`/v1/resource/version/file?versionId=${v.id}`)).arrayBuffer()))).toBe(v.hash);
  });
});
