// Perceptual hashing in the background worker, stored similarity pairs, the similarity list
// filters, and /v1/resource/suggestedTags scored exactly as the contract defines.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { pdf, png, solid, upload } from '../../helpers/resources.js';
import { dropStoredPairs, storedPairs } from '../../helpers/similarity.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

async function one(data: Buffer, name: string, fields: Record<string, string | number | (string | number)[]> = {}): Promise<number> {
  const r = await upload(lib, [{ name, data }], fields);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body[0].ID;
}
type ImageHash = { aHash: string; dHash: string; hashVersion: number | null; status: string; pChunks: (number | null)[] };
/** The resource's image hash once the worker stored it (GET /v1/resource shows it). */
async function hashed(id: number): Promise<ImageHash> {
  for (let i = 0; i < 200; i++) {
    const r = await lib.json<{ imageHash: ImageHash | null }>('GET', `/v1/resource?id=${id}`);
    if (r.body.imageHash) return r.body.imageHash;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`resource ${id} was never hashed`);
}
/** The pair of two resources as stored, if any. */
async function pairOf(a: number, b: number) {
  return (await storedPairs(lib)).find((p) => p.resource_id1 === Math.min(a, b) && p.resource_id2 === Math.max(a, b));
}
async function ids(query: string): Promise<number[]> {
  return (await lib.json<{ ID: number }[]>('GET', `/v1/resources?${query}`)).body.map((r) => r.ID).sort((a, b) => a - b);
}
const tag = async (name: string) => (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;

describe('hashing and similarity', () => {
  let original: number;
  let copy: number;
  let other: number;
  let flat: number;
  beforeAll(async () => {
    const base = await png(200, 150, 1);
    original = await one(base, 'original.png');
    // The same picture re-encoded and resized: a near duplicate.
    copy = await one(await sharp(base).resize(160, 120).jpeg({ quality: 80 }).toBuffer(), 'copy.jpg');
    other = await one(await sharp(await png(200, 150, 9)).rotate(180).flop().png().toBuffer(), 'other.png');
    flat = await one(await solid(50, 50, '#808080'), 'grey.png');
    for (const id of [original, copy, other, flat]) await hashed(id);
  });

  it('stores version-2 hashes for every image, marks flat images, and records similar pairs once', async () => {
    const h = await hashed(original);
    expect(h).toMatchObject({ hashVersion: 2, status: 'ok' });
    expect(h.dHash).toMatch(/^[0-9a-f]{16}$/);
    expect(h.pChunks.every((c) => Number.isInteger(c))).toBe(true);
    expect((await hashed(flat)).status).toBe('flat');
    const pairs = await storedPairs(lib);
    const pair = pairs.find((p) => p.resource_id1 === Math.min(original, copy) && p.resource_id2 === Math.max(original, copy));
    expect(pair).toBeDefined();
    expect(pair!.p_distance).toBeLessThanOrEqual(10);
    expect(pairs.some((p) => p.resource_id1 === flat || p.resource_id2 === flat)).toBe(false);
    expect(pairs.every((p) => p.resource_id1 < p.resource_id2)).toBe(true);
  });

  it('filters ShowWithSimilar and ShowDhashZero', async () => {
    const similar = await ids('ShowWithSimilar=true');
    expect(similar).toContain(original);
    expect(similar).toContain(copy);
    expect(similar).not.toContain(flat);
    expect(await ids('ShowDhashZero=true')).toEqual([flat]);
  });

  it('a new current file is re-hashed and loses its old pairs', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await png(90, 90, 33))]), 'new.png');
    const res = await fetch(`${lib.url}/v1/resource/versions?resourceId=${copy}`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    for (let i = 0; i < 200; i++) {
      if (!(await pairOf(original, copy))) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await ids('ShowWithSimilar=true')).not.toContain(copy);
  });
});

