// One clip: read, download, rename, archive, expiration, delete, metadata (§15.7–15.9).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const blobPath = (hash: string) => join(t.dataDir, 'blobs', 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);
const newClip = async (name: string, data = `${name} ${Math.random()}`) => (await t.upload(f.KE, { filename: name, type: 'text/plain', data })).body;
const get = (id: number, key = f.KV) => t.req<ClipJson>(key, 'GET', `/clips/${id}`);

describe('reading', () => {
  it('returns one clip, 404 for unknown ids and 403 for scoped keys outside their scope', async () => {
    const r = await get(1);
    expect(r.body).toMatchObject({ id: 1, filename: 'notes.txt', content_type: 'text/plain', size: 11, is_archived: false, tags: [{ id: 2, name: 'work/client1', color: '#78716C', count: 1 }] });
    expect((await get(999)).body).toEqual({ error: 'clip not found' });
    expect((await get(2, f.KSE)).body).toEqual({ error: 'forbidden: clip not in scoped tag' });
    expect((await get(999, f.KSE)).status).toBe(403);
  });

  it('downloads bytes with type, length, disposition and hardening headers', async () => {
    const r = await t.raw(f.KV, 'GET', '/clips/1/data');
    expect(r.status).toBe(200);
    expect(r.text).toBe('hello world');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('content-length')).toBe('11');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toBe('sandbox');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('etag')).toBe('"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"');
    const png = await fetch(`${t.url}/api/v1/clips/2/data`, { headers: { authorization: `Bearer ${f.KSV}` } });
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).equals(f.pngBytes)).toBe(true);
    expect((await t.raw(f.KSV, 'GET', '/clips/1/data')).status).toBe(403);
  });

  it('names a download without filename after its id and type, and encodes non-ASCII names', async () => {
    const html = (await t.upload(f.KE, { data: '<!DOCTYPE html><html></html>' })).body;
    expect((await t.raw(f.KV, 'GET', `/clips/${html.id}/data`)).headers.get('content-disposition')).toBe(`attachment; filename="clip_${html.id}.html"`);
    const named = (await t.upload(f.KE, { filename: 'x.txt', data: 'cv' }, `?filename=${encodeURIComponent('résumé "v2".txt')}`)).body;
    expect((await t.raw(f.KV, 'GET', `/clips/${named.id}/data`)).headers.get('content-disposition')).toBe(
      `attachment; filename="r_sum_ v2.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20v2.txt`,
    );
  });

  it('serves single byte ranges and 416 for unsatisfiable ones', async () => {
    const part = await t.raw(f.KV, 'GET', '/clips/1/data', undefined, { range: 'bytes=0-4' });
    expect([part.status, part.text, part.headers.get('content-range'), part.headers.get('content-length')]).toEqual([206, 'hello', 'bytes 0-4/11', '5']);
    const suffix = await t.raw(f.KV, 'GET', '/clips/1/data', undefined, { range: 'bytes=-5' });
    expect([suffix.status, suffix.text]).toEqual([206, 'world']);
    const open = await t.raw(f.KV, 'GET', '/clips/1/data', undefined, { range: 'bytes=6-' });
    expect(open.text).toBe('world');
    const bad = await t.raw(f.KV, 'GET', '/clips/1/data', undefined, { range: 'bytes=20-30' });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */11');
    expect((bad.body as { error: string }).error).toBeTruthy();
    const many = await t.raw(f.KV, 'GET', '/clips/1/data', undefined, { range: 'bytes=0-1,3-4' });
    expect([many.status, many.text]).toEqual([200, 'hello world']);
  });
});

