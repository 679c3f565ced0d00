// Scope confinement (companion §10.10): a group-limited user probes every family for what lies
// outside its subtree — by id, by list, by search and MRQL, through files and thumbnails, by
// timelines, versions and mass edit — and tries writes that would reach outside it. Reads of
// anything invisible answer 404, never 403; writes that would place something outside answer 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, startAuthLibrary, type Session } from '../../helpers/accounts.js';
import type { TestLibrary } from '../../helpers/library.js';
import { png, postMultipart } from '../../helpers/resources.js';

interface Rec {
  ID: number;
  Name: string;
  Location?: string;
}

let lib: TestLibrary;
let admin: Session;
let scoped: Record<string, string>;
let guest: Record<string, string>;
let adminH: Record<string, string>;
const g: Record<string, number> = {};
const r: Record<string, Rec> = {};
const n: Record<string, number> = {};

async function uploadAs(headers: Record<string, string>, name: string, seed: number, ownerId?: number) {
  return postMultipart(lib, '/v1/resource', 'resource', [{ name: `${name}.png`, type: 'image/png', data: await png(16, 16, seed) }], { Name: name, ...(ownerId ? { OwnerId: ownerId } : {}) }, headers);
}

async function note(name: string, ownerId?: number): Promise<number> {
  const res = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: name, ...(ownerId ? { OwnerId: ownerId } : {}) }, adminH);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ID;
}

const ids = (rows: { ID: number }[]) => rows.map((x) => x.ID).sort((a, b) => a - b);

beforeAll(async () => {
  lib = await startAuthLibrary();
  admin = await login(lib, ADMIN.username, ADMIN.password);
  adminH = asSession(admin);
  g.scope = await makeGroup(lib, admin, 'Scope root');
  g.child = await makeGroup(lib, admin, 'Inside child', g.scope);
  g.outside = await makeGroup(lib, admin, 'Outside');
  g.outsideChild = await makeGroup(lib, admin, 'Outside child', g.outside);
  for (const [key, owner, seed] of [
    ['inside', g.child, 1],
    ['outside', g.outside, 2],
    ['ownerless', 0, 3],
  ] as const) {
    const res = await uploadAs(adminH, `res-${key}`, seed, owner || undefined);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    r[key] = (Array.isArray(res.body) ? res.body[0] : res.body) as Rec;
  }
  n.inside = await note('note inside', g.scope);
  n.outside = await note('note outside', g.outside);
  n.ownerless = await note('note ownerless');
  // Links that cross the boundary: the inside note relates to the outside resource and group.
  expect((await lib.json('POST', '/v1/note', { ID: n.inside, Resources: [r.inside.ID, r.outside.ID], Groups: [g.child, g.outside] }, adminH)).status).toBe(200);
  scoped = asBearer((await makeAccount(lib, admin, { role: 'user', scopeGroupId: g.scope })).token);
  guest = asBearer((await makeAccount(lib, admin, { role: 'guest', scopeGroupId: g.scope })).token);
}, 120_000);

afterAll(async () => {
  await lib?.close();
});