describe('suggested tags', () => {
  it('combines similar, co-occurrence and group evidence with the contract weights', async () => {
    const g = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'suggest-owner' })).body.ID;
    const [applied, fromSimilar, shared] = [await tag('s-applied'), await tag('s-similar'), await tag('s-shared')];
    const picture = await png(180, 120, 50);
    const target = await one(picture, 'target.png', { OwnerId: g, Tags: [applied] });
    const neighbour = await one(await sharp(picture).resize(150, 100).jpeg({ quality: 85 }).toBuffer(), 'neighbour.jpg', { Tags: [fromSimilar] });
    // Documents carry the co-occurring tag: two in the owner group, one without owner.
    await one(pdf('x1'), 'x1.pdf', { OwnerId: g, Tags: [applied, shared] });
    await one(pdf('x2'), 'x2.pdf', { OwnerId: g, Tags: [applied, shared] });
    await one(pdf('x3'), 'x3.pdf', { Tags: [applied] });
    await hashed(target);
    await hashed(neighbour);
    let distance: number | null = null;
    for (let i = 0; i < 200 && distance === null; i++) {
      const p = await pairOf(target, neighbour);
      if (p) distance = Number(p.p_distance);
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(distance).not.toBeNull();
    const r = await lib.json<{ suggestions: { ID: number; Name: string; score: number; sources: string[] }[] }>('GET', `/v1/resource/suggestedTags?id=${target}`);
    expect(r.status).toBe(200);
    const w = Math.pow(2, -distance! / 3);
    const byName = Object.fromEntries(r.body.suggestions.map((s) => [s.Name, s]));
    // Similar: one tagged neighbour, weight w: w / (w + 2), times 0.5.
    expect(byName['s-similar'].sources).toEqual(['similar']);
    expect(byName['s-similar'].score).toBeCloseTo(0.5 * (w / (w + 2)), 10);
    // Co-occurrence: 3 resources share the applied tag (fewer than 5 in the group, so all are
    // used), 2 carry s-shared: 2/(3+5). Group: 2 tagged resources in the group, both with it: 2/(2+5).
    expect(byName['s-shared'].sources).toEqual(['cooccurrence', 'group']);
    expect(byName['s-shared'].score).toBeCloseTo(0.3 * (2 / 8) + 0.2 * (2 / 7), 10);
    expect(byName['s-applied']).toBeUndefined();
    expect(r.body.suggestions.map((s) => s.Name)).toEqual([...r.body.suggestions].sort((a, b) => b.score - a.score).map((s) => s.Name));
    expect((await lib.json('GET', '/v1/resource/suggestedTags?id=999999')).status).toBe(404);
  });
});

describe('similarity administration', () => {
  async function settle(id: string) {
    for (let i = 0; i < 200; i++) {
      const j = await lib.json<{ status: string; progress: number; totalSize: number; phase?: string }>('GET', `/v1/jobs/get?id=${id}`);
      if (['completed', 'failed', 'cancelled'].includes(j.body.status)) return j.body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('recompute did not finish');
  }

  it('rebuilds every stored pair from the stored hashes in a queue job', async () => {
    const before = await storedPairs(lib);
    expect(before.length).toBeGreaterThan(0);
    await dropStoredPairs(lib);
    expect(await storedPairs(lib)).toEqual([]);
    const r = await lib.json<{ jobId: string }>('POST', '/v1/admin/similarity/recompute');
    expect(r.status).toBe(200);
    const job = await settle(r.body.jobId);
    expect(job).toMatchObject({ status: 'completed', phase: 'completed' });
    const after = await storedPairs(lib);
    expect(after).toEqual(before);
    const queued = await lib.json<{ jobs: { id: string; source: string }[] }>('GET', '/v1/jobs/queue');
    expect(queued.body.jobs.find((j) => j.id === r.body.jobId)?.source).toBe('recompute-similarities');
    const history = await lib.json<{ downloads: { jobId: string }[] }>('GET', '/v1/downloads');
    expect(history.body.downloads.some((d) => d.jobId === r.body.jobId)).toBe(false);
  });

  it('refuses a second recompute while one is queued or running', async () => {
    // Hold every worker slot so the recompute stays pending.
    const slots = lib.lib.config.maxJobConcurrency;
    const holds: string[] = [];
    lib.lib.jobs.registerKind('test-hold', { pausable: false, runningStatus: 'processing', run: (_p, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))) });
    for (let i = 0; i < slots; i++) holds.push(lib.lib.jobs.submit('test-hold', { ownerId: null, payload: null }).id);
    const first = await lib.json<{ jobId: string }>('POST', '/v1/admin/similarity/recompute');
    const second = await lib.json<{ error: string; jobId: string }>('POST', '/v1/admin/similarity/recompute');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: 'similarity recompute already in progress', jobId: first.body.jobId });
    expect((await lib.json('POST', `/v1/jobs/cancel?id=${first.body.jobId}`)).body).toEqual({ status: 'cancelled' });
    for (const id of holds) lib.lib.jobs.cancel(id);
  });

  it('resets failed hash rows for the worker to retry', async () => {
    // A PNG that does not decode can only arrive through a local import; hashing it fails.
    writeFileSync(join(lib.dir, 'files', 'broken-hash.png'), (await png(60, 60, 71)).subarray(0, 120));
    const local = await lib.json<{ ID: number; ContentType: string }>('POST', '/v1/resource/local', { LocalPath: 'broken-hash.png' });
    expect(local.body.ContentType).toBe('image/png');
    expect((await hashed(local.body.ID)).status).toBe('failed');
    const failedCount = async () => (await lib.json<{ similarity: { failedCount: number } }>('GET', '/v1/admin/data-stats/expensive')).body.similarity.failedCount;
    expect(await failedCount()).toBeGreaterThanOrEqual(1);
    const r = await lib.json<{ reset: number }>('POST', '/v1/admin/similarity/retry-failed');
    expect(r.body.reset).toBeGreaterThanOrEqual(1);
    expect(await failedCount()).toBe(0);
    expect((await lib.json<{ imageHash: unknown }>('GET', `/v1/resource?id=${local.body.ID}`)).body.imageHash).toBeNull();
  });
});
