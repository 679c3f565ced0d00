import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type RType = { ID: number; Name: string; FromCategoryId: number; ToCategoryId: number; BackRelationId: number | null; BackRelation: RType | null; FromCategory: { Name: string } | null };
type Relation = { Id: number; FromGroupId: number; ToGroupId: number; GroupRelationTypeId: number; Name: string; Description: string; RelationType: RType | null };

let lib: TestLibrary;
const cat: Record<string, number> = {};
beforeAll(async () => {
  lib = await startTestLibrary();
  for (const c of (await lib.json<{ ID: number; Name: string }[]>('GET', '/v1/categories')).body) cat[c.Name] = c.ID;
});
afterAll(async () => lib?.close());

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await lib.json<T>(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function group(name: string, category?: number): Promise<number> {
  return (await ok<{ ID: number }>('POST', '/v1/group', { Name: name, CategoryId: category })).ID;
}

/** Relations listed by the relations page (JSON form), every page of it. */
async function listed(query = ''): Promise<Relation[]> {
  const all: Relation[] = [];
  for (let page = 1; ; page++) {
    const rows = (await ok<{ relations: Relation[] }>('GET', `/relations.json?page=${page}${query}`)).relations;
    all.push(...rows);
    if (rows.length === 0) return all;
  }
}

async function relationCount(): Promise<number> {
  return (await listed()).length;
}

describe('relation types', () => {
  it('creates a type with a reverse name, linking both ways', async () => {
    const t = await ok<RType>('POST', '/v1/relationType', { Name: 'parent of', ReverseName: 'child of', FromCategory: cat.Person, ToCategory: cat.Person, Description: 'family' });
    expect(t).toMatchObject({ Name: 'parent of', FromCategoryId: cat.Person, ToCategoryId: cat.Person });
    expect(t.BackRelation?.Name).toBe('child of');
    const back = await ok<RType>('GET', `/v1/relationType?id=${t.BackRelationId}`);
    expect(back.BackRelationId).toBe(t.ID);

    const works = await ok<RType>('POST', '/v1/relationType', { Name: 'works at', ReverseName: 'employs', FromCategory: cat.Person, ToCategory: cat.Business });
    const employs = await ok<RType>('GET', `/v1/relationType?id=${works.BackRelationId}`);
    expect(employs).toMatchObject({ Name: 'employs', FromCategoryId: cat.Business, ToCategoryId: cat.Person, BackRelationId: works.ID });
  });

  it('links an existing type instead of creating a second one', async () => {
    const lives = await ok<RType>('POST', '/v1/relationType', { Name: 'lives at', FromCategory: cat.Person, ToCategory: cat.Location });
    expect(lives.BackRelationId).toBeNull();
    const home = await ok<RType>('POST', '/v1/relationType', { Name: 'home of', ReverseName: 'lives at', FromCategory: cat.Location, ToCategory: cat.Person });
    expect(home.BackRelationId).toBe(lives.ID);
    expect((await ok<RType>('GET', `/v1/relationType?id=${lives.ID}`)).BackRelationId).toBe(home.ID);
  });

  it('makes a type its own reverse only between equal categories', async () => {
    const friend = await ok<RType>('POST', '/v1/relationType', { Name: 'friend of', ReverseName: 'friend of', FromCategory: cat.Person, ToCategory: cat.Person });
    expect(friend.BackRelationId).toBe(friend.ID);
    const bad = await lib.json<{ error: string }>('POST', '/v1/relationType', { Name: 'near', ReverseName: 'near', FromCategory: cat.Person, ToCategory: cat.Location });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('same category');
    expect((await lib.json<RType[]>('GET', '/v1/relationTypes?Name=near')).body).toEqual([]);
  });

  it('refuses a missing name, a missing or unknown category and a duplicate', async () => {
    expect((await lib.json('POST', '/v1/relationType', { FromCategory: cat.Person, ToCategory: cat.Person })).status).toBe(400);
    expect((await lib.json('POST', '/v1/relationType', { Name: 'x', ToCategory: cat.Person })).status).toBe(400);
    expect((await lib.json('POST', '/v1/relationType', { Name: 'x', FromCategory: 99999, ToCategory: cat.Person })).status).toBe(404);
    expect((await lib.json('POST', '/v1/relationType', { Name: 'parent of', FromCategory: cat.Person, ToCategory: cat.Person })).status).toBe(409);
  });

  it('lists with category filters and the types that fit a group', async () => {
    const person = await group('Filter Person', cat.Person);
    const names = async (q: string) => (await ok<RType[]>('GET', `/v1/relationTypes?${q}`)).map((t) => t.Name).sort();
    expect(await names(`FromCategory=${cat.Business}`)).toEqual(['employs']);
    expect(await names(`ToCategory=${cat.Business}`)).toEqual(['Employer', 'works at']);
    expect(await names(`ForToGroup=${person}&FromCategory=${cat.Location}`)).toEqual(['home of']);
    expect(await names(`ForFromGroup=${person}&Name=of`)).toEqual(['child of', 'friend of', 'parent of']);
    const list = await lib.json<RType[]>('GET', '/v1/relationTypes');
    expect(list.headers.get('x-per-page')).toBe('50');
    expect(list.body[0].FromCategory).toBeNull();
    expect(list.body[0].BackRelation).toBeNull();
  });

  it('edits partially, renames the reverse through ReverseName and unlinks with an empty one', async () => {
    const t = await ok<RType>('POST', '/v1/relationType', { Name: 'mentor of', ReverseName: 'mentee of', FromCategory: cat.Person, ToCategory: cat.Person });
    const renamed = await ok<RType>('POST', '/v1/relationType/edit', { Id: t.ID, ReverseName: 'student of' });
    expect(renamed.BackRelation?.Name).toBe('student of');
    expect(renamed.BackRelationId).toBe(t.BackRelationId);
    expect(renamed.Name).toBe('mentor of');
    const unlinked = await ok<RType>('POST', '/v1/relationType/edit', { Id: t.ID, ReverseName: '' });
    expect(unlinked.BackRelationId).toBeNull();
    expect((await ok<RType>('GET', `/v1/relationType?id=${t.BackRelationId}`)).BackRelationId).toBeNull();
    expect((await lib.json('POST', '/v1/relationType/edit', { Id: 99999, Name: 'x' })).status).toBe(404);
  });

  it('edits name and description inline and deletes with {id}', async () => {
    const t = await ok<RType>('POST', '/v1/relationType', { Name: 'temp type', FromCategory: cat.Person, ToCategory: cat.Location });
    expect(await ok('POST', `/v1/relationType/editName?id=${t.ID}`, { Name: 'renamed type' })).toEqual({ ok: true, id: t.ID });
    expect((await lib.json('POST', `/v1/relationType/editName?id=${t.ID}`, { Name: ' ' })).status).toBe(400);
    expect(await ok('POST', `/v1/relationType/editDescription?id=${t.ID}`, { Description: 'd' })).toEqual({ ok: true, id: t.ID });
    expect((await ok<RType>('GET', `/v1/relationType?id=${t.ID}`)).Name).toBe('renamed type');
    expect(await ok('POST', `/v1/relationType/delete?Id=${t.ID}`)).toEqual({ id: t.ID });
    expect((await lib.json('GET', `/v1/relationType?id=${t.ID}`)).status).toBe(404);
  });
});

describe('relations', () => {
  let alice: number;
  let bob: number;
  let acme: number;
  let home: number;
  let parentOf: RType;
  let worksAt: RType;
  beforeAll(async () => {
    alice = await group('Alice', cat.Person);
    bob = await group('Bob', cat.Person);
    acme = await group('Acme', cat.Business);
    home = await group('Home', cat.Location);
    const types = await ok<RType[]>('GET', '/v1/relationTypes?Name=of');
    parentOf = types.find((t) => t.Name === 'parent of')!;
    worksAt = (await ok<RType[]>('GET', '/v1/relationTypes?Name=works')).find((t) => t.Name === 'works at')!;
  });

  it('creates the forward relation and its reverse edge in one request', async () => {
    const before = await relationCount();
    const r = await ok<Relation>('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: bob, GroupRelationTypeId: parentOf.ID, Name: 'since 1990' });
    expect(r).toMatchObject({ FromGroupId: alice, ToGroupId: bob, GroupRelationTypeId: parentOf.ID, Name: 'since 1990' });
    expect(Object.keys(r)).toContain('Id');
    expect(await relationCount()).toBe(before + 2);
    const bobRead = await ok<{ Relationships: Relation[]; BackRelations: Relation[] }>('GET', `/v1/group?id=${bob}`);
    expect(bobRead.Relationships.map((x) => [x.RelationType?.Name, x.ToGroupId])).toEqual([['child of', alice]]);
    expect(bobRead.BackRelations.map((x) => [x.RelationType?.Name, x.FromGroupId])).toEqual([['parent of', alice]]);
  });

  it('refuses a self relation with "cannot relate to self"', async () => {
    const r = await lib.json<{ error: string }>('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: alice, GroupRelationTypeId: parentOf.ID });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('cannot relate to self');
  });

  it('requires categories on both groups', async () => {
    const plain = await group('No category');
    const before = await relationCount();
    const r = await lib.json<{ error: string }>('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: plain, GroupRelationTypeId: parentOf.ID });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('category');
    expect(await relationCount()).toBe(before);
  });

  it('refuses a category mismatch with a message naming both sides', async () => {
    const r = await lib.json<{ error: string }>('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: home, GroupRelationTypeId: worksAt.ID });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"Alice"');
    expect(r.body.error).toContain('"Home"');
    expect(r.body.error).toContain('Business');
  });

  it('refuses a duplicate with 409 and unknown ids with 404', async () => {
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: bob, GroupRelationTypeId: parentOf.ID })).status).toBe(409);
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: 99999, GroupRelationTypeId: parentOf.ID })).status).toBe(404);
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: bob, GroupRelationTypeId: 99999 })).status).toBe(404);
    expect((await lib.json('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: bob })).status).toBe(400);
  });

  it('updates a relation, moving its reverse edge along, and edits inline', async () => {
    const carol = await group('Carol', cat.Person);
    const r = await ok<Relation>('POST', '/v1/relation', { FromGroupId: carol, ToGroupId: alice, GroupRelationTypeId: parentOf.ID });
    const before = await relationCount();
    const moved = await ok<Relation>('POST', '/v1/relation', { Id: r.Id, ToGroupId: bob, Description: 'moved' });
    expect(moved).toMatchObject({ FromGroupId: carol, ToGroupId: bob, Description: 'moved' });
    expect(await relationCount()).toBe(before);
    const aliceRead = await ok<{ Relationships: Relation[] }>('GET', `/v1/group?id=${alice}`);
    expect(aliceRead.Relationships.some((x) => x.ToGroupId === carol)).toBe(false);
    expect(await ok('POST', `/v1/relation/editName?id=${r.Id}`, { Name: 'step' })).toEqual({ ok: true, id: r.Id });
    expect((await lib.json('POST', `/v1/relation/editName?id=${r.Id}`, { Name: '' })).status).toBe(400);
  });

  it('deletes one relation and, with its type, every relation of it', async () => {
    const r = await ok<Relation>('POST', '/v1/relation', { FromGroupId: alice, ToGroupId: acme, GroupRelationTypeId: worksAt.ID });
    expect(await ok('POST', `/v1/relation/delete?Id=${r.Id}`)).toEqual({ id: r.Id });
    expect((await lib.json('POST', `/v1/relation/delete?Id=${r.Id}`)).status).toBe(404);
    await ok('POST', '/v1/relation', { FromGroupId: bob, ToGroupId: acme, GroupRelationTypeId: worksAt.ID });
    await ok('POST', `/v1/relationType/delete?Id=${worksAt.ID}`);
    expect(await listed(`&GroupRelationTypeId=${worksAt.ID}`)).toEqual([]);
    const employs = await ok<RType>('GET', `/v1/relationType?id=${worksAt.BackRelationId}`);
    expect(employs.BackRelationId).toBeNull();
  });

  it('refuses category changes of a type that has relations', async () => {
    const r = await lib.json<{ error: string }>('POST', '/v1/relationType/edit', { Id: parentOf.ID, ToCategory: cat.Location });
    expect(r.status).toBe(409);
  });

  it('answers browsers with 303 and logs relation writes', async () => {
    const res = await lib.form('/v1/relation', [['FromGroupId', bob], ['ToGroupId', alice], ['GroupRelationTypeId', parentOf.BackRelationId!], ['_form', '/relation/new']], { accept: 'text/html' });
    // bob → child of → alice exists already as the reverse edge: refused, back to the form.
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/relation\/new\?.*error=/);
    const created = await lib.form('/v1/relationType', [['Name', 'cousin of'], ['FromCategory', cat.Person], ['ToCategory', cat.Person]], { accept: 'text/html' });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toMatch(/^\/relationType\?id=\d+$/);
    const logs = await ok<{ logs: { entityType: string; action: string }[] }>('GET', '/v1/logs?EntityType=relation&Action=create');
    expect(logs.logs.length).toBeGreaterThan(0);
  });
});