describe('a group-limited principal', () => {
  it('lists only its subtree: groups, resources (owner-less ones too are hidden), notes', async () => {
    for (const who of [scoped, guest]) {
      const groups = await lib.json<Rec[]>('GET', '/v1/groups', undefined, who);
      expect(ids(groups.body)).toEqual([g.scope, g.child]);
      const resources = await lib.json<Rec[]>('GET', '/v1/resources', undefined, who);
      expect(ids(resources.body)).toEqual([r.inside.ID]);
      const notes = await lib.json<Rec[]>('GET', '/v1/notes', undefined, who);
      expect(ids(notes.body)).toEqual([n.inside]);
    }
    // The administrator sees everything.
    expect((await lib.json<Rec[]>('GET', '/v1/groups', undefined, adminH)).body.length).toBe(4);
    expect((await lib.json<Rec[]>('GET', '/v1/resources', undefined, adminH)).body.length).toBe(3);
  });

  it('gets 404, never 403, for single reads outside the subtree', async () => {
    const probes = [
      `/v1/group?id=${g.outside}`,
      `/v1/group?id=${g.outsideChild}`,
      `/v1/group/parents?id=${g.outside}`,
      `/v1/resource?id=${r.outside.ID}`,
      `/v1/resource?id=${r.ownerless.ID}`,
      `/v1/note?id=${n.outside}`,
      `/v1/note?id=${n.ownerless}`,
      `/v1/resource/versions?resourceId=${r.outside.ID}`,
      `/v1/resource/view?id=${r.outside.ID}`,
      `/v1/resource/preview?ID=${r.outside.ID}`,
      `/v1/resource/suggestedTags?id=${r.outside.ID}`,
    ];
    for (const path of probes) {
      const res = await lib.fetch(path, { headers: scoped, redirect: 'manual' });
      expect(res.status, path).toBe(404);
    }
    for (const path of [`/v1/group?id=${g.child}`, `/v1/resource?id=${r.inside.ID}`, `/v1/note?id=${n.inside}`]) {
      expect((await lib.fetch(path, { headers: scoped })).status, path).toBe(200);
    }
    // The same ids are there for the administrator.
    expect((await lib.fetch(`/v1/resource?id=${r.outside.ID}`, { headers: adminH })).status).toBe(200);
  });

  it('does not see outside entities embedded in the records it can read', async () => {
    const noteRead = await lib.json<{ Resources: Rec[]; Groups: Rec[] }>('GET', `/v1/note?id=${n.inside}`, undefined, scoped);
    expect(ids(noteRead.body.Resources)).toEqual([r.inside.ID]);
    expect(ids(noteRead.body.Groups)).toEqual([g.child]);
    const scopeRead = await lib.json<{ Owner: Rec | null; OwnGroups: Rec[] }>('GET', `/v1/group?id=${g.scope}`, undefined, scoped);
    expect(ids(scopeRead.body.OwnGroups)).toEqual([g.child]);
    const parents = await lib.json<Rec[]>('GET', `/v1/group/parents?id=${g.child}`, undefined, scoped);
    expect(ids(parents.body)).toEqual([g.scope, g.child]);
    const roots = await lib.json<{ id: number }[]>('GET', '/v1/group/tree/children?parentId=0', undefined, scoped);
    expect(roots.body.map((x) => x.id)).toEqual([g.scope]);
  });

  it('is served only the files of resources it can see', async () => {
    const inside = await lib.fetch(`/files${r.inside.Location}`, { headers: scoped });
    expect(inside.status).toBe(200);
    await inside.arrayBuffer();
    for (const res of [r.outside, r.ownerless]) {
      const out = await lib.fetch(`/files${res.Location}`, { headers: scoped });
      expect(out.status).toBe(404);
      await out.arrayBuffer();
      const asAdmin = await lib.fetch(`/files${res.Location}`, { headers: adminH });
      expect(asAdmin.status).toBe(200);
      await asAdmin.arrayBuffer();
    }
    const thumb = await lib.fetch(`/v1/resource/preview?ID=${r.inside.ID}`, { headers: scoped, redirect: 'manual' });
    expect([200, 307]).toContain(thumb.status);
    await thumb.arrayBuffer();
  });

  it('finds nothing outside through MRQL, global search or timelines', async () => {
    const mrql = await lib.json<{ resources?: Rec[]; items?: { ID?: number; id?: number }[] }>('POST', '/v1/mrql', { query: 'type = resource' }, scoped);
    expect(mrql.status).toBe(200);
    expect(JSON.stringify(mrql.body)).not.toContain('res-outside');
    expect(JSON.stringify(mrql.body)).toContain('res-inside');
    const search = await lib.json('GET', '/v1/search?q=res', undefined, scoped);
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body)).not.toContain('res-outside');
    expect(JSON.stringify(search.body)).not.toContain('res-ownerless');
    const timeline = await lib.json<{ buckets: { created: number }[] }>('GET', '/v1/resources/timeline?granularity=yearly&columns=2', undefined, scoped);
    expect(timeline.body.buckets.reduce((s, b) => s + b.created, 0)).toBe(1);
    const all = await lib.json<{ buckets: { created: number }[] }>('GET', '/v1/resources/timeline?granularity=yearly&columns=2', undefined, adminH);
    expect(all.body.buckets.reduce((s, b) => s + b.created, 0)).toBe(3);
    const notes = await lib.json<{ buckets: { created: number }[] }>('GET', '/v1/notes/timeline?granularity=yearly&columns=2', undefined, scoped);
    expect(notes.body.buckets.reduce((s, b) => s + b.created, 0)).toBe(1);
  });

  it('is refused saved SQL outright', async () => {
    const q = await lib.json<{ ID: number }>('POST', '/v1/query', { Name: 'everything', Text: 'SELECT id FROM resources' }, adminH);
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    const run = await lib.json<{ error: string }>('POST', `/v1/query/run?id=${q.body.ID}`, {}, scoped);
    expect(run.status).toBe(403);
    expect(run.body.error).toBe('saved SQL queries are not available for group-limited accounts');
    expect((await lib.json('POST', `/v1/query/run?id=${q.body.ID}`, {}, adminH)).status).toBe(200);
  });

  it('cannot change, delete or link what lies outside (404), nor place things outside (403)', async () => {
    const before = await lib.json<Rec>('GET', `/v1/resource?id=${r.outside.ID}`, undefined, adminH);
    const refused: [string, string, unknown, number][] = [
      ['POST', '/v1/resource/edit', { ID: r.outside.ID, Name: 'taken' }, 404],
      ['POST', '/v1/resource/delete', { Id: r.outside.ID }, 404],
      ['POST', `/v1/note/delete?Id=${n.outside}`, {}, 404],
      ['POST', `/v1/group/delete?Id=${g.outside}`, {}, 404],
      ['POST', '/v1/group/editName', { id: g.outside, Name: 'taken' }, 404],
      ['POST', '/v1/resources/massEdit', { ID: [r.inside.ID, r.outside.ID], MetaOp: 'merge', Meta: '{"a":1}' }, 404],
      ['POST', '/v1/group', { Name: 'top level' }, 403],
      ['POST', '/v1/group', { Name: 'under outside', OwnerId: g.outside }, 403],
      ['POST', '/v1/note', { Name: 'no owner' }, 403],
      ['POST', '/v1/note', { Name: 'outside owner', OwnerId: g.outside }, 403],
      ['POST', '/v1/note', { Name: 'links outside', OwnerId: g.scope, Resources: [r.outside.ID] }, 404],
      ['POST', '/v1/resource/edit', { ID: r.inside.ID, OwnerId: g.outside }, 403],
      ['POST', '/v1/resource/edit', { ID: r.inside.ID, OwnerId: 0 }, 403],
      ['POST', '/v1/group', { ID: g.child, OwnerId: g.outside }, 403],
      ['POST', '/v1/resources/massEdit', { ID: [r.inside.ID], OwnerOp: 'set', OwnerId: g.outside }, 403],
      ['POST', '/v1/resources/massEdit', { ID: [r.inside.ID], OwnerOp: 'clear' }, 403],
      ['POST', '/v1/jobs/download/submit', { URL: 'http://example.invalid/a.png', OwnerId: g.outside }, 403],
    ];
    for (const [method, path, body, status] of refused) {
      const res = await lib.json<{ error?: string }>(method, path, body, scoped);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    const after = await lib.json<Rec>('GET', `/v1/resource?id=${r.outside.ID}`, undefined, adminH);
    expect(after.body.Name).toBe(before.body.Name);
    expect((await lib.json('GET', `/v1/group?id=${g.outside}`, undefined, adminH)).status).toBe(200);
    expect((await lib.json('GET', `/v1/note?id=${n.outside}`, undefined, adminH)).status).toBe(200);
  });

  it('writes inside its subtree, keeping the links it cannot see', async () => {
    const created = await lib.json<Rec>('POST', '/v1/group', { Name: 'made by scoped', OwnerId: g.child }, scoped);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const upload = await uploadAs(scoped, 'scoped upload', 9, g.child);
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const refusedUpload = await uploadAs(scoped, 'scoped upload outside', 10, g.outside);
    expect(refusedUpload.status).toBe(403);
    // Replacing the inside note's resources keeps the link to the outside resource it cannot see.
    const edited = await lib.json('POST', '/v1/note', { ID: n.inside, Resources: [r.inside.ID] }, scoped);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const asAdmin = await lib.json<{ Resources: Rec[] }>('GET', `/v1/note?id=${n.inside}`, undefined, adminH);
    expect(ids(asAdmin.body.Resources)).toEqual([r.inside.ID, r.outside.ID].sort((a, b) => a - b));
    // Mass edit: removing a link to an outside group is refused; replace spares it.
    const remove = await lib.json('POST', '/v1/notes/massEdit', { ID: [n.inside], GroupsOp: 'remove', GroupIds: [g.outside] }, scoped);
    expect(remove.status).toBe(403);
    const replace = await lib.json('POST', '/v1/notes/massEdit', { ID: [n.inside], GroupsOp: 'replace', GroupIds: [g.scope] }, scoped);
    expect(replace.status, JSON.stringify(replace.body)).toBe(200);
    const groups = await lib.json<{ Groups: Rec[] }>('GET', `/v1/note?id=${n.inside}`, undefined, adminH);
    expect(ids(groups.body.Groups)).toEqual([g.scope, g.outside].sort((a, b) => a - b));
    // A guest is confined the same way but cannot write at all.
    expect((await lib.json('POST', '/v1/group', { Name: 'guest group', OwnerId: g.child }, guest)).status).toBe(403);
  });
  it('pages a small subtree (fetched group by group on PostgreSQL) with the rows and order of the confined list', async () => {
    // A subtree of 2 among more than 20 groups is small (under a tenth), so its list pages are
    // planned group by group; the pages must still be the confined slice of the full order,
    // ties on the sort key included.
    const root = await makeGroup(lib, admin, 'Small root');
    const child = await makeGroup(lib, admin, 'Small child', root);
    for (let k = 0; k < 14; k++) await makeGroup(lib, admin, `Filler ${k}`);
    const small = asBearer((await makeAccount(lib, admin, { role: 'user', scopeGroupId: root })).token);
    for (const [k, owner] of [root, child, g.outside, child, root, child, root].entries()) await note(k % 2 ? 'same name' : `small ${k}`, owner);
    for (const [k, owner] of [child, root, g.outside, root].entries()) expect((await uploadAs(adminH, `small res ${k}`, 20 + k, owner)).status).toBe(200);
    const inside = new Set([root, child]);
    for (const [path, query] of [
      ['/v1/notes', ''],
      ['/v1/notes', '&SortBy=name'],
      ['/v1/notes', '&Name=small'],
      ['/v1/resources', ''],
    ]) {
      const all = await lib.json<(Rec & { OwnerId?: number | null; Owner?: { ID: number } | null })[]>('GET', `${path}?MaxResults=1000${query}`, undefined, adminH);
      const expected = all.body.filter((x) => inside.has(x.OwnerId ?? x.Owner?.ID ?? -1)).map((x) => x.ID);
      expect(expected.length, `${path}${query}`).toBeGreaterThan(2);
      const paged: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / 2) + 1; page++) {
        const res = await lib.json<Rec[]>('GET', `${path}?MaxResults=2&page=${page}${query}`, undefined, small);
        expect(res.status).toBe(200);
        paged.push(...res.body.map((x) => x.ID));
      }
      expect(paged, `${path}${query}`).toEqual(expected);
    }
  });
});