describe('rename, archive, expiration, delete', () => {
  it('renames, and a Markdown name makes the clip Markdown', async () => {
    const c = await newClip('greeting.txt');
    expect((await t.req(f.KE, 'PATCH', `/clips/${c.id}`, { filename: 'hello.txt' })).status).toBe(204);
    expect((await get(c.id)).body.filename).toBe('hello.txt');
    await t.req(f.KE, 'PATCH', `/clips/${c.id}`, { filename: 'notes.md' });
    expect((await get(c.id)).body.content_type).toBe('text/markdown');
    await t.req(f.KE, 'PATCH', `/clips/${c.id}`, { filename: 'back.txt' });
    expect((await get(c.id)).body.content_type).toBe('text/markdown');
  });

  it('rejects bad names and lower roles', async () => {
    for (const body of [{ filename: '' }, { filename: 'a/b.txt' }, { filename: '..x' }, {}, { filename: 5 }, { filename: 'x'.repeat(256) }]) {
      expect((await t.req(f.KE, 'PATCH', '/clips/1', body)).status).toBe(400);
    }
    expect((await t.req(f.KE, 'PATCH', '/clips/1', {})).body).toEqual({ error: 'filename is required' });
    expect((await t.req(f.KV, 'PATCH', '/clips/1', { filename: 'x.txt' })).status).toBe(403);
    expect((await t.req(f.KE, 'PATCH', '/clips/999', { filename: 'x.txt' })).status).toBe(404);
    expect((await get(1)).body.filename).toBe('notes.txt');
  });

  it('archives and unarchives idempotently', async () => {
    expect((await t.req(f.KE, 'PUT', '/clips/2/archive')).status).toBe(204);
    expect((await t.req(f.KE, 'PUT', '/clips/2/archive')).status).toBe(204);
    expect((await get(2)).body.is_archived).toBe(true);
    expect((await t.req(f.KE, 'DELETE', '/clips/2/archive')).status).toBe(204);
    expect((await get(2)).body.is_archived).toBe(false);
    expect((await t.req(f.KE, 'PUT', '/clips/999/archive')).status).toBe(404);
    expect((await t.req(f.KSE, 'PUT', '/clips/2/archive')).status).toBe(403);
    expect((await t.req(f.KSE, 'PUT', '/clips/1/archive')).status).toBe(204);
    await t.req(f.KE, 'DELETE', '/clips/1/archive');
  });

  it('deletes an expired clip and its blob in the next cleanup run', async () => {
    const data = `expiring ${Date.now()}`;
    const c = await newClip('exp.txt', data);
    const hash = (await t.svc.ctx.db.selectFrom('clips').select('content_hash').where('id', '=', c.id).executeTakeFirstOrThrow()).content_hash;
    expect((await t.req(f.KE, 'PUT', `/clips/${c.id}/expiration`, { minutes: 1 })).status).toBe(204);
    t.clock.advance(61_000);
    expect((await get(c.id)).status).toBe(404);
    expect(existsSync(blobPath(hash))).toBe(true);
    await t.svc.cleanup.runOnce();
    expect(existsSync(blobPath(hash))).toBe(false);
    expect(await t.svc.ctx.db.selectFrom('clips').select('id').where('id', '=', c.id).executeTakeFirst()).toBeUndefined();
  });

  it('validates minutes', async () => {
    for (const minutes of [0, -5, '5']) expect((await t.req(f.KE, 'PUT', '/clips/1/expiration', { minutes })).body).toEqual({ error: 'minutes must be positive' });
    expect((await t.req(f.KE, 'PUT', '/clips/1/expiration', { minutes: 1.5 })).status).toBe(400);
    expect((await t.req(f.KE, 'PUT', '/clips/1/expiration', { minutes: 5_256_001 })).body).toEqual({ error: 'minutes too large' });
    expect((await t.req(f.KE, 'PUT', '/clips/1/expiration', {})).status).toBe(400);
    const bad = await t.raw(f.KE, 'PUT', '/clips/1/expiration', '{', { 'content-type': 'application/json' });
    expect(bad.body).toEqual({ error: 'invalid JSON body' });
    expect((await t.req(f.KE, 'PUT', '/clips/1/expiration', { minutes: 5_256_000 })).status).toBe(204);
    await t.req(f.KE, 'DELETE', '/clips/1/expiration');
  });

  it('keeps the expiry when archiving', async () => {
    const c = await newClip('archived-exp.txt');
    await t.req(f.KE, 'PUT', `/clips/${c.id}/expiration`, { minutes: 10 });
    await t.req(f.KE, 'PUT', `/clips/${c.id}/archive`);
    t.clock.advance(11 * 60_000);
    await t.svc.cleanup.runOnce();
    expect(await t.svc.ctx.db.selectFrom('clips').select('id').where('id', '=', c.id).executeTakeFirst()).toBeUndefined();
  });

  it('cancels an expiry', async () => {
    const c = await newClip('kept.txt');
    await t.req(f.KE, 'PUT', `/clips/${c.id}/expiration`, { minutes: 1 });
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}/expiration`)).status).toBe(204);
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}/expiration`)).status).toBe(204);
    t.clock.advance(2 * 60_000);
    await t.svc.cleanup.runOnce();
    expect((await get(c.id)).status).toBe(200);
  });

  it('a later expiry replaces an earlier one', async () => {
    const c = await newClip('replace.txt');
    await t.req(f.KE, 'PUT', `/clips/${c.id}/expiration`, { minutes: 1 });
    await t.req(f.KE, 'PUT', `/clips/${c.id}/expiration`, { minutes: 60 });
    t.clock.advance(2 * 60_000);
    await t.svc.cleanup.runOnce();
    expect((await get(c.id)).status).toBe(200);
  });

  it('deletes a clip, keeps its tags, and 404s the second time', async () => {
    const c = await newClip('del.txt');
    await t.req(f.KE, 'PUT', `/clips/${c.id}/tags/3`);
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}`)).status).toBe(204);
    expect((await get(c.id)).status).toBe(404);
    const tags = await t.req<{ id: number; count: number }[]>(f.KV, 'GET', '/tags');
    expect(tags.body.find((x) => x.id === 3)).toMatchObject({ count: 0 });
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}`)).status).toBe(404);
  });

  it('refuses writes to viewers', async () => {
    expect((await t.req(f.KV, 'DELETE', '/clips/1')).status).toBe(403);
    expect((await t.req(f.KV, 'PUT', '/clips/1/expiration', { minutes: 5 })).status).toBe(403);
    expect((await get(1)).status).toBe(200);
  });
});