describe('relation pages', () => {
  it('renders lists, details and forms as HTML and JSON', async () => {
    const types = await ok<RType[]>('GET', '/v1/relationTypes');
    const t = types[0];
    for (const path of ['/relationType/new', `/relationType/edit?id=${t.ID}`, '/relation/new?FromGroupId=1']) {
      const res = await lib.fetch(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('<form method="post"');
    }
    expect(await (await lib.fetch('/relationTypes')).text()).toContain('data-testid="relation-type-list"');
    expect(await (await lib.fetch(`/relationType?id=${t.ID}`)).text()).toContain(t.Name);
    const alice = (await ok<{ ID: number }[]>('GET', '/v1/groups?Name=%22Alice%22'))[0].ID;
    expect(await (await lib.fetch(`/relation/new?FromGroupId=${alice}`)).text()).toContain('&#34;name&#34;:&#34;Alice&#34;');
    const list = await ok<{ relations: Relation[] }>('GET', '/relations.json');
    expect(list.relations.length).toBeGreaterThan(0);
    const detail = await lib.fetch(`/relation?id=${list.relations[0].Id}`);
    expect(detail.status).toBe(200);
    const typeJson = await ok<{ relationType: RType; mainEntityType: string }>('GET', `/relationType.json?id=${t.ID}`);
    expect(typeJson.mainEntityType).toBe('relationType');
  });
});
