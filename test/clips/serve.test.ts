// Tag serving over real ports (companion §9, test cases T178–T193): the /serve lifecycle, the
// served site (levels, files, listings, index.html, names), the cookie, /_api at each
// api_access level, uploads, scope rules, request counts, and escaping.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, multipart, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

interface Server {
  tag_id: number;
  tag_name: string;
  port: number;
  bind_all: boolean;
  url: string;
  running: boolean;
  request_count: number;
  api_access: string;
}

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

/** A fresh service with fixture F, closed after `run`. */
async function withF(run: (t: TestClips, f: FixtureF) => Promise<void>) {
  const own = await startTestClips();
  try {
    await run(own, await fixtureF(own));
  } finally {
    await own.close();
  }
}

async function serve(tt: TestClips, key: string, body: Record<string, unknown>): Promise<Server> {
  const r = await tt.req<Server>(key, 'POST', '/serve', body);
  if (r.status !== 201) throw new Error(`POST /serve: ${r.status} ${r.text}`);
  return r.body;
}

async function get(server: Server, path: string, init: RequestInit = {}) {
  const res = await fetch(server.url + path, { redirect: 'manual', ...init });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8'), json };
}

const asJson = { headers: { accept: 'application/json' } };

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function upload(tt: TestClips, key: string, filename: string, data: string | Buffer, type = 'text/plain'): Promise<ClipJson> {
  return (await tt.upload(key, { filename, type, data })).body;
}

describe('lifecycle', () => {
  it('starts a server on a free port (T178), refuses bad starts (T179), stops and frees the port (T192)', async () => {
    await withF(async (t, f) => {
      const r = await t.req<Server>(f.KA, 'POST', '/serve', { tag_id: 4 });
      expect(r.status).toBe(201);
      const P = r.body.port;
      expect(P).toBeGreaterThan(0);
      expect(r.body).toEqual({ tag_id: 4, tag_name: 'personal', port: P, bind_all: false, url: `http://127.0.0.1:${P}`, running: true, request_count: 0, api_access: 'none' });
      expect(await reachable(P)).toBe(true);

      expect(await t.req(f.KA, 'POST', '/serve', { tag_id: 4 })).toMatchObject({ status: 409, body: { error: 'tag 4 is already being served' } });
      expect(await t.req(f.KA, 'POST', '/serve', { tag_id: 2, port: P })).toMatchObject({ status: 409, body: { error: `port ${P} unavailable` } });
      expect(await t.req(f.KA, 'POST', '/serve', {})).toMatchObject({ status: 400, body: { error: 'tag_id is required' } });
      expect(await t.req(f.KA, 'POST', '/serve', { tag_id: 999 })).toMatchObject({ status: 400, body: { error: 'tag not found' } });
      expect((await t.req(f.KA, 'POST', '/serve', { tag_id: 2, api_access: 'write' })).status).toBe(400);
      expect((await t.req(f.KA, 'POST', '/serve', { tag_id: 2, port: 70000 })).status).toBe(400);
      expect((await t.req(f.KA, 'POST', '/serve', { tag_id: '2' })).status).toBe(400);
      expect((await t.req(f.KE, 'POST', '/serve', { tag_id: 2 })).status).toBe(403);
      // The API's own port is taken too.
      expect((await t.req(f.KA, 'POST', '/serve', { tag_id: 2, port: t.svc.port })).status).toBe(409);

      expect((await t.req(f.KA, 'DELETE', '/serve/4')).status).toBe(204);
      expect(await reachable(P)).toBe(false);
      expect(await t.req(f.KA, 'DELETE', '/serve/4')).toMatchObject({ status: 404, body: { error: 'no server running for tag 4' } });
      expect((await t.req(f.KA, 'GET', '/serve')).body).toEqual({ servers: [] });
      // The freed port can be served again.
      expect((await serve(t, f.KA, { tag_id: 4, port: P })).port).toBe(P);
    });
  });

  it('lists servers by tag id, a scoped key only its own tag (T190), scoped admins manage only their tag (T191)', async () => {
    await withF(async (t, f) => {
      await serve(t, f.KA, { tag_id: 4 });
      await serve(t, f.KA, { tag_id: 1, api_access: 'read', bind_all: true });
      const all = (await t.req<{ servers: Server[] }>(f.KV, 'GET', '/serve')).body.servers;
      expect(all.map((s) => [s.tag_id, s.tag_name, s.bind_all, s.api_access])).toEqual([[1, 'work', true, 'read'], [4, 'personal', false, 'none']]);
      expect((await t.req<{ servers: Server[] }>(f.KSV, 'GET', '/serve')).body.servers.map((s) => s.tag_id)).toEqual([4]);
      expect((await t.req(f.KSE, 'GET', '/serve')).body).toEqual({ servers: [] });

      expect(await t.req(f.KSA, 'POST', '/serve', { tag_id: 2 })).toMatchObject({ status: 403, body: { error: 'tag-scoped key can only manage serve for its scoped tag' } });
      expect((await t.req(f.KSA, 'DELETE', '/serve/4')).status).toBe(403);
      expect((await t.req(f.KSA, 'DELETE', '/serve/1')).status).toBe(204);
      expect((await t.req(f.KSA, 'POST', '/serve', { tag_id: 1 })).status).toBe(201);
      // A rename is followed by the listing.
      await t.req(f.KA, 'PUT', '/tags/4', { name: 'private' });
      expect((await t.req<{ servers: Server[] }>(f.KV, 'GET', '/serve')).body.servers[1].tag_name).toBe('private');
    });
  });

  it('stops serving a tag when the tag is deleted', async () => {
    await withF(async (t, f) => {
      const s = await serve(t, f.KA, { tag_id: 4 });
      expect((await t.req(f.KA, 'DELETE', '/tags/4')).status).toBe(204);
      for (let i = 0; i < 50 && (await reachable(s.port)); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await reachable(s.port)).toBe(false);
      expect((await t.req(f.KA, 'GET', '/serve')).body).toEqual({ servers: [] });
    });
  });
});

