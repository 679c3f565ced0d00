import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

type Group = {
  ID: number;
  Name: string;
  Description: string;
  URL: string | null;
  Meta: Record<string, unknown>;
  OwnerId: number | null;
  CategoryId: number | null;
  Tags: { ID: number; Name: string }[];
  Category: { ID: number; Name: string } | null;
  RelatedGroups: Group[] | null;
  OwnGroups?: Group[];
  OwnResources?: unknown[];
  OwnNotes?: unknown[];
  Owner?: Group | null;
};

let lib: TestLibrary;
let person: number;
let location: number;
beforeAll(async () => {
  lib = await startTestLibrary();
  const cats = (await lib.json<{ ID: number; Name: string }[]>('GET', '/v1/categories')).body;
  person = cats.find((c) => c.Name === 'Person')!.ID;
  location = cats.find((c) => c.Name === 'Location')!.ID;
});
afterAll(async () => lib?.close());

async function group(body: Record<string, unknown>): Promise<Group> {
  const r = await lib.json<Group>('POST', '/v1/group', body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function tag(name: string): Promise<number> {
  return (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;
}

async function names(query: string): Promise<string[]> {
  const r = await lib.json<Group[]>('GET', `/v1/groups?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.map((g) => g.Name).sort();
}

/** The id of a seeded relation type. */
async function relationType(name: string): Promise<number> {
  return (await lib.json<{ ID: number; Name: string }[]>('GET', `/v1/relationTypes?Name=${encodeURIComponent(name)}`)).body.find((t) => t.Name === name)!.ID;
}

describe('groups: create, read, update', () => {
  it('creates with every field and reads it back with its associations', async () => {
    const t = await tag('g-tag');
    const other = await group({ Name: 'other' });
    const g = await group({ Name: 'Alice', Description: 'a person', CategoryId: person, Tags: [t], Groups: [other.ID], Meta: '{"age": 30}', URL: 'https://example.org/a' });
    expect(g).toMatchObject({ Name: 'Alice', Description: 'a person', CategoryId: person, Meta: { age: 30 }, URL: 'https://example.org/a', OwnerId: null });
    expect(g.Tags.map((x) => x.Name)).toEqual(['g-tag']);
    expect(g.Category?.Name).toBe('Person');
    expect(g.RelatedGroups!.map((x) => x.Name)).toEqual(['other']);
    const read = await lib.json<Group>('GET', `/v1/group?id=${g.ID}`);
    expect(read.body).toMatchObject({ ID: g.ID, Name: 'Alice' });
  });

  it('refuses a missing name, bad meta, a bad URL and missing references', async () => {
    expect((await lib.json('POST', '/v1/group', { Description: 'no name' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', Meta: '[1]' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', Meta: '{bad' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', URL: 'http://[::1' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', CategoryId: 99999 })).status).toBe(404);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', OwnerId: 99999 })).status).toBe(404);
    expect((await lib.json('POST', '/v1/group', { Name: 'x', Tags: [99999] })).status).toBe(404);
    expect(await names('Name=%22x%22')).toEqual([]);
  });

  it('updates partially: absent arrays keep links, explicit empty arrays clear them', async () => {
    const t = await tag('keep-me');
    const g = await group({ Name: 'partial', Description: 'd', Tags: [t], URL: 'rel/path' });
    expect(g.URL).toBe('rel/path');
    const renamed = await group({ ID: g.ID, Name: 'partial2' });
    expect(renamed).toMatchObject({ Name: 'partial2', Description: 'd', URL: 'rel/path' });
    expect(renamed.Tags.map((x) => x.ID)).toEqual([t]);
    const cleared = await lib.form('/v1/group', [['ID', g.ID], ['Tags', '']], { accept: 'application/json' });
    expect(((await cleared.json()) as Group).Tags).toEqual([]);
  });

  it('validates meta against the category MetaSchema on write', async () => {
    const cat = { id: (await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'Strict', MetaSchema: '{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}' })).body.ID };
    const bad = await lib.json<{ error: string; errors: { path: string }[] }>('POST', '/v1/group', { Name: 'strict-bad', CategoryId: cat.id, Meta: '{"n":"x"}' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('meta does not match the schema of category "Strict"');
    expect(bad.body.errors[0].path).toBe('/n');
    expect(await names('Name=strict-bad')).toEqual([]);
    await group({ Name: 'strict-good', CategoryId: cat.id, Meta: '{"n":1}' });
  });

  it('answers 303 for browsers and 404 for missing groups', async () => {
    const r = await lib.form('/v1/group', [['Name', 'browser-group']], { accept: 'text/html' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toMatch(/^\/group\?id=\d+$/);
    expect((await lib.json('GET', '/v1/group?id=99999')).status).toBe(404);
    expect((await lib.json('GET', '/v1/group')).status).toBe(400);
  });
});

describe('groups: hierarchy', () => {
  let chain: Group[];
  beforeAll(async () => {
    chain = [];
    let owner: number | undefined;
    for (let i = 0; i < 10; i++) {
      const g = await group({ Name: `level-${i}`, OwnerId: owner });
      chain.push(g);
      owner = g.ID;
    }
  });

  it('lists the ancestors of a 10-level tree, most distant first, the group last', async () => {
    const r = await lib.json<Group[]>('GET', `/v1/group/parents?id=${chain[9].ID}`);
    expect(r.body.map((g) => g.Name)).toEqual(chain.map((g) => g.Name));
    const root = await lib.json<Group[]>('GET', `/v1/group/parents?id=${chain[0].ID}`);
    expect(root.body.map((g) => g.Name)).toEqual(['level-0']);
  });

  it('refuses self-ownership and a cycle through a grandchild with 409, changing nothing', async () => {
    const self = await lib.json<{ error: string }>('POST', '/v1/group', { ID: chain[3].ID, OwnerId: chain[3].ID });
    expect(self.status).toBe(409);
    const cycle = await lib.json<{ error: string }>('POST', '/v1/group', { ID: chain[3].ID, OwnerId: chain[5].ID, Name: 'renamed-in-vain' });
    expect(cycle.status).toBe(409);
    expect(cycle.body.error).toContain('cycle');
    const after = await lib.json<Group>('GET', `/v1/group?id=${chain[3].ID}`);
    expect(after.body).toMatchObject({ Name: 'level-3', OwnerId: chain[2].ID });
  });

  it('re-parents when there is no cycle', async () => {
    const side = await group({ Name: 'side-branch' });
    const moved = await group({ ID: side.ID, OwnerId: chain[9].ID });
    expect(moved.OwnerId).toBe(chain[9].ID);
    const back = await lib.form('/v1/group', [['ID', side.ID], ['OwnerId', '0']], { accept: 'application/json' });
    expect(((await back.json()) as Group).OwnerId).toBeNull();
  });

  it('pages tree children with child counts, default 50 and at most 100', async () => {
    const parent = await group({ Name: 'many-children', CategoryId: location });
    for (let i = 0; i < 105; i++) await group({ Name: `child-${String(i).padStart(3, '0')}`, OwnerId: parent.ID });
    type Child = { id: number; name: string; categoryName: string | null; childCount: number; ownerId: number | null };
    const def = await lib.json<Child[]>('GET', `/v1/group/tree/children?parentId=${parent.ID}`);
    expect(def.body).toHaveLength(50);
    expect(def.body[0]).toMatchObject({ name: 'child-000', childCount: 0, ownerId: parent.ID, categoryName: null });
    expect((await lib.json<Child[]>('GET', `/v1/group/tree/children?parentId=${parent.ID}&limit=500`)).body).toHaveLength(100);
    expect((await lib.json<Child[]>('GET', `/v1/group/tree/children?parentId=${parent.ID}&limit=3`)).body).toHaveLength(3);
    const roots = await lib.json<Child[]>('GET', '/v1/group/tree/children');
    const root = roots.body.find((c) => c.id === parent.ID)!;
    expect(root).toMatchObject({ childCount: 105, categoryName: 'Location', ownerId: null });
    const level0 = roots.body.find((c) => c.name === 'level-0')!;
    expect(level0.childCount).toBe(1);
  });
});

describe('groups: list filters', () => {
  let a: Group, b: Group, c: Group, parent: Group;
  let t1: number, t2: number;
  beforeAll(async () => {
    t1 = await tag('f-one');
    t2 = await tag('f-two');
    parent = await group({ Name: 'f-parent', Meta: '{"region": "north", "size": 10}', Tags: [t2] });
    a = await group({ Name: 'f-alpha', Description: 'First One', CategoryId: person, OwnerId: parent.ID, Tags: [t1, t2], Meta: '{"rank": 5, "kind": "x", "nested": {"deep": true}}', URL: 'https://a.example/' });
    b = await group({ Name: 'f-beta', CategoryId: location, Tags: [t1], Meta: '{"rank": 7, "kind": "y"}', Groups: [a.ID] });
    c = await group({ Name: 'f-gamma', Meta: '{"rank": "5", "kind": "z"}' });
  });

  it('matches Name partially or exactly when quoted, and Description, URL and Ids', async () => {
    expect(await names('Name=F-A')).toEqual(['f-alpha']);
    expect(await names('Name=%22f-al%22')).toEqual([]);
    expect(await names('Name=%22f-alpha%22')).toEqual(['f-alpha']);
    expect(await names('Description=first')).toEqual(['f-alpha']);
    expect(await names('URL=a.example')).toEqual(['f-alpha']);
    expect(await names(`Ids=${a.ID}&Ids=${c.ID}`)).toEqual(['f-alpha', 'f-gamma']);
  });

  it('requires every listed tag, and widens to parents or children on request', async () => {
    expect(await names(`Name=f-&Tags=${t1}`)).toEqual(['f-alpha', 'f-beta']);
    expect(await names(`Name=f-&Tags=${t1}&Tags=${t2}`)).toEqual(['f-alpha']);
    expect(await names(`Name=f-&Tags=${t2}`)).toEqual(['f-alpha', 'f-parent']);
    expect(await names(`Name=f-&Tags=${t2}&Tags=${t1}&SearchParentsForTags=true`)).toEqual(['f-alpha']);
    expect(await names(`Name=f-&Tags=${t1}&SearchChildrenForTags=1`)).toEqual(['f-alpha', 'f-beta', 'f-parent']);
  });

  it('widens name matching to parents or children', async () => {
    expect(await names('Name=f-parent&SearchChildrenForName=true')).toEqual(['f-parent']);
    expect(await names('Name=f-parent&SearchParentsForName=true')).toEqual(['f-alpha', 'f-parent']);
    expect(await names('Name=f-alpha&SearchChildrenForName=true')).toEqual(['f-alpha', 'f-parent']);
  });

  it('AND-s Groups over related links and ownership', async () => {
    expect(await names(`Groups=${a.ID}`)).toEqual(['f-beta']);
    expect(await names(`Groups=${parent.ID}`)).toEqual(['f-alpha']);
    expect(await names(`Groups=${parent.ID}&Groups=${a.ID}`)).toEqual([]);
  });

  it('filters by categories, owner, dates, and relation-type eligibility', async () => {
    expect(await names(`Name=f-&CategoryId=${person}`)).toEqual(['f-alpha']);
    expect(await names(`Name=f-&Categories=${person}&Categories=${location}`)).toEqual(['f-alpha', 'f-beta']);
    expect(await names(`OwnerId=${parent.ID}`)).toEqual(['f-alpha']);
    expect(await names('Name=f-&UpdatedAfter=2999-01-01')).toEqual([]);
    expect(await names('Name=f-&CreatedAfter=2000-01-01&UpdatedBefore=2999-01-01')).toHaveLength(4);
    const address = await relationType('Address');
    expect(await names(`Name=f-&RelationTypeId=${address}`)).toEqual(['f-alpha']);
    expect(await names(`Name=f-&RelationTypeId=${address}&RelationSide=1`)).toEqual(['f-beta']);
  });

  it('filters by related and owned notes and resources', async () => {
    const n = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'n', OwnerId: b.ID, Groups: [a.ID] })).body.ID;
    expect(await names(`Notes=${n}`)).toEqual(['f-alpha', 'f-beta']);
    const up = await upload(lib, [{ name: 'r.png', data: await png(16, 16, 2), type: 'image/png' }], { Groups: [c.ID] });
    const r = (up.body as { ID: number }[])[0].ID;
    expect(await names(`Resources=${r}`)).toEqual(['f-gamma']);
  });

  it('applies MetaQuery with every operator, typing and same-key OR', async () => {
    const mq = (...q: string[]) => names(['Name=f-', ...q.map((x) => `MetaQuery=${encodeURIComponent(x)}`)].join('&'));
    expect(await mq('kind:x')).toEqual(['f-alpha']);
    expect(await mq('rank:EQ:5')).toEqual(['f-alpha']);
    expect(await mq('rank:EQ:"5"')).toEqual(['f-gamma']);
    expect(await mq('kind:EQ:x', 'kind:EQ:y')).toEqual(['f-alpha', 'f-beta']);
    expect(await mq('kind:EQ:x', 'rank:EQ:7')).toEqual([]);
    expect(await mq('rank:GT:5')).toEqual(['f-beta']);
    expect(await mq('rank:GE:5', 'rank:LT:7')).toEqual(['f-alpha']);
    expect(await mq('rank:LE:5', 'kind:NE:z')).toEqual(['f-alpha']);
    expect(await mq('kind:NL:x', 'rank:NE:null')).toEqual(['f-beta', 'f-gamma']);
    expect(await mq('rank:EQ:null')).toEqual(['f-parent']);
    expect(await mq('nested.deep:EQ:true')).toEqual(['f-alpha']);
    expect(await mq('kind:LI:HAS_KEYS:v')).toEqual([]);
    expect(await mq('ignored-without-colon')).toHaveLength(4);
  });

  it('applies parent. and child. MetaQuery prefixes', async () => {
    const mq = (q: string) => names(`Name=f-&MetaQuery=${encodeURIComponent(q)}`);
    expect(await mq('parent.region:EQ:north')).toEqual(['f-alpha']);
    expect(await mq('parent.size:GT:5')).toEqual(['f-alpha']);
    expect(await mq('child.kind:EQ:x')).toEqual(['f-parent']);
    expect(await mq('child.kind:EQ:y')).toEqual([]);
  });

  it('sorts by columns and meta, and validates SortBy', async () => {
    const r = await lib.json<Group[]>('GET', `/v1/groups?Name=f-&SortBy=${encodeURIComponent("meta->>'kind' desc")}`);
    expect(r.body.map((g) => g.Name)).toEqual(['f-gamma', 'f-beta', 'f-alpha', 'f-parent']);
    const byName = await lib.json<Group[]>('GET', '/v1/groups?Name=f-&SortBy=name');
    expect(byName.body.map((g) => g.Name)).toEqual(['f-alpha', 'f-beta', 'f-gamma', 'f-parent']);
    expect((await lib.json('GET', '/v1/groups?SortBy=password')).status).toBe(400);
  });

  it('preloads only Tags and Category in lists, with paging headers', async () => {
    const r = await lib.json<Group[]>('GET', `/v1/groups?Ids=${a.ID}`);
    expect(r.headers.get('x-page')).toBe('1');
    expect(r.headers.get('x-per-page')).toBe('50');
    expect(r.body[0].Tags.map((t) => t.Name).sort()).toEqual(['f-one', 'f-two']);
    expect(r.body[0].Category?.Name).toBe('Person');
    expect(r.body[0].RelatedGroups).toBeNull();
  });

  it('counts a timeline over the same filters', async () => {
    type Timeline = { buckets: { created: number }[] };
    const year = (q: string) => lib.json<Timeline>('GET', `/v1/groups/timeline?granularity=yearly&columns=1&${q}`);
    expect((await year(`Tags=${t1}`)).body.buckets[0].created).toBe(2);
    expect((await year('Name=%22f-alpha%22')).body.buckets[0].created).toBe(1);
    expect((await year(`MetaQuery=${encodeURIComponent('parent.region:north')}`)).body.buckets[0].created).toBe(1);
  });

  it('answers a 400 with the position for an invalid MRQL filter (the filter itself: mrql-http.test.ts)', async () => {
    const r = await lib.json<{ error: string; position: number }>('GET', '/v1/groups?MRQL=type%3Dgroup');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'the type field is implied by the page and cannot be used in a filter expression', position: 0, length: 4 });
  });
});

describe('groups: single read truncation', () => {
  it('truncates owned and related resources to 5 and other collections to 50', async () => {
    const g = await group({ Name: 'big' });
    const files = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(async (i) => ({ name: `r${i}.png`, data: await png(16, 16, 10 + i), type: 'image/png' })));
    expect((await upload(lib, files, { OwnerId: g.ID, Groups: [g.ID] })).status).toBe(200);
    for (let i = 0; i < 55; i++) {
      expect((await lib.json('POST', '/v1/note', { Name: `n${i}`, OwnerId: g.ID })).status).toBe(200);
      await group({ Name: `sub${i}`, OwnerId: g.ID });
    }
    const r = await lib.json<Group & { RelatedResources: unknown[] }>('GET', `/v1/group?id=${g.ID}`);
    expect(r.body.OwnResources).toHaveLength(5);
    expect(r.body.RelatedResources).toHaveLength(5);
    expect(r.body.OwnNotes).toHaveLength(50);
    expect(r.body.OwnGroups).toHaveLength(50);
  });
});

describe('groups: clone, merge, bulk, delete', () => {
  it('clones a related group with its associations and relations in both directions', async () => {
    const t = await tag('clone-tag');
    const loc = await group({ Name: 'Home', CategoryId: location });
    const p = await group({ Name: 'Bob', CategoryId: person, Tags: [t], Groups: [loc.ID], Meta: '{"k":1}', URL: 'https://bob.example/' });
    const other = await group({ Name: 'Carol', CategoryId: person });
    const knows = (await lib.json<{ ID: number }>('POST', '/v1/relationType', { Name: 'knows', FromCategory: person, ToCategory: person })).body.ID;
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: p.ID, ToGroupId: loc.ID, GroupRelationTypeId: await relationType('Address'), Name: 'lives' })).status).toBe(200);
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: other.ID, ToGroupId: p.ID, GroupRelationTypeId: knows, Name: 'visits' })).status).toBe(200);

    const r = await lib.json<Group>('POST', '/v1/group/clone', { ID: p.ID });
    expect(r.status).toBe(200);
    const clone = r.body;
    expect(clone.ID).not.toBe(p.ID);
    expect(clone).toMatchObject({ Name: 'Bob', CategoryId: person, Meta: { k: 1 }, URL: 'https://bob.example/' });
    expect(clone.Tags.map((x) => x.Name)).toEqual(['clone-tag']);
    expect(clone.RelatedGroups!.map((x) => x.Name)).toEqual(['Home']);
    const relations = (await lib.json<{ Relationships: { Name: string; ToGroupId: number }[]; BackRelations: { Name: string; FromGroupId: number }[] }>('GET', `/v1/group?id=${clone.ID}`)).body;
    expect(relations.Relationships.map((x) => ({ name: x.Name, to: x.ToGroupId }))).toEqual([{ name: 'lives', to: loc.ID }]);
    expect(relations.BackRelations.map((x) => ({ name: x.Name, from: x.FromGroupId }))).toEqual([{ name: 'visits', from: other.ID }]);
    expect((await lib.json('POST', '/v1/group/clone', { ID: 99999 })).status).toBe(404);
  });

  it('merges losers into the winner, combining every relationship', async () => {
    const t1 = await tag('m1');
    const t2 = await tag('m2');
    const winner = await group({ Name: 'winner', Tags: [t1], Meta: '{"a":1}' });
    const loser = await group({ Name: 'loser', Tags: [t1, t2], Meta: '{"a":2,"b":3}' });
    const child = await group({ Name: 'loser-child', OwnerId: loser.ID });
    const fan = await group({ Name: 'fan', Groups: [loser.ID] });
    const res = await lib.json('POST', '/v1/groups/merge', { Winner: winner.ID, Losers: [loser.ID] });
    expect(res.body).toEqual({ ok: true });
    const w = await lib.json<Group>('GET', `/v1/group?id=${winner.ID}`);
    expect(w.body.Tags.map((x) => x.Name).sort()).toEqual(['m1', 'm2']);
    expect(w.body.Meta).toEqual({ a: 1, b: 3 });
    expect(w.body.OwnGroups!.map((x) => x.ID)).toEqual([child.ID]);
    const f = await lib.json<Group>('GET', `/v1/group?id=${fan.ID}`);
    expect(f.body.RelatedGroups!.map((x) => x.ID)).toEqual([winner.ID]);
    expect((await lib.json('GET', `/v1/group?id=${loser.ID}`)).status).toBe(404);
    expect((await lib.json('POST', '/v1/groups/merge', { Winner: winner.ID, Losers: [winner.ID] })).status).toBe(400);
    const html = await lib.form('/v1/groups/merge', [['Winner', winner.ID], ['Losers', fan.ID]], { accept: 'text/html' });
    expect(html.headers.get('location')).toBe(`/group?id=${winner.ID}`);
  });

  it('adds and removes tags, merges meta and deletes in bulk', async () => {
    const t = await tag('bulk-tag');
    const g1 = await group({ Name: 'bulk-1', Meta: '{"keep":1}' });
    const g2 = await group({ Name: 'bulk-2' });
    expect((await lib.json('POST', '/v1/groups/addTags', { ID: [g1.ID, g2.ID], EditedId: [t] })).body).toEqual({ ok: true });
    expect(await names(`Tags=${t}`)).toEqual(['bulk-1', 'bulk-2']);
    await lib.json('POST', '/v1/groups/removeTags', { ID: [g1.ID], EditedId: [t] });
    expect(await names(`Tags=${t}`)).toEqual(['bulk-2']);
    await lib.json('POST', '/v1/groups/addMeta', { ID: [g1.ID, g2.ID], Meta: '{"added":true}' });
    expect((await lib.json<Group>('GET', `/v1/group?id=${g1.ID}`)).body.Meta).toEqual({ keep: 1, added: true });
    expect((await lib.json('POST', '/v1/groups/addMeta', { ID: [g1.ID], Meta: 'nope' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/groups/delete', { ID: [g1.ID, 99999] })).status).toBe(404);
    expect(await names('Name=bulk-')).toEqual(['bulk-1', 'bulk-2']);
    expect((await lib.json('POST', '/v1/groups/delete', { ID: [g1.ID, g2.ID] })).body).toEqual({ ok: true });
    expect(await names('Name=bulk-')).toEqual([]);
  });

  it('deletes a group, releasing what it owned, and refuses a user scope group with 409', async () => {
    const g = await group({ Name: 'to-delete' });
    const kid = await group({ Name: 'orphan-to-be', OwnerId: g.ID });
    const r = await lib.json('POST', `/v1/group/delete?Id=${g.ID}`);
    expect(r.body).toEqual({ id: g.ID });
    expect((await lib.json<Group>('GET', `/v1/group?id=${kid.ID}`)).body.OwnerId).toBeNull();

    const scoped = await group({ Name: 'scope-group' });
    const user = await lib.json('POST', '/v1/users', { username: 'scoped', password: 'scoped-password-1', role: 'user', scopeGroupId: scoped.ID });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const refused = await lib.json<{ error: string }>('POST', `/v1/group/delete?Id=${scoped.ID}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("group is assigned as a user scope; reassign or clear that user's scope first");
    expect((await lib.json('POST', '/v1/groups/delete', { ID: [scoped.ID] })).status).toBe(409);
    expect((await lib.json('GET', `/v1/group?id=${scoped.ID}`)).status).toBe(200);
  });

  it('edits name and description inline and logs every write', async () => {
    const g = await group({ Name: 'inline-g' });
    expect((await lib.json('POST', `/v1/group/editName?id=${g.ID}`, { Name: '' })).status).toBe(400);
    expect((await lib.json('POST', `/v1/group/editName?id=${g.ID}`, { Name: 'inline-g2' })).body).toEqual({ ok: true, id: g.ID });
    await lib.json('POST', `/v1/group/editDescription?id=${g.ID}`, { Description: 'words' });
    expect((await lib.json<Group>('GET', `/v1/group?id=${g.ID}`)).body).toMatchObject({ Name: 'inline-g2', Description: 'words' });
    const logs = await lib.json<{ logs: { action: string }[] }>('GET', `/v1/logs/entity?entityType=group&entityId=${g.ID}`);
    expect(logs.body.logs.map((l) => l.action)).toEqual(['update', 'update', 'create']);
  });
});

describe('group pages', () => {
  it('renders list, detail with breadcrumb, forms and tree, as HTML and JSON', async () => {
    const top = await group({ Name: 'page-top' });
    const mid = await group({ Name: 'page-mid', OwnerId: top.ID });
    const leaf = await group({ Name: 'page-leaf <b>', OwnerId: mid.ID });
    const list = await (await lib.fetch('/groups?Name=page-', { headers: { accept: 'text/html' } })).text();
    expect(list).toContain('page-mid');
    expect(list).toContain('page-leaf &#60;b&#62;');
    const detail = await (await lib.fetch(`/group?id=${leaf.ID}`)).text();
    expect(detail.indexOf('page-top')).toBeLessThan(detail.indexOf('page-mid'));
    expect(detail).toContain('class="breadcrumb"');
    const json = await lib.json<{ group: { Name: string }; mainEntityType: string }>('GET', `/group.json?id=${mid.ID}`);
    expect(json.body).toMatchObject({ group: { Name: 'page-mid' }, mainEntityType: 'group' });
    for (const path of ['/group/new', `/group/edit?id=${mid.ID}`, '/group/tree', `/group/tree?containing=${leaf.ID}`, `/group/tree?root=${top.ID}`]) {
      expect((await lib.fetch(path)).status, path).toBe(200);
    }
    expect((await lib.fetch('/group?id=999999')).status).toBe(404);
  });
});