describe('metadata', () => {
  it('replaces, reads sorted, sets, deletes and clears', async () => {
    const c = await newClip('meta.txt');
    const path = `/clips/${c.id}/metadata`;
    expect((await t.req(f.KE, 'PUT', path, { source: 'cli', project: 'x' })).status).toBe(204);
    const got = await t.req(f.KV, 'GET', path);
    expect(got.text).toBe('{"project":"x","source":"cli"}');
    expect((await t.req(f.KE, 'PUT', `${path}/source`, { value: 'api' })).status).toBe(204);
    expect((await t.req(f.KV, 'GET', path)).body).toEqual({ project: 'x', source: 'api' });
    expect((await t.req(f.KE, 'DELETE', `${path}/source`)).status).toBe(204);
    expect((await t.req(f.KV, 'GET', path)).body).toEqual({ project: 'x' });
    expect((await t.req(f.KE, 'DELETE', `${path}/source`)).status).toBe(204);
    expect((await t.req(f.KE, 'PUT', `${path}/a%20b`, { value: 'x' })).status).toBe(204);
    expect((await t.req(f.KV, 'GET', path)).body).toEqual({ 'a b': 'x', project: 'x' });
    expect((await t.req(f.KE, 'PUT', path, {})).status).toBe(204);
    expect((await t.req(f.KV, 'GET', path)).body).toEqual({});
  });

  it('rejects bad metadata as a whole and changes nothing', async () => {
    const c = await newClip('meta-bad.txt');
    const path = `/clips/${c.id}/metadata`;
    await t.req(f.KE, 'PUT', path, { keep: 'me' });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    for (const body of [many, { a: 1 }, { ['k'.repeat(257)]: 'v' }, { a: 'v'.repeat(4097) }, { '': 'v' }, ['a'], 'text']) {
      expect((await t.req(f.KE, 'PUT', path, body)).status).toBe(400);
    }
    expect((await t.req(f.KV, 'GET', path)).body).toEqual({ keep: 'me' });
    expect((await t.req(f.KE, 'PUT', `${path}/x`, {})).status).toBe(400);
    expect((await t.req(f.KE, 'PUT', `${path}/x`, { value: 5 })).status).toBe(400);
  });

  it('allows 50 pairs and no 51st, while existing keys stay writable', async () => {
    const c = await newClip('meta-full.txt');
    const path = `/clips/${c.id}/metadata`;
    await t.req(f.KE, 'PUT', path, Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])));
    expect((await t.req(f.KE, 'PUT', `${path}/new`, { value: 'v' })).body).toEqual({ error: 'metadata limit reached (max 50 pairs)' });
    expect((await t.req(f.KE, 'PUT', `${path}/k7`, { value: 'changed' })).status).toBe(204);
    expect(((await t.req(f.KV, 'GET', path)).body as Record<string, string>).k7).toBe('changed');
  });

  it('needs editor to write, a known clip, and scope', async () => {
    expect((await t.req(f.KV, 'PUT', '/clips/1/metadata', {})).status).toBe(403);
    expect((await t.req(f.KV, 'GET', '/clips/999/metadata')).status).toBe(404);
    expect((await t.req(f.KSE, 'GET', '/clips/2/metadata')).status).toBe(403);
    expect((await t.req(f.KSE, 'GET', '/clips/1/metadata')).status).toBe(200);
  });
});
