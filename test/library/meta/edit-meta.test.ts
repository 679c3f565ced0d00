import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corruptMeta } from '../../helpers/fixtures.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type Meta = Record<string, unknown>;
let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

async function groupWith(meta: Meta, categoryId?: number): Promise<number> {
  const r = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'meta-group', Meta: JSON.stringify(meta), CategoryId: categoryId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID;
}

const metaOf = async (id: number) => (await lib.json<{ Meta: Meta }>('GET', `/v1/group?id=${id}`)).body.Meta;

describe('group editMeta', () => {
  it('sets a nested path, creating objects and keeping siblings, and answers {ok, id, meta}', async () => {
    const id = await groupWith({ name: 'x', address: { city: 'Oslo', zip: '0150' } });
    const r = await lib.json('POST', `/v1/group/editMeta?id=${id}`, { path: 'address.geo.lat', value: '59.9' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, id, meta: { name: 'x', address: { city: 'Oslo', zip: '0150', geo: { lat: 59.9 } } } });
    expect(await metaOf(id)).toEqual({ name: 'x', address: { city: 'Oslo', zip: '0150', geo: { lat: 59.9 } } });
  });

  it('takes a form value as JSON text and replaces a scalar standing in the way', async () => {
    const id = await groupWith({ a: 5, b: true });
    const res = await lib.form(`/v1/group/editMeta?id=${id}`, [['path', 'a.inner'], ['value', '{"deep":[1,"two"]}']], { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(await metaOf(id)).toEqual({ a: { inner: { deep: [1, 'two'] } }, b: true });
    await lib.json('POST', `/v1/group/editMeta?id=${id}`, { path: 'b', value: false });
    expect((await metaOf(id)).b).toBe(false);
  });

  it('answers 400 for a missing id, path or value, bad JSON, empty segments and corrupt meta', async () => {
    const id = await groupWith({ keep: 1 });
    const cases: [string, unknown][] = [
      ['/v1/group/editMeta', { path: 'a', value: '1' }],
      [`/v1/group/editMeta?id=${id}`, { value: '1' }],
      [`/v1/group/editMeta?id=${id}`, { path: 'a' }],
      [`/v1/group/editMeta?id=${id}`, { path: 'a', value: '{nope' }],
      [`/v1/group/editMeta?id=${id}`, { path: 'a..b', value: '1' }],
      [`/v1/group/editMeta?id=${id}`, { path: '.a', value: '1' }],
    ];
    for (const [path, body] of cases) expect((await lib.json('POST', path, body)).status, JSON.stringify(body)).toBe(400);
    expect(await metaOf(id)).toEqual({ keep: 1 });
    const corrupt = await groupWith({});
    await corruptMeta(lib, 'groups', corrupt, '[1,2]');
    expect((await lib.json('POST', `/v1/group/editMeta?id=${corrupt}`, { path: 'a', value: '1' })).status).toBe(400);
  });

  it('answers 404 for a missing group', async () => {
    expect((await lib.json('POST', '/v1/group/editMeta?id=999999', { path: 'a', value: '1' })).status).toBe(404);
  });

  it("validates the result against the category's MetaSchema, changing nothing on failure", async () => {
    const cat = await lib.json<{ ID: number }>('POST', '/v1/category', {
      Name: 'Typed',
      MetaSchema: JSON.stringify({ type: 'object', properties: { age: { type: 'integer' } } }),
    });
    const id = await groupWith({ age: 3 }, cat.body.ID);
    const bad = await lib.json<{ errors: unknown[] }>('POST', `/v1/group/editMeta?id=${id}`, { path: 'age', value: '"old"' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.length).toBeGreaterThan(0);
    expect(await metaOf(id)).toEqual({ age: 3 });
    expect((await lib.json('POST', `/v1/group/editMeta?id=${id}`, { path: 'age', value: '4' })).status).toBe(200);
  });

  it('redirects browsers to the group and logs the change', async () => {
    const id = await groupWith({});
    const res = await lib.form(`/v1/group/editMeta?id=${id}`, [['path', 'k'], ['value', '"v"']], { accept: 'text/html' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/group?id=${id}`);
    const logs = await lib.json<{ logs: { action: string; message: string }[] }>('GET', `/v1/logs/entity?entityType=group&entityId=${id}`);
    expect(logs.body.logs[0]).toMatchObject({ action: 'update', message: 'Set meta k' });
  });
});
