// Note sharing over HTTP: the share server on its own listener serves the shared note at
// /s/<token> and nothing else; tokens; 503 without a share server; unshare; bulk revoke.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';
import { parseLibraryArgs } from '../../../src/library/config.js';
import { startLibrary } from '../../../src/library/main.js';

type Share = { shareToken: string; shareUrl: string };

let lib: TestLibrary;
let off: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-share-port', '0', '-share-bind-address', '127.0.0.1', '-allow-private-hosts']);
  off = await startTestLibrary();
});
afterAll(async () => {
  await lib?.close();
  await off?.close();
});

async function note(target: TestLibrary, body: Record<string, unknown>): Promise<number> {
  const r = await target.json<{ ID: number }>('POST', '/v1/note', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID;
}

async function block(noteId: number, type: string, content?: unknown): Promise<number> {
  const r = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type, content });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

async function share(noteId: number): Promise<Share> {
  const r = await lib.json<Share>('POST', `/v1/note/share?noteId=${noteId}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const shared = (path: string, init?: RequestInit) => fetch(lib.shareUrl + path, { redirect: 'manual', ...init });

describe('sharing without a share server', () => {
  it('answers 503 before looking at the note, and still unshares', async () => {
    const id = await note(off, { Name: 'not shareable' });
    for (const path of [`/v1/note/share?noteId=${id}`, '/v1/note/share?noteId=999999', '/v1/note/share', '/v1/note/share?noteId=abc']) {
      const r = await off.json<{ error: string }>('POST', path);
      expect(r.status, path).toBe(503);
      expect(r.body.error).toMatch(/no share server is running/);
    }
    expect((await off.json('DELETE', `/v1/note/share?noteId=${id}`)).body).toEqual({ success: true });
    const page = await (await off.fetch(`/note?id=${id}`)).text();
    expect(page).toContain('Sharing is off');
  });
});

describe('sharing a note', () => {
  it('hands out one 32-character token per note, and the same token again', async () => {
    const id = await note(lib, { Name: 'to share' });
    const first = await share(id);
    expect(first.shareToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.shareUrl).toBe(`/s/${first.shareToken}`);
    expect(await share(id)).toEqual(first);
    const n = await lib.json<{ shareToken: string; hasShare: boolean; shareCreatedAt: string }>('GET', `/v1/note?id=${id}`);
    expect(n.body).toMatchObject({ shareToken: first.shareToken, hasShare: true });
    expect(Date.parse(n.body.shareCreatedAt)).not.toBeNaN();
    const tokens = new Set<string>([first.shareToken]);
    for (let i = 0; i < 20; i++) tokens.add((await share(await note(lib, { Name: `many ${i}` }))).shareToken);
    expect(tokens.size).toBe(21);
  });

  it('needs a noteId (400) of an existing note (404)', async () => {
    expect((await lib.json<{ error: string }>('POST', '/v1/note/share')).body.error).toBe('noteId is required');
    expect((await lib.json('POST', '/v1/note/share?noteId=abc')).status).toBe(400);
    expect((await lib.json('POST', '/v1/note/share?noteId=999999')).status).toBe(404);
    expect((await lib.json('DELETE', '/v1/note/share')).status).toBe(400);
    expect((await lib.json('DELETE', '/v1/note/share?noteId=999999')).status).toBe(404);
  });

  it('answers a browser form with 303 back to the note', async () => {
    const id = await note(lib, { Name: 'form share' });
    const r = await lib.fetch(`/v1/note/share?noteId=${id}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/note?id=${id}`);
    const page = await (await lib.fetch(`/note?id=${id}`)).text();
    expect(page).toMatch(/\/s\/[A-Za-z0-9_-]{32}/);
    expect(page).toContain('Unshare');
  });
});

describe('the share server', () => {
  it('serves the shared note read-only with every block rendered', async () => {
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'Shared ref', Description: 'a referenced group' });
    const id = await note(lib, { Name: 'Trip plan', Description: 'ignored: mirrored by the text block' });
    await block(id, 'heading', { text: 'Packing', level: 2 });
    await block(id, 'text', { text: 'Bring <boots>' });
    await block(id, 'todos', { items: [{ id: 't1', label: 'Passport' }] });
    await block(id, 'references', { groupIds: [g.body.ID] });
    await block(id, 'table', { columns: ['city'], rows: [{ city: 'Oslo' }] });
    const q = await lib.json<{ ID: number }>('POST', '/v1/query', { Name: 'share query', Text: "SELECT 'live row' AS v" });
    await block(id, 'table', { queryId: q.body.ID, queryParams: { secret: 'param' } });
    await block(id, 'calendar', { calendars: [] });
    await block(id, 'divider');
    const { shareUrl, shareToken } = await share(id);
    const res = await shared(shareUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('<h1>Trip plan</h1>');
    expect(html).toContain('Packing');
    expect(html).toContain('Bring &#60;boots&#62;');
    expect(html).not.toContain('ignored: mirrored');
    expect(html).toContain('Passport');
    expect(html).toContain(`/s/${shareToken}/block/`);
    expect(html).toContain('Shared ref');
    expect(html).toContain('a referenced group');
    expect(html).toContain('Oslo');
    expect(html).toContain('live row');
    expect(html).toContain(`/s/${shareToken}/block/`);
    expect(html).toContain('Shared via');
    // Never the block's full content (a table's query parameters stay private).
    expect(html).not.toContain('secret');
    expect(html).not.toContain('/v1/');
  });

  it('shows the description when no text block mirrors it', async () => {
    const id = await note(lib, { Name: 'Plain', Description: 'just words' });
    const html = await (await shared((await share(id)).shareUrl)).text();
    expect(html).toContain('just words');
  });

  it("applies the note type's CustomHeader and CustomCSS only when the type opted in", async () => {
    const opted = await lib.json<{ ID: number }>('POST', '/v1/note/noteType', { Name: 'Public type', CustomHeader: '<div class="brand-banner">Our brand</div>', CustomCSS: 'h1 { color: teal; } </style><script>bad()</script>', ApplyTemplatesToShares: true });
    const quiet = await lib.json<{ ID: number }>('POST', '/v1/note/noteType', { Name: 'Private type', CustomHeader: '<div class="secret-banner">internal</div>', CustomCSS: 'h1 { color: red; }' });
    const a = await note(lib, { Name: 'branded', NoteTypeId: opted.body.ID });
    const b = await note(lib, { Name: 'unbranded', NoteTypeId: quiet.body.ID });
    const withTemplate = await (await shared((await share(a)).shareUrl)).text();
    expect(withTemplate).toContain('<div class="brand-banner">Our brand</div>');
    expect(withTemplate).toContain('h1 { color: teal; }');
    expect(withTemplate).not.toContain('</style><script>bad()');
    const without = await (await shared((await share(b)).shareUrl)).text();
    expect(without).not.toContain('secret-banner');
    expect(without).not.toContain('color: red');
  });

  it('answers 404 for unknown tokens and sends the security headers', async () => {
    for (const path of ['/s/unknown', `/s/${'A'.repeat(32)}`, '/s/', '/s']) {
      const r = await shared(path);
      expect(r.status, path).toBe(404);
      expect(await r.text()).toContain('Not found');
    }
    const id = await note(lib, { Name: 'headers' });
    const r = await shared((await share(id)).shareUrl);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('reaches nothing of the library but the shared note and public assets', async () => {
    const id = await note(lib, { Name: 'private note' });
    for (const path of ['/v1/notes', `/v1/note?id=${id}`, '/notes', `/note?id=${id}`, '/dashboard', '/', '/v1/openapi.json', '/tags', '/admin/shares', `/v1/note/blocks?noteId=${id}`, '/files/resources/x']) {
      const r = await shared(path);
      expect(r.status, path).toBe(404);
    }
    for (const [method, path] of [
      ['POST', '/v1/note'],
      ['POST', `/v1/note/share?noteId=${id}`],
      ['DELETE', `/v1/note/share?noteId=${id}`],
      ['POST', '/v1/admin/shares/bulk-revoke'],
    ]) {
      expect((await shared(path, { method, headers: { 'content-type': 'application/json' }, body: '{"Name":"x"}' })).status, `${method} ${path}`).toBe(404);
    }
    expect((await lib.json<{ Name: string }[]>('GET', '/v1/notes?Name=x')).body.filter((n) => n.Name === 'x')).toEqual([]);
    const css = await shared('/public/index.css');
    expect(css.status).toBe(200);
    expect((await shared('/public/note-blocks.js')).status).toBe(200);
  });

  it('lets visitors tick todos and nothing else', async () => {
    const id = await note(lib, { Name: 'checklist' });
    const todos = await block(id, 'todos', { items: [{ id: 'a1', label: 'One' }, { id: 'a2', label: 'Two' }] });
    const table = await block(id, 'table', { columns: ['x'], rows: [] });
    const other = await note(lib, { Name: 'other checklist' });
    const foreign = await block(other, 'todos', { items: [{ id: 'z', label: 'Z' }] });
    const { shareToken } = await share(id);
    const post = (blockId: number | string, body: string, token = shareToken) =>
      shared(`/s/${token}/block/${blockId}/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const ok = await post(todos, '{"checked": ["a1"]}');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true });
    expect((await lib.json<{ state: unknown }>('GET', `/v1/note/block?id=${todos}`)).body.state).toEqual({ checked: ['a1'] });
    expect((await post(table, '{"sortColumn": "x"}')).status).toBe(403);
    expect((await post(foreign, '{"checked": ["z"]}')).status).toBe(404);
    expect((await post(999999, '{"checked": []}')).status).toBe(404);
    expect((await post('abc', '{"checked": []}')).status).toBe(404);
    expect((await post(todos, '{bad json')).status).toBe(400);
    expect((await post(todos, '["a1"]')).status).toBe(400);
    expect((await post(todos, '{"checked": ["nope"]}')).status).toBe(400);
    expect((await post(todos, '{"checked": []}', 'B'.repeat(32))).status).toBe(404);
    expect((await lib.json<{ state: unknown }>('GET', `/v1/note/block?id=${todos}`)).body.state).toEqual({ checked: ['a1'] });
    expect((await lib.json<{ state: unknown }>('GET', `/v1/note/block?id=${foreign}`)).body.state).toEqual({ checked: [] });
  });

  it('answers calendar events of the shared note only', async () => {
    const id = await note(lib, { Name: 'shared calendar' });
    const cal = await block(id, 'calendar', { calendars: [] });
    await lib.json('PATCH', `/v1/note/block/state?id=${cal}`, { state: { customEvents: [{ id: 'e', title: 'Party', start: '2024-05-04T18:00:00Z', end: '2024-05-04T23:00:00Z', allDay: false }] } });
    const other = await note(lib, { Name: 'unshared calendar' });
    const foreign = await block(other, 'calendar', { calendars: [] });
    const { shareToken } = await share(id);
    const r = await shared(`/s/${shareToken}/block/${cal}/calendar/events?start=2024-05-01&end=2024-05-31`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { events: { title: string }[] };
    expect(body.events.map((e) => e.title)).toEqual(['Party']);
    expect((await shared(`/s/${shareToken}/block/${foreign}/calendar/events?start=2024-05-01&end=2024-05-31`)).status).toBe(404);
    expect((await shared(`/s/${shareToken}/block/${cal}/calendar/events?start=x&end=2024-05-31`)).status).toBe(400);
  });

  it('serves files of resources attached to the note or shown by its galleries, and only those', async () => {
    const id = await note(lib, { Name: 'with files' });
    const attached = await uploadResource(lib, 'notes.txt', 'attached bytes');
    const picture = await png(6, 6, 2);
    const pictured = await uploadResource(lib, 'pic.png', picture);
    const hidden = await uploadResource(lib, 'private.txt', 'private bytes');
    const page = await uploadResource(lib, 'page.html', '<!doctype html><script>alert(1)</script>');
    await lib.json('POST', '/v1/note', { ID: id, Resources: [attached.ID, page.ID] });
    await block(id, 'gallery', { resourceIds: [pictured.ID] });
    const { shareToken } = await share(id);
    const a = await shared(`/s/${shareToken}/resource/${attached.Hash}`);
    expect(a.status).toBe(200);
    expect(await a.text()).toBe('attached bytes');
    expect(a.headers.get('content-type')).toMatch(/text\/plain/);
    const p = await shared(`/s/${shareToken}/resource/${pictured.Hash.toUpperCase()}`);
    expect(p.status).toBe(200);
    expect(Buffer.from(await p.arrayBuffer()).equals(picture)).toBe(true);
    expect((await shared(`/s/${shareToken}/resource/${hidden.Hash}`)).status).toBe(404);
    expect((await shared(`/s/${shareToken}/resource/${'9'.repeat(40)}`)).status).toBe(404);
    expect((await shared(`/s/${shareToken}/resource/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    // A shared HTML file cannot run scripts on the share origin.
    const h = await shared(`/s/${shareToken}/resource/${page.Hash}`);
    expect(h.status).toBe(200);
    expect(h.headers.get('content-security-policy')).toContain('sandbox');
    const html = await (await shared(`/s/${shareToken}`)).text();
    expect(html).toContain(`/s/${shareToken}/resource/${pictured.Hash}`);
  });
});

describe('unsharing and revoking', () => {
  it('unshares: the page is gone and the Shared filter follows', async () => {
    const id = await note(lib, { Name: 'unshare me' });
    const { shareUrl } = await share(id);
    expect((await lib.json<unknown[]>('GET', `/v1/notes?Ids=${id}&Shared=1`)).body).toHaveLength(1);
    expect((await lib.json('DELETE', `/v1/note/share?noteId=${id}`)).body).toEqual({ success: true });
    expect((await shared(shareUrl)).status).toBe(404);
    expect((await lib.json<unknown[]>('GET', `/v1/notes?Ids=${id}&Shared=1`)).body).toHaveLength(0);
    expect((await lib.json<unknown[]>('GET', `/v1/notes?Ids=${id}&Shared=0`)).body).toHaveLength(1);
    // Unsharing an unshared note is fine; sharing again gives a new token.
    expect((await lib.json('DELETE', `/v1/note/share?noteId=${id}`)).body).toEqual({ success: true });
    expect((await share(id)).shareUrl).not.toBe(shareUrl);
  });

  it('revokes in bulk with the exact reply, skipping non-numeric and zero ids', async () => {
    const a = await note(lib, { Name: 'bulk a' });
    const b = await note(lib, { Name: 'bulk b' });
    const c = await note(lib, { Name: 'bulk c (never shared)' });
    const sa = await share(a);
    await share(b);
    const r = await lib.form('/v1/admin/shares/bulk-revoke', [['ids', a], ['ids', b], ['ids', c], ['ids', 'abc'], ['ids', '0'], ['ids', '']], { accept: 'application/json' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ success: true, revoked: 2, attempts: 3 });
    expect((await shared(sa.shareUrl)).status).toBe(404);
    expect((await lib.json<unknown[]>('GET', `/v1/notes?Ids=${a},${b}&Shared=1`)).body).toHaveLength(0);
    const none = await lib.form('/v1/admin/shares/bulk-revoke', [['ids', 'x']], { accept: 'application/json' });
    expect(await none.json()).toEqual({ success: true, revoked: 0, attempts: 0 });
  });

  it('redirects to /admin/shares without Accept: application/json', async () => {
    const a = await note(lib, { Name: 'redirected' });
    await share(a);
    for (const accept of ['text/html', '*/*', undefined]) {
      const r = await lib.form('/v1/admin/shares/bulk-revoke', [['ids', a]], accept ? { accept } : {});
      expect(r.status, String(accept)).toBe(303);
      expect(r.headers.get('location')).toBe('/admin/shares');
    }
    expect((await lib.json<unknown[]>('GET', `/v1/notes?Ids=${a}&Shared=1`)).body).toHaveLength(0);
  });

  it('lists every shared note on the admin page', async () => {
    const id = await note(lib, { Name: 'listed share' });
    const { shareToken } = await share(id);
    const html = await (await lib.fetch('/admin/shares')).text();
    expect(html).toContain('listed share');
    expect(html).toContain(`/s/${shareToken}`);
    expect(html).toContain('action="/v1/admin/shares/bulk-revoke"');
    const json = await lib.json<{ shares: { noteId: number; shareUrl: string }[] }>('GET', '/admin/shares.json');
    expect(json.body.shares.some((s) => s.noteId === id && s.shareUrl === `/s/${shareToken}`)).toBe(true);
  });
});

describe('share server start-up', () => {
  it('fails start-up with a clear message when the share port is taken', async () => {
    const port = new URL(lib.shareUrl!).port;
    const { config } = parseLibraryArgs(['-bind-address', '127.0.0.1:0', '-ephemeral', '-share-port', port, '-share-bind-address', '127.0.0.1', '-quiet'], {});
    await expect(startLibrary(config, { log: () => undefined })).rejects.toThrow(/cannot start the share server on 127\.0\.0\.1:\d+: .*free the port or drop -share-port/);
  });
});
