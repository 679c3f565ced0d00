// Scope confinement beyond the entity endpoints (companion §10.10): note blocks fetched by their
// own id and their calendar events, the dashboard and the picker labels of form pages, and a
// queued download that starts again (retry) after its owner's scope was narrowed. A
// group-limited user probes each; the administrator shows the same rows are there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, startAuthLibrary, type Session } from '../../helpers/accounts.js';
import type { TestLibrary } from '../../helpers/library.js';
import { png, postMultipart } from '../../helpers/resources.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';

interface Rec {
  ID: number;
  Name: string;
}
type Job = { id: string; status: string; error?: string; resourceId?: number };

const ICS = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:secret-1', 'DTSTART:20240305T100000Z', 'DTEND:20240305T110000Z', 'SUMMARY:Secret board meeting', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');

let lib: TestLibrary;
let stub: StubServer;
let admin: Session;
let adminH: Record<string, string>;
let scoped: Record<string, string>;
let scopedId: number;
const g: Record<string, number> = {};
const r: Record<string, number> = {};
const n: Record<string, number> = {};
const b: Record<string, number> = {};
let fetches = 0;

async function upload(name: string, file: { name: string; type: string; data: Buffer }, ownerId: number): Promise<number> {
  const res = await postMultipart(lib, '/v1/resource', 'resource', [file], { Name: name, OwnerId: ownerId }, adminH);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ((Array.isArray(res.body) ? res.body[0] : res.body) as Rec).ID;
}

async function note(name: string, ownerId: number): Promise<number> {
  const res = await lib.json<Rec>('POST', '/v1/note', { Name: name, OwnerId: ownerId }, adminH);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ID;
}

async function block(noteId: number, type: string, content: unknown): Promise<number> {
  const res = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type, content }, adminH);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  stub = await startStubServer();
  stub.routes.set('/unavailable.png', (_req, res) => {
    fetches++;
    res.writeHead(503).end();
  });
  lib = await startAuthLibrary(['-allow-private-fetch', '127.0.0.1']);
  admin = await login(lib, ADMIN.username, ADMIN.password);
  adminH = asSession(admin);
  g.scope = await makeGroup(lib, admin, 'Scope root');
  g.child = await makeGroup(lib, admin, 'Inside child', g.scope);
  g.outside = await makeGroup(lib, admin, 'Forbidden orchard');
  r.inside = await upload('visible picture', { name: 'in.png', type: 'image/png', data: await png(16, 16, 1) }, g.child);
  r.outside = await upload('forbidden picture', { name: 'out.png', type: 'image/png', data: await png(16, 16, 2) }, g.outside);
  r.ics = await upload('forbidden calendar', { name: 'board.ics', type: 'text/calendar', data: Buffer.from(ICS) }, g.outside);
  n.inside = await note('inside note', g.scope);
  n.outside = await note('forbidden note', g.outside);
  b.outText = await block(n.outside, 'text', { text: 'forbidden words' });
  b.outCalendar = await block(n.outside, 'calendar', { calendars: [{ id: 'board', name: 'Board', source: { type: 'resource', resourceId: r.ics } }] });
  // Blocks of a visible note that name what the scoped user cannot see (the admin filled them).
  b.inGallery = await block(n.inside, 'gallery', { resourceIds: [r.inside, r.outside] });
  b.inRefs = await block(n.inside, 'references', { groupIds: [g.child, g.outside] });
  b.inCalendar = await block(n.inside, 'calendar', { calendars: [{ id: 'board', name: 'Board', source: { type: 'resource', resourceId: r.ics } }] });
  const account = await makeAccount(lib, admin, { role: 'user', scopeGroupId: g.scope });
  scoped = asBearer(account.token);
  scopedId = account.id;
}, 120_000);

afterAll(async () => {
  await lib?.close();
  await stub?.close();
});