describe('the served site', () => {
  it('lists a level as JSON and as HTML without a cookie when the API is off (T180)', async () => {
    const s = await serve(t, f.KA, { tag_id: 4 });
    try {
      const json = await get(s, '/', asJson);
      expect(json.json).toEqual([{ name: 'shot.png', size: f.pngBytes.length, content_type: 'image/png', type: 'file' }]);
      const html = await get(s, '/');
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(html.text).toContain('<h1>personal</h1>');
      expect(html.text).toContain('<a href="shot.png">shot.png</a>');
      expect(html.headers.get('set-cookie')).toBeNull();
      expect(html.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await t.req(f.KA, 'DELETE', '/serve/4');
    }
  });

  it('serves files inline with ranges and HEAD; archived clips disappear (T181)', async () => {
    await withF(async (t, f) => {
      const s = await serve(t, f.KA, { tag_id: 4 });
      const file = await get(s, '/shot.png');
      expect([file.status, file.headers.get('content-type'), file.headers.get('content-disposition')]).toEqual([200, 'image/png', null]);
      expect(file.bytes.equals(f.pngBytes)).toBe(true);
      expect(file.headers.get('content-length')).toBe(String(f.pngBytes.length));
      const etag = file.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
      expect((await get(s, '/shot.png', { headers: { 'if-none-match': etag } })).status).toBe(304);
      const part = await get(s, '/shot.png', { headers: { range: 'bytes=1-3' } });
      expect([part.status, part.headers.get('content-range'), part.bytes.equals(f.pngBytes.subarray(1, 4))]).toEqual([206, `bytes 1-3/${f.pngBytes.length}`, true]);
      expect((await get(s, '/shot.png', { headers: { range: 'bytes=999-' } })).status).toBe(416);
      const head = await get(s, '/shot.png', { method: 'HEAD' });
      expect([head.status, head.headers.get('content-length'), head.bytes.length]).toEqual([200, String(f.pngBytes.length), 0]);
      expect((await get(s, '/missing.png')).status).toBe(404);
      expect((await get(s, '/shot.png', { method: 'POST' })).status).toBe(405);
      const pre = await get(s, '/anything', { method: 'OPTIONS' });
      expect([pre.status, pre.headers.get('access-control-allow-methods'), pre.headers.get('access-control-allow-headers')]).toEqual([204, 'GET, POST, PUT, PATCH, DELETE, OPTIONS', 'Content-Type, Accept']);
      await t.req(f.KE, 'PUT', '/clips/2/archive');
      expect((await get(s, '/', asJson)).json).toEqual([]);
      expect((await get(s, '/shot.png')).status).toBe(404);
    });
  });

  it('walks levels of child tags (T182)', async () => {
    const s = await serve(t, f.KA, { tag_id: 1 });
    try {
      expect((await get(s, '/', asJson)).json).toEqual([
        { name: 'client1', size: 0, content_type: '', type: 'directory' },
        { name: 'client2', size: 0, content_type: '', type: 'directory' },
      ]);
      const redirect = await get(s, '/client1');
      expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/client1/']);
      expect((await get(s, '/client1/', asJson)).json).toEqual([{ name: 'notes.txt', size: 11, content_type: 'text/plain', type: 'file' }]);
      expect((await get(s, '/client1/notes.txt')).text).toBe('hello world');
      expect((await get(s, '/nope/notes.txt')).status).toBe(404);
      expect((await get(s, '/client1/notes.txt/')).status).toBe(404);
      expect((await get(s, '/client2/', asJson)).json).toEqual([]);
      const html = await get(s, '/');
      expect(html.text).toContain('<a href="client1/">client1/</a>');
      expect(html.text).toContain('<td>folder</td>');
      expect((await get(s, '/client2/')).text).toContain('No files.');
      // The root level does not see the files of a level below.
      expect((await get(s, '/notes.txt')).status).toBe(404);
    } finally {
      await t.req(f.KA, 'DELETE', '/serve/1');
    }
  });

  it('serves index.html for its own level only (T183) and numbers repeated names (T184)', async () => {
    await withF(async (t, f) => {
      const tagWith = async (clip: ClipJson, tag: number) => t.req(f.KE, 'PUT', `/clips/${clip.id}/tags/${tag}`);
      await tagWith(await upload(t, f.KE, 'a.txt', 'first a'), 4);
      await tagWith(await upload(t, f.KE, 'a.txt', 'second a'), 4);
      const blank = (await t.upload<ClipJson>(f.KE, { name: 'text', data: 'no name at all' })).body;
      expect(blank.filename).toBe('');
      await tagWith(blank, 4);
      const s = await serve(t, f.KA, { tag_id: 4 });
      const names = ((await get(s, '/', asJson)).json as { name: string }[]).map((e) => e.name);
      expect(names).toEqual(['shot.png', 'a.txt', 'a (2).txt', `clip-${blank.id}`]);
      expect((await get(s, '/a%20(2).txt')).text).toBe('second a');

      await t.req(f.KA, 'POST', '/tags', { name: 'personal/site' });
      const index = await upload(t, f.KE, 'index.html', '<!DOCTYPE html><p>hi</p>', 'text/html');
      await tagWith(index, 5);
      const sub = await get(s, '/site/');
      expect([sub.headers.get('content-type'), sub.text]).toEqual(['text/html', '<!DOCTYPE html><p>hi</p>']);
      expect((await get(s, '/')).text).toContain('<h1>personal</h1>');
      await tagWith(await upload(t, f.KE, 'index.html', '<p>root index</p>', 'text/html'), 4);
      expect((await get(s, '/')).text).toBe('<p>root index</p>');
    });
  });

  it('escapes every name in its pages', async () => {
    await withF(async (t, f) => {
      const tag = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: `x<b>"&'` })).body;
      await t.req(f.KA, 'POST', '/tags', { name: `x<b>"&'/<i>` });
      const clip = await upload(t, f.KE, '<img src=x onerror=alert(1)>.txt', 'evil');
      await t.req(f.KE, 'PUT', `/clips/${clip.id}/tags/${tag.id}`);
      const s = await serve(t, f.KA, { tag_id: tag.id });
      const html = (await get(s, '/')).text;
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<b>');
      expect(html).not.toContain('<i>');
      expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;.txt');
      expect(html).toContain('<h1>x&#60;b&#62;&#34;&#38;&#39;</h1>');
      expect(html).toContain(`href="${encodeURIComponent('<img src=x onerror=alert(1)>.txt')}"`);
      expect((await get(s, `/${encodeURIComponent('<img src=x onerror=alert(1)>.txt')}`)).text).toBe('evil');
    });
  });

  it('counts every request its listener received (T193)', async () => {
    await withF(async (t, f) => {
      const s = await serve(t, f.KA, { tag_id: 4, api_access: 'read' });
      for (let i = 0; i < 3; i++) await get(s, '/');
      await get(s, '/_api/x');
      expect((await t.req<{ servers: Server[] }>(f.KV, 'GET', '/serve')).body.servers[0].request_count).toBe(4);
    });
  });
});

