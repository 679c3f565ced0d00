// Resource versions over HTTP: upload, list, get, restore, the delete rules, file download
// with the PDF-only inline rule, cleanup per resource and global, and compare.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { pdf, png, postMultipart, upload } from '../../helpers/resources.js';

type V = { id: number; resourceId: number; versionNumber: number; hash: string; fileSize: number; contentType: string; width: number; height: number; location: string; comment: string; createdAt: string };
type R = { ID: number; Hash: string; Width: number; ContentType: string; currentVersionId: number; OwnerId: number | null };

let lib: TestLibrary;
let seed = 900;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

async function resource(fields: Record<string, string | number> = {}): Promise<R> {
  const r = await upload(lib, [{ name: 'v.png', data: await png(40, 30, seed++) }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body[0];
}
async function addVersion(id: number, data: Buffer, name = 'next.png', comment = '') {
  return postMultipart(lib, `/v1/resource/versions?resourceId=${id}`, 'file', [{ name, data }], comment ? { comment } : {});
}
const versions = async (id: number) => (await lib.json<V[]>('GET', `/v1/resource/versions?resourceId=${id}`)).body;

describe('versions', () => {
  it('uploads a new version that becomes current, lists newest first, and reads one', async () => {
    const r = await resource();
    const next = await png(50, 50, seed++);
    const up = await addVersion(r.ID, next, 'second.png', 'better scan');
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ resourceId: r.ID, versionNumber: 2, comment: 'better scan', width: 50, height: 50, contentType: 'image/png', fileSize: next.length });
    const list = await versions(r.ID);
    expect(list.map((v) => v.versionNumber)).toEqual([2, 1]);
    const res = await lib.json<R>('GET', `/v1/resource?id=${r.ID}`);
    expect(res.body).toMatchObject({ currentVersionId: up.body.id, Width: 50, Hash: up.body.hash });
    expect((await lib.json<V>('GET', `/v1/resource/version?id=${list[1].id}`)).body.versionNumber).toBe(1);
    expect((await lib.json('GET', '/v1/resource/version?id=999999')).status).toBe(404);
    expect((await addVersion(999999, next)).status).toBe(404);
    expect((await postMultipart(lib, `/v1/resource/versions?resourceId=${r.ID}`, 'other', [{ name: 'x', data: next }])).status).toBe(400);
    expect((await addVersion(r.ID, (await png(20, 20, seed++)).subarray(0, 100))).status).toBe(400);
  });

  it('restores an old version as a new one without copying the file', async () => {
    const r = await resource();
    const second = (await addVersion(r.ID, await png(60, 60, seed++))).body as V;
    const v1 = (await versions(r.ID)).find((v) => v.versionNumber === 1)!;
    const restored = await lib.json<V>('POST', '/v1/resource/version/restore', { resourceId: r.ID, versionId: v1.id });
    expect(restored.body).toMatchObject({ versionNumber: 3, hash: v1.hash, location: v1.location, comment: 'Restored from version 1' });
    expect((await lib.json<R>('GET', `/v1/resource?id=${r.ID}`)).body.Hash).toBe(v1.hash);
    const custom = await lib.json<V>('POST', '/v1/resource/version/restore', { resourceId: r.ID, versionId: second.id, comment: 'back again' });
    expect(custom.body.comment).toBe('back again');
    const other = await resource();
    expect((await lib.json('POST', '/v1/resource/version/restore', { resourceId: other.ID, versionId: v1.id })).status).toBe(400);
  });

  it('delete: 409 for current or last, 400 for another resource, 404 when missing; files go when unused', async () => {
    const r = await resource();
    const only = (await versions(r.ID))[0];
    const last = await lib.json<{ error: string }>('DELETE', `/v1/resource/version?resourceId=${r.ID}&versionId=${only.id}`);
    expect(last.status).toBe(409);
    const second = (await addVersion(r.ID, await png(70, 70, seed++))).body as V;
    expect((await lib.json('DELETE', `/v1/resource/version?resourceId=${r.ID}&versionId=${second.id}`)).status).toBe(409);
    const other = await resource();
    expect((await lib.json('DELETE', `/v1/resource/version?resourceId=${other.ID}&versionId=${only.id}`)).status).toBe(400);
    expect((await lib.json('DELETE', `/v1/resource/version?resourceId=${r.ID}&versionId=999999`)).status).toBe(404);
    expect(existsSync(join(lib.dir, 'files', only.location))).toBe(true);
    const ok = await lib.json('POST', `/v1/resource/version/delete?resourceId=${r.ID}&versionId=${only.id}`);
    expect(ok.body).toEqual({ status: 'deleted' });
    expect(existsSync(join(lib.dir, 'files', only.location))).toBe(false);
    expect((await versions(r.ID)).map((v) => v.versionNumber)).toEqual([2]);
  });

  it('serves version files as attachments; inline only for PDF, with X-Frame-Options SAMEORIGIN', async () => {
    const img = await resource();
    const v = (await versions(img.ID))[0];
    const plain = await lib.fetch(`/v1/resource/version/file?versionId=${v.id}&disposition=inline`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('image/png');
    expect(plain.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="v1_${v.hash.slice(0, 8)}\\.png"`));
    expect(plain.headers.get('x-frame-options')).toBe('DENY');
    const doc = await upload(lib, [{ name: 'd.pdf', data: pdf('version') }]);
    const dv = (await versions(doc.body[0].ID))[0];
    const inline = await lib.fetch(`/v1/resource/version/file?versionId=${dv.id}&disposition=inline`);
    expect(inline.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(inline.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const attached = await lib.fetch(`/v1/resource/version/file?versionId=${dv.id}`);
    expect(attached.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(attached.headers.get('x-frame-options')).toBe('DENY');
    const ranged = await lib.fetch(`/v1/resource/version/file?versionId=${dv.id}`, { headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('%PDF');
  });

  it('compares two versions with every field', async () => {
    const r = await resource();
    const v2 = (await addVersion(r.ID, await png(80, 30, seed++))).body as V;
    const v1 = (await versions(r.ID)).find((v) => v.versionNumber === 1)!;
    const c = await lib.json<Record<string, unknown>>('GET', `/v1/resource/versions/compare?resourceId=${r.ID}&v1=${v1.id}&v2=${v2.id}`);
    expect(c.body).toMatchObject({ sizeDelta: v2.fileSize - v1.fileSize, sameHash: false, sameType: true, dimensionsDiff: true, crossResource: false });
    expect((c.body.version1 as V).id).toBe(v1.id);
    expect((c.body.version2 as V).id).toBe(v2.id);
    expect(c.body.resource1).toBeUndefined();
    expect((await lib.json('GET', `/v1/resource/versions/compare?resourceId=${r.ID}&v1=${v1.id}`)).status).toBe(400);
    const page = await lib.fetch(`/resource/compare?r1=${r.ID}&v1=1&v2=2`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="compare"');
    const redirect = await lib.fetch(`/resource/compare?r1=${r.ID}`);
    expect(redirect.status).toBe(302);
  });

  it('cleans up old versions per resource and globally, with dry runs', async () => {
    const owner = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'cleanup-owner' })).body.ID;
    const r = await resource({ OwnerId: owner });
    for (let i = 0; i < 3; i++) await addVersion(r.ID, await png(30 + i, 30, seed++));
    const all = await versions(r.ID); // 4, 3, 2, 1
    const dry = await lib.json<{ deletedVersionIds: number[]; count: number }>('POST', '/v1/resource/versions/cleanup', { resourceId: r.ID, keepLast: 2, dryRun: true });
    expect(dry.body).toEqual({ deletedVersionIds: [all[2].id, all[3].id], count: 2 });
    expect((await versions(r.ID)).length).toBe(4);
    const none = await lib.json<{ count: number }>('POST', '/v1/resource/versions/cleanup', { resourceId: r.ID, olderThanDays: 30 });
    expect(none.body.count).toBe(0);
    const real = await lib.json<{ count: number }>('POST', '/v1/resource/versions/cleanup', { resourceId: r.ID, keepLast: 3 });
    expect(real.body.count).toBe(1);
    expect((await versions(r.ID)).map((v) => v.versionNumber)).toEqual([4, 3, 2]);

    const other = await resource();
    await addVersion(other.ID, await png(90, 30, seed++));
    const globalDry = await lib.json<{ deletedByResource: Record<string, number[]>; totalDeleted: number }>('POST', '/v1/resources/versions/cleanup', { keepLast: 1, ownerId: owner, dryRun: true });
    expect(Object.keys(globalDry.body.deletedByResource)).toEqual([String(r.ID)]);
    expect(globalDry.body.totalDeleted).toBe(2);
    const global = await lib.json<{ deletedByResource: Record<string, number[]>; totalDeleted: number }>('POST', '/v1/resources/versions/cleanup', { keepLast: 1 });
    expect(global.body.deletedByResource[String(r.ID)].length).toBe(2);
    expect(global.body.deletedByResource[String(other.ID)].length).toBe(1);
    expect((await versions(other.ID)).length).toBe(1);
    expect((await lib.json('POST', '/v1/resource/versions/cleanup', { resourceId: r.ID, keepLast: -1 })).status).toBe(400);
  });
});