describe('note blocks of a group-limited principal', () => {
  it('answers 404 for blocks and block lists of a note outside the subtree, reading or writing', async () => {
    const probes: [string, string, unknown][] = [
      ['GET', `/v1/note/block?id=${b.outText}`, undefined],
      ['GET', `/v1/note/blocks?noteId=${n.outside}`, undefined],
      ['GET', `/v1/note/block/types?noteId=${n.outside}`, undefined],
      ['GET', `/v1/note/block/calendar/events?blockId=${b.outCalendar}&start=2024-03-01&end=2024-03-31`, undefined],
      ['GET', `/v1/note/block/table/query?blockId=${b.outText}`, undefined],
      ['PUT', '/v1/note/block', { id: b.outText, content: { text: 'taken' } }],
      ['PATCH', '/v1/note/block/state', { id: b.outCalendar, state: {} }],
      ['POST', '/v1/note/block', { noteId: n.outside, type: 'text', content: { text: 'planted' } }],
      ['POST', '/v1/note/blocks/reorder', { noteId: n.outside, positions: { [b.outText]: 'z' } }],
      ['POST', '/v1/note/blocks/rebalance', { noteId: n.outside }],
      ['DELETE', `/v1/note/block?id=${b.outText}`, undefined],
      ['POST', `/v1/note/block/delete?id=${b.outText}`, {}],
    ];
    for (const [method, path, body] of probes) {
      const res = await lib.json<{ error?: string }>(method, path, body, scoped);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('forbidden');
    }
    // Nothing changed, and the administrator still reads every one of them.
    const text = await lib.json<{ content: { text: string } }>('GET', `/v1/note/block?id=${b.outText}`, undefined, adminH);
    expect(text.status).toBe(200);
    expect(text.body.content.text).toBe('forbidden words');
    expect((await lib.json<unknown[]>('GET', `/v1/note/blocks?noteId=${n.outside}`, undefined, adminH)).body).toHaveLength(2);
  });

  it('reads and writes the blocks of a visible note, but cannot point them at what it cannot see', async () => {
    expect((await lib.json('GET', `/v1/note/block?id=${b.inGallery}`, undefined, scoped)).status).toBe(200);
    expect((await lib.json<unknown[]>('GET', `/v1/note/blocks?noteId=${n.inside}`, undefined, scoped)).body).toHaveLength(3);
    const outside = await lib.json<{ error: string }>('POST', '/v1/note/block', { noteId: n.inside, type: 'gallery', content: { resourceIds: [r.outside] } }, scoped);
    expect(outside.status).toBe(400);
    expect(outside.body.error).not.toContain('forbidden');
    const refs = await lib.json('PUT', '/v1/note/block', { id: b.inRefs, content: { groupIds: [g.outside] } }, scoped);
    expect(refs.status).toBe(400);
    const inside = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: n.inside, type: 'gallery', content: { resourceIds: [r.inside] } }, scoped);
    expect(inside.status, JSON.stringify(inside.body)).toBe(201);
    expect((await lib.json('DELETE', `/v1/note/block?id=${inside.body.id}`, undefined, scoped)).status).toBe(204);
  });

  it('gets no events from a calendar resource it cannot see; the administrator does', async () => {
    const path = `/v1/note/block/calendar/events?blockId=${b.inCalendar}&start=2024-03-01&end=2024-03-31`;
    const seen = await lib.json<{ events: unknown[]; errors?: { calendarId: string; error: string }[] }>('GET', path, undefined, scoped);
    expect(seen.status).toBe(200);
    expect(seen.body.events).toEqual([]);
    expect(seen.body.errors).toEqual([{ calendarId: 'board', error: `resource ${r.ics} does not exist` }]);
    const all = await lib.json<{ events: { title: string }[] }>('GET', path, undefined, adminH);
    expect(all.body.events.map((e) => e.title)).toEqual(['Secret board meeting']);
  });

  it('does not see the names of outside entities a visible note shows in its blocks', async () => {
    const page = await lib.fetch(`/note?id=${n.inside}`, { headers: { ...scoped, accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('visible picture');
    expect(html).not.toContain('forbidden picture');
    expect(html).not.toContain('Forbidden orchard');
    const asAdmin = await (await lib.fetch(`/note?id=${n.inside}`, { headers: { ...adminH, accept: 'text/html' } })).text();
    expect(asAdmin).toContain('forbidden picture');
    expect(asAdmin).toContain('Forbidden orchard');
  });
});

describe('pages of a group-limited principal', () => {
  it('shows only its subtree on the dashboard: recent items and the activity feed', async () => {
    const html = await (await lib.fetch('/dashboard', { headers: { ...scoped, accept: 'text/html' } })).text();
    expect(html).toContain('inside note');
    expect(html).toContain('visible picture');
    for (const hidden of ['forbidden note', 'forbidden picture', 'forbidden calendar', 'Forbidden orchard']) expect(html, hidden).not.toContain(hidden);
    const asAdmin = await (await lib.fetch('/dashboard', { headers: { ...adminH, accept: 'text/html' } })).text();
    expect(asAdmin).toContain('forbidden note');
    expect(asAdmin).toContain('Forbidden orchard');
  });

  it('neither offers nor opens group import, which cannot be confined; an unscoped user has both', async () => {
    const html = { accept: 'text/html' };
    const dashboard = await (await lib.fetch('/dashboard', { headers: { ...scoped, ...html } })).text();
    expect(dashboard).toContain('href="/admin/export"');
    expect(dashboard).not.toContain('href="/admin/import"');
    expect((await lib.fetch('/admin/import', { headers: { ...scoped, ...html } })).status).toBe(403);
    const free = asBearer((await makeAccount(lib, admin, { role: 'user' })).token);
    expect(await (await lib.fetch('/dashboard', { headers: { ...free, ...html } })).text()).toContain('href="/admin/import"');
    expect((await lib.fetch('/admin/import', { headers: { ...free, ...html } })).status).toBe(200);
  });

  it('labels form pickers only with what it can see, and the picker sources list only that', async () => {
    const path = `/note/new?OwnerId=${g.outside}&Groups=${g.outside}&Resources=${r.outside}`;
    const html = await (await lib.fetch(path, { headers: { ...scoped, accept: 'text/html' } })).text();
    expect(html).not.toContain('Forbidden orchard');
    expect(html).not.toContain('forbidden picture');
    const asAdmin = await (await lib.fetch(path, { headers: { ...adminH, accept: 'text/html' } })).text();
    expect(asAdmin).toContain('Forbidden orchard');
    // The pickers search the list endpoints and global search, which are confined too.
    expect((await lib.json<Rec[]>('GET', '/v1/groups?Name=Forbidden&MaxResults=50', undefined, scoped)).body).toEqual([]);
    expect((await lib.json<Rec[]>('GET', '/v1/resources?Name=forbidden&MaxResults=50', undefined, scoped)).body).toEqual([]);
    expect((await lib.json<{ results: unknown[] }>('GET', '/v1/search?q=forbidden&limit=12', undefined, scoped)).body.results).toEqual([]);
    expect((await lib.json<{ results: unknown[] }>('GET', '/v1/search?q=forbidden&limit=12', undefined, adminH)).body.results.length).toBeGreaterThan(0);
  });
});

describe('downloads of a group-limited principal', () => {
  async function settle(id: string, headers: Record<string, string>): Promise<Job> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await lib.json<Job>('GET', `/v1/jobs/get?id=${id}`, undefined, headers);
      if (['completed', 'failed', 'cancelled'].includes(res.body.status)) return res.body;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${res.body.status}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  it("checks a retried job against the owner's current scope, before fetching anything", async () => {
    const submitted = await lib.json<{ jobs: Job[] }>('POST', '/v1/jobs/download/submit', { URL: `${stub.url}/unavailable.png`, OwnerId: g.child }, scoped);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const id = submitted.body.jobs[0].id;
    // In scope: the job runs and fails on the server's answer.
    expect(await settle(id, scoped)).toMatchObject({ status: 'failed', error: 'HTTP 503: Service Unavailable' });
    // The administrator narrows the account to another subtree; the retry is refused by scope.
    const other = await makeGroup(lib, admin, 'Elsewhere');
    expect((await lib.json('POST', '/v1/user', { id: scopedId, scopeGroupId: other }, adminH)).status).toBe(200);
    const before = fetches;
    expect((await lib.json('POST', `/v1/jobs/retry?id=${id}`, {}, scoped)).status).toBe(200);
    const retried = await settle(id, scoped);
    expect(retried.status).toBe('failed');
    expect(retried.error).toContain('outside your permitted scope');
    expect(fetches).toBe(before);
    // Back in scope, the same retry reaches the server again.
    expect((await lib.json('POST', '/v1/user', { id: scopedId, scopeGroupId: g.scope }, adminH)).status).toBe(200);
    expect((await lib.json('POST', `/v1/jobs/retry?id=${id}`, {}, scoped)).status).toBe(200);
    expect(await settle(id, scoped)).toMatchObject({ status: 'failed', error: 'HTTP 503: Service Unavailable' });
  });
});