describe('/_api', () => {
  async function dataFixture(access: string) {
    const own = await startTestClips();
    const ff = await fixtureF(own);
    const data = await upload(own, ff.KE, 'data.json', '{"items":[{"id":1,"t":"a"}]}', 'application/json');
    await own.req(ff.KE, 'PUT', `/clips/${data.id}/tags/4`);
    const s = await serve(own, ff.KA, { tag_id: 4, api_access: access });
    const page = await get(s, '/');
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    return { t: own, f: ff, s, data, cookie, page };
  }

  it('answers 404 with api_access none (T185)', async () => {
    const s = await serve(t, f.KA, { tag_id: 4 });
    try {
      expect((await get(s, '/_api/data')).status).toBe(404);
      expect((await get(s, '/_api')).status).toBe(404);
      expect((await get(s, '/_api/_upload', { method: 'POST' })).status).toBe(404);
    } finally {
      await t.req(f.KA, 'DELETE', '/serve/4');
    }
  });

  it('reads with the cookie only, and refuses writes, with read access (T186)', async () => {
    const { t, s, cookie, page } = await dataFixture('read');
    try {
      expect(page.headers.get('set-cookie')).toMatch(/^_svc_serve_key=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict$/);
      expect((await get(s, '/missing.txt')).headers.get('set-cookie')).toBe(page.headers.get('set-cookie'));
      expect(await get(s, '/_api/data')).toMatchObject({ status: 401, json: { error: 'unauthorized: missing or invalid serve key' } });
      expect((await get(s, '/_api/data', { headers: { cookie: `_svc_serve_key=${'0'.repeat(64)}` } })).status).toBe(401);
      const c = { headers: { cookie } };
      expect(await get(s, '/_api/data', c)).toMatchObject({ status: 200, json: { items: [{ id: 1, t: 'a' }] } });
      expect((await get(s, '/_api/data/items/1', c)).json).toEqual({ id: 1, t: 'a' });
      expect((await get(s, '/_api/data/items/1/', c)).json).toEqual({ id: 1, t: 'a' });
      const post = await get(s, '/_api/data/items', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{"t":"b"}' });
      expect(post).toMatchObject({ status: 403, json: { error: 'forbidden: API is read-only' } });
      expect(await get(s, '/_api/nothing', c)).toMatchObject({ status: 404, json: { error: 'clip not found: nothing.json' } });
      expect(await get(s, '/_api/', c)).toMatchObject({ status: 400, json: { error: 'missing clip filename' } });
      expect(await get(s, '/_api/data/items/9', c)).toMatchObject({ status: 404, json: { error: 'no element with id 9 in array' } });
      expect((await get(s, '/_api/data', { method: 'OPTIONS' })).status).toBe(204);
    } finally {
      await t.close();
    }
  });

  it('edits the document with readwrite access (T187), serialising concurrent writes', async () => {
    const { t, f, s, data, cookie } = await dataFixture('readwrite');
    try {
      const send = (method: string, path: string, body?: string) =>
        get(s, path, { method, headers: { cookie, 'content-type': 'application/json' }, body });
      expect(await send('POST', '/_api/data/items', '{"t":"b"}')).toMatchObject({ status: 201, json: { t: 'b', id: 2 } });
      expect(await send('PATCH', '/_api/data/items/2', '{"t":"c","id":99}')).toMatchObject({ status: 200, json: { id: 2, t: 'c' } });
      expect(await send('PUT', '/_api/data/meta', '{"v":1}')).toMatchObject({ status: 200, json: { v: 1 } });
      expect((await send('DELETE', '/_api/data/items/1')).status).toBe(204);
      const doc = '{"items":[{"id":2,"t":"c"}],"meta":{"v":1}}';
      expect((await send('GET', '/_api/data')).text).toBe(doc);
      expect((await t.raw(f.KV, 'GET', `/clips/${data.id}/data`)).text).toBe(doc);
      const clip = (await t.req<ClipJson>(f.KV, 'GET', `/clips/${data.id}`)).body;
      expect([clip.size, clip.content_type]).toEqual([doc.length, 'application/json']);
      // The search excerpt follows the new bytes.
      expect((await t.req<{ total: number }>(f.KV, 'GET', '/clips?search=meta')).body.total).toBe(1);
      expect(await send('DELETE', '/_api/data')).toMatchObject({ status: 400, json: { error: 'cannot delete root — use PUT to replace' } });
      expect(await send('POST', '/_api/data', '{"x":1}')).toMatchObject({ status: 400, json: { error: 'target must be an array' } });
      expect(await send('POST', '/_api/data/items', '')).toMatchObject({ status: 400, json: { error: 'empty request body' } });
      expect((await send('POST', '/_api/data/items', '{bad')).status).toBe(400);

      const parallel = await Promise.all(Array.from({ length: 10 }, (_, i) => send('POST', '/_api/data/items', JSON.stringify({ n: i }))));
      expect(parallel.map((r) => (r.json as { id: number }).id).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(((await send('GET', '/_api/data/items')).json as unknown[]).length).toBe(11);
      // The old bytes are gone once nothing refers to them.
      expect((await t.req<{ groups: unknown[] }>(f.KA, 'GET', '/dedup')).body.groups).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('uploads into the served tag and sub-tags it creates (T188)', async () => {
    const { t, f, s, cookie } = await dataFixture('readwrite');
    try {
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
      const form = multipart([{ name: 'tag', data: 'inbox/2024' }, { name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: jpeg }]);
      const r = await get(s, '/_api/_upload', { method: 'POST', headers: { cookie, 'content-type': form.contentType }, body: new Uint8Array(form.body) });
      expect(r.status).toBe(201);
      const made = r.json as { id: number; tag_id: number };
      expect(made).toEqual({ id: made.id, filename: 'photo.jpg', content_type: 'image/jpeg', tag: 'personal/inbox/2024', tag_id: made.tag_id });
      const tags = (await t.req<{ name: string }[]>(f.KV, 'GET', '/tags')).body.map((x) => x.name);
      expect(tags).toEqual(expect.arrayContaining(['personal/inbox', 'personal/inbox/2024']));
      expect((await get(s, '/inbox/2024/photo.jpg')).bytes.equals(jpeg)).toBe(true);
      // No tag field: the served tag itself; the file field may come first.
      const plain = multipart([{ name: 'file', filename: 'note.txt', data: '{"a":1}' }, { name: 'content_type', data: 'text/plain' }]);
      const r2 = await get(s, '/_api/_upload', { method: 'POST', headers: { cookie, 'content-type': plain.contentType }, body: new Uint8Array(plain.body) });
      expect(r2.json).toMatchObject({ filename: 'note.txt', content_type: 'application/json', tag: 'personal', tag_id: 4 });
    } finally {
      await t.close();
    }
  });

  it('checks uploads in order (T189)', async () => {
    const rw = await dataFixture('readwrite');
    const read = await dataFixture('read');
    const none = await dataFixture('none');
    try {
      const post = (fx: typeof rw, parts: Parameters<typeof multipart>[0], cookie = fx.cookie) => {
        const form = multipart(parts);
        return get(fx.s, '/_api/_upload', { method: 'POST', headers: { cookie, 'content-type': form.contentType }, body: new Uint8Array(form.body) });
      };
      const file = { name: 'file', filename: 'x.txt', data: 'x' };
      expect(await post(rw, [{ name: 'tag', data: '../x' }, file])).toMatchObject({ status: 400, json: { error: 'invalid tag path: ../x' } });
      expect((await post(rw, [{ name: 'tag', data: 'a/_api' }, file])).status).toBe(400);
      expect((await post(rw, [{ name: 'tag', data: 'a//b' }, file])).status).toBe(400);
      expect(await post(rw, [{ name: 'file', filename: 'big.bin', data: Buffer.alloc(10 * 1024 * 1024 + 1) }])).toMatchObject({ status: 413, json: { error: 'file too large (max 10 MB)' } });
      expect((await post(rw, [{ name: 'file', filename: 'edge.bin', data: Buffer.alloc(10 * 1024 * 1024) }])).status).toBe(413);
      expect((await post(rw, [{ name: 'file', filename: 'under.bin', data: Buffer.alloc(10 * 1024 * 1024 - 1) }])).status).toBe(201);
      expect(await post(rw, [{ name: 'other', filename: 'x.txt', data: 'x' }])).toMatchObject({ status: 400, json: { error: "missing required 'file' field" } });
      expect((await post(rw, [file], '')).status).toBe(401);
      expect(await get(rw.s, '/_api/_upload', { headers: { cookie: rw.cookie } })).toMatchObject({ status: 405, json: { error: 'method not allowed: use POST' } });
      expect((await post(read, [file])).status).toBe(403);
      expect((await post(none, [file], 'x=y')).status).toBe(404);
      expect((await get(rw.s, '/_api/_upload', { method: 'POST', headers: { cookie: rw.cookie, 'content-type': 'application/json' }, body: '{}' })).status).toBe(400);
      // Nothing of the refused uploads was kept.
      expect((await rw.t.req<{ clips: ClipJson[] }>(rw.f.KV, 'GET', '/clips?search=x.txt')).body.clips).toEqual([]);
    } finally {
      await Promise.all([rw.t.close(), read.t.close(), none.t.close()]);
    }
  });
});
