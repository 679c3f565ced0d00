import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

type Group = { ID: number; Name: string; Meta: Record<string, unknown>; OwnerId: number | null; Tags: { ID: number }[]; RelatedGroups: { ID: number }[] };
type Result = { entity: string; matched: number; affected: number; ops: { op: string; rowsAffected: number }[]; dryRun: boolean };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-mass-edit-filter-limit', '5']);
});
afterAll(async () => lib?.close());

async function group(body: Record<string, unknown>): Promise<Group> {
  const r = await lib.json<Group>('POST', '/v1/group', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const read = async (id: number) => (await lib.json<Group>('GET', `/v1/group?id=${id}`)).body;
const tag = async (name: string) => (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;
const massEdit = (body: Record<string, unknown>) => lib.json<Result & { error?: string }>('POST', '/v1/groups/massEdit', body);

describe('groups mass edit', () => {
  it('adds, removes and replaces tags over explicit ids, counting join rows and entities', async () => {
    const [t1, t2, t3] = [await tag('me-1'), await tag('me-2'), await tag('me-3')];
    const a = await group({ Name: 'me-a', Tags: [t1] });
    const b = await group({ Name: 'me-b' });
    const added = await massEdit({ ID: [a.ID, b.ID, a.ID], TagsOp: 'add', TagIds: [t1, t2] });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ entity: 'group', matched: 2, affected: 2, ops: [{ op: 'tags.add', rowsAffected: 3 }], dryRun: false });
    const removed = await massEdit({ ID: [a.ID, b.ID], TagsOp: 'remove', TagIds: [t1] });
    expect(removed.body.ops).toEqual([{ op: 'tags.remove', rowsAffected: 2 }]);
    const replaced = await massEdit({ ID: [a.ID, b.ID], TagsOp: 'replace', TagIds: [t3] });
    expect(replaced.body.ops).toEqual([{ op: 'tags.replace', rowsAffected: 4 }]);
    expect((await read(a.ID)).Tags.map((t) => t.ID)).toEqual([t3]);
    const cleared = await massEdit({ ID: [b.ID], TagsOp: 'replace', TagIds: [] });
    expect(cleared.body.affected).toBe(1);
    expect((await read(b.ID)).Tags).toEqual([]);
  });

  it('links related groups, notes and resources, never a group to itself', async () => {
    const a = await group({ Name: 'me-rel-a' });
    const b = await group({ Name: 'me-rel-b' });
    const note = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'n' })).body.ID;
    const r = await massEdit({ ID: [a.ID, b.ID], RelatedGroupsOp: 'add', RelatedGroupIds: [a.ID, b.ID], NotesOp: 'add', NoteIds: [note] });
    expect(r.body.ops).toEqual([
      { op: 'notes.add', rowsAffected: 2 },
      { op: 'relatedGroups.add', rowsAffected: 2 },
    ]);
    expect((await read(a.ID)).RelatedGroups.map((g) => g.ID)).toEqual([b.ID]);
    expect((await massEdit({ ID: [a.ID], ResourcesOp: 'add', ResourceIds: [999999] })).status).toBe(404);
  });

  it('merges, replaces and removes meta keys', async () => {
    const a = await group({ Name: 'me-meta-a', Meta: '{"keep":1,"drop":2}' });
    const b = await group({ Name: 'me-meta-b', Meta: '{"drop":3}' });
    const merged = await massEdit({ ID: [a.ID, b.ID], MetaOp: 'merge', Meta: '{"added":true}' });
    expect(merged.body.ops).toEqual([{ op: 'meta.merge', rowsAffected: 2 }]);
    expect((await read(a.ID)).Meta).toEqual({ keep: 1, drop: 2, added: true });
    const removed = await massEdit({ ID: [a.ID, b.ID], MetaOp: 'removeKeys', MetaKeys: ['drop', 'absent'] });
    expect(removed.body.ops).toEqual([{ op: 'meta.removeKeys', rowsAffected: 2 }]);
    expect((await read(b.ID)).Meta).toEqual({ added: true });
    await massEdit({ ID: [b.ID], MetaOp: 'replace', Meta: { only: 'this' } });
    expect((await read(b.ID)).Meta).toEqual({ only: 'this' });
  });

  it('sets and clears the owner last, refusing a cycle with 409', async () => {
    const parent = await group({ Name: 'me-parent' });
    const a = await group({ Name: 'me-own-a' });
    const b = await group({ Name: 'me-own-b' });
    const grandchild = await group({ Name: 'me-own-gc', OwnerId: a.ID });
    const t = await tag('me-owner-tag');
    const set = await massEdit({ ID: [a.ID, b.ID], OwnerOp: 'set', OwnerId: parent.ID, TagsOp: 'add', TagIds: [t] });
    expect(set.body.ops.map((o) => o.op)).toEqual(['tags.add', 'owner.set']);
    expect((await read(b.ID)).OwnerId).toBe(parent.ID);
    const cycle = await massEdit({ ID: [parent.ID, b.ID], OwnerOp: 'set', OwnerId: grandchild.ID, MetaOp: 'merge', Meta: '{"x":1}' });
    expect(cycle.status).toBe(409);
    expect((await read(parent.ID)).Meta).toEqual({});
    expect((await massEdit({ ID: [a.ID], OwnerOp: 'set', OwnerId: a.ID })).status).toBe(409);
    const cleared = await massEdit({ ID: [a.ID, b.ID, parent.ID], OwnerOp: 'clear' });
    expect(cleared.body).toMatchObject({ matched: 3, affected: 2, ops: [{ op: 'owner.clear', rowsAffected: 2 }] });
  });

  it('rolls every op back when one fails', async () => {
    const cat = await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'MassTyped', MetaSchema: '{"type":"object","properties":{"n":{"type":"number"}}}' });
    const typed = await group({ Name: 'me-rb-typed', CategoryId: cat.body.ID });
    const plain = await group({ Name: 'me-rb-plain' });
    const t = await tag('me-rollback');
    const r = await massEdit({ ID: [plain.ID, typed.ID], TagsOp: 'add', TagIds: [t], MetaOp: 'merge', Meta: '{"n":"not a number"}' });
    expect(r.status).toBe(400);
    expect((await read(plain.ID)).Tags).toEqual([]);
    expect((await read(plain.ID)).Meta).toEqual({});
  });

  it('resolves a filter, recounts against ExpectedCount and refuses a filter over the ceiling', async () => {
    for (const n of [1, 2, 3]) await group({ Name: `me-filter-${n}` });
    const dry = await massEdit({ Target: 'filter', Filter: 'Name=me-filter-&page=2', ExpectedCount: 3, MetaOp: 'merge', Meta: '{"f":1}', DryRun: true });
    expect(dry.body).toEqual({ entity: 'group', matched: 3, affected: 0, ops: [{ op: 'meta.merge', rowsAffected: 0 }], dryRun: true });
    expect((await lib.json<Group[]>('GET', '/v1/groups?Name=me-filter-')).body.every((g) => Object.keys(g.Meta).length === 0)).toBe(true);
    const stale = await massEdit({ Target: 'filter', Filter: 'Name=me-filter-', ExpectedCount: 2, MetaOp: 'merge', Meta: '{"f":1}' });
    expect(stale.status).toBe(409);
    const done = await massEdit({ Target: 'filter', Filter: '?Name=me-filter-', ExpectedCount: 3, MetaOp: 'merge', Meta: '{"f":1}' });
    expect(done.body).toMatchObject({ matched: 3, affected: 3 });
    const all = await massEdit({ Target: 'filter', Filter: '', ExpectedCount: 1, MetaOp: 'merge', Meta: '{"f":1}' });
    expect(all.status).toBe(400);
    expect(all.body.error).toContain('more than 5');
    expect((await massEdit({ Target: 'filter', Filter: 'Name=x', MetaOp: 'merge', Meta: '{}' })).status).toBe(400);
    expect((await massEdit({ Target: 'filter', Filter: 'CreatedAfter=yesterday', ExpectedCount: 0 })).status).toBe(400);
    // The list page's MRQL bar travels inside the filter string.
    const byMrql = await massEdit({ Target: 'filter', Filter: `mrql=${encodeURIComponent('name ~ "me-filter-*"')}`, ExpectedCount: 3, MetaOp: 'merge', Meta: '{"m":1}', DryRun: true });
    expect(byMrql.body).toMatchObject({ matched: 3 });
    expect((await massEdit({ Target: 'filter', Filter: `mrql=${encodeURIComponent('name ~')}`, ExpectedCount: 3 })).status).toBe(400);
  });

  it('refuses unknown verbs, ops the entity lacks, and malformed input', async () => {
    const g = await group({ Name: 'me-bad' });
    const bad: Record<string, unknown>[] = [
      { ID: [g.ID], TagsOp: 'toggle', TagIds: [1] },
      { ID: [g.ID], OwnerOp: 'move', OwnerId: g.ID },
      { ID: [g.ID], MetaOp: 'append', Meta: '{}' },
      { ID: [g.ID], GroupsOp: 'add', GroupIds: [g.ID] },
      { ID: [g.ID], TagsOp: 'add' },
      { ID: [g.ID], MetaOp: 'merge', Meta: '[1]' },
      { ID: [g.ID], MetaOp: 'removeKeys' },
      { ID: [g.ID], OwnerOp: 'set' },
      { ID: [], TagsOp: 'add', TagIds: [1] },
      { Target: 'everything', ID: [g.ID] },
    ];
    for (const body of bad) expect((await massEdit(body)).status, JSON.stringify(body)).toBe(400);
    expect((await massEdit({ ID: [999999], MetaOp: 'merge', Meta: '{}' })).status).toBe(404);
  });

  it('shares the engine with the bulk endpoints and logs one entry per edit', async () => {
    const a = await group({ Name: 'me-bulk' });
    const t = await tag('me-bulk-tag');
    expect((await lib.json('POST', '/v1/groups/addTags', { ID: [a.ID], EditedId: [] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/groups/addTags', { ID: [a.ID], EditedId: [t] })).body).toEqual({ ok: true });
    const logs = await lib.json<{ logs: { message: string }[] }>('GET', '/v1/logs?EntityType=group&Message=Mass edit of 1 groups');
    expect(logs.body.logs[0].message).toBe('Mass edit of 1 groups: tags.add (1)');
    const html = await lib.form('/v1/groups/massEdit', [['ID', a.ID], ['MetaOp', 'merge'], ['Meta', '{"h":1}']], { accept: 'text/html' });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe('/groups');
  });
});

describe('resources through the shared engine', () => {
  type Res = { ID: number; Meta: Record<string, unknown>; ownMeta: Record<string, unknown>; Tags: { ID: number }[]; OwnerId: number | null; Groups: { ID: number }[] | null };
  let seed = 500;
  const res = async (fields: Record<string, string | number> = {}) => {
    const r = await upload(lib, [{ name: `me-${seed}.png`, data: await png(32, 24, seed++) }], fields);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as Res[])[0];
  };
  const readRes = async (id: number) => (await lib.json<Res>('GET', `/v1/resource?id=${id}`)).body;

  it('edits a resource meta path and keeps series members from re-inheriting removed keys', async () => {
    const a = await res({ SeriesSlug: 'me-series', Meta: '{"shared":1,"kind":"scan"}' });
    const b = await res({ SeriesSlug: 'me-series' });
    expect((await readRes(b.ID)).Meta).toEqual({ shared: 1, kind: 'scan' });
    const edited = await lib.json<{ meta: Record<string, unknown> }>('POST', `/v1/resource/editMeta?id=${b.ID}`, { path: 'page.number', value: '3' });
    expect(edited.body.meta).toEqual({ shared: 1, kind: 'scan', page: { number: 3 } });
    const removed = await lib.json<Result>('POST', '/v1/resources/massEdit', { ID: [b.ID], MetaOp: 'removeKeys', MetaKeys: ['kind'] });
    expect(removed.body.ops).toEqual([{ op: 'meta.removeKeys', rowsAffected: 1 }]);
    expect((await readRes(b.ID)).Meta).toEqual({ shared: 1, page: { number: 3 } });
    expect((await readRes(b.ID)).ownMeta).toMatchObject({ kind: null });
    expect((await readRes(a.ID)).Meta).toEqual({ shared: 1, kind: 'scan' });
  });

  it('mass edits resources by filter with tags, groups and the owner', async () => {
    const owner = await group({ Name: 'me-res-owner' });
    const related = await group({ Name: 'me-res-related' });
    const t = await tag('me-res-tag');
    const x = await res({ Name: 'me-res-filter-1' });
    const y = await res({ Name: 'me-res-filter-2' });
    const r = await lib.json<Result>('POST', '/v1/resources/massEdit', {
      Target: 'filter',
      Filter: 'Name=me-res-filter',
      ExpectedCount: 2,
      TagsOp: 'add',
      TagIds: [t],
      GroupsOp: 'add',
      GroupIds: [related.ID],
      OwnerOp: 'set',
      OwnerId: owner.ID,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ entity: 'resource', matched: 2, affected: 2 });
    for (const id of [x.ID, y.ID]) {
      const got = await readRes(id);
      expect(got.OwnerId).toBe(owner.ID);
      expect(got.Tags.map((tg) => tg.ID)).toEqual([t]);
    }
    expect((await lib.json('POST', '/v1/resources/massEdit', { ID: [x.ID], RelatedGroupsOp: 'add', RelatedGroupIds: [related.ID] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/resources/replaceTags', { ID: [x.ID] })).body).toEqual({ ok: true });
    expect((await readRes(x.ID)).Tags).toEqual([]);
  });
});

describe('notes through the shared engine', () => {
  type Note = { ID: number; Meta: Record<string, unknown>; Tags: { ID: number }[]; OwnerId: number | null; Resources: { ID: number }[] | null; Groups: { ID: number }[] | null };
  const note = async (body: Record<string, unknown>) => {
    const r = await lib.json<Note>('POST', '/v1/note', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const readNote = async (id: number) => (await lib.json<Note>('GET', `/v1/note?id=${id}`)).body;

  it('edits a note meta path against its note type schema', async () => {
    const type = await lib.json<{ ID: number }>('POST', '/v1/note/noteType', { Name: 'me-typed', MetaSchema: '{"type":"object","properties":{"done":{"type":"boolean"}}}' });
    const n = await note({ Name: 'me-note-meta', NoteTypeId: type.body.ID, Meta: '{"done":false}' });
    expect((await lib.json('POST', `/v1/note/editMeta?id=${n.ID}`, { path: 'done', value: '"yes"' })).status).toBe(400);
    const ok = await lib.json<{ meta: Record<string, unknown> }>('POST', `/v1/note/editMeta?id=${n.ID}`, { path: 'done', value: 'true' });
    expect(ok.body.meta).toEqual({ done: true });
    expect((await lib.json('POST', '/v1/note/editMeta?id=999999', { path: 'a', value: '1' })).status).toBe(404);
  });

  it('mass edits notes: related groups and resources, owner, and refuses ops notes lack', async () => {
    const owner = await group({ Name: 'me-note-owner' });
    const related = await group({ Name: 'me-note-related' });
    const r = await upload(lib, [{ name: 'me-note.png', data: await png(16, 16, 4242) }]);
    const resourceId = (r.body as { ID: number }[])[0].ID;
    const a = await note({ Name: 'me-note-a' });
    const b = await note({ Name: 'me-note-b' });
    const res = await lib.json<Result>('POST', '/v1/notes/massEdit', { ID: [a.ID, b.ID], GroupsOp: 'add', GroupIds: [related.ID], ResourcesOp: 'add', ResourceIds: [resourceId], OwnerOp: 'set', OwnerId: owner.ID });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ops).toEqual([
      { op: 'groups.add', rowsAffected: 2 },
      { op: 'resources.add', rowsAffected: 2 },
      { op: 'owner.set', rowsAffected: 2 },
    ]);
    const got = await readNote(a.ID);
    expect(got.OwnerId).toBe(owner.ID);
    expect(got.Resources?.map((x) => x.ID)).toEqual([resourceId]);
    expect((await lib.json('POST', '/v1/notes/massEdit', { ID: [a.ID], NotesOp: 'add', NoteIds: [b.ID] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/notes/addGroups', { ID: [a.ID, b.ID], EditedId: [owner.ID] })).body).toEqual({ ok: true });
  });
});
