import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type Partial = { ID: number; Name: string; Description: string; Content: string; CreatedAt: string; UpdatedAt: string };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

describe('template partials', () => {
  it('creates, updates through both routes, and lists with capitalised fields', async () => {
    const r = await lib.json<Partial>('POST', '/v1/templatePartial', { name: 'price-tag', description: 'd', content: '<b>[meta path="price"]</b>' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Name: 'price-tag', Description: 'd', Content: '<b>[meta path="price"]</b>' });
    const upd = await lib.json<Partial>('POST', '/v1/templatePartial/edit', { ID: r.body.ID, Name: 'price-label' });
    expect(upd.body).toMatchObject({ Name: 'price-label', Description: 'd', Content: '<b>[meta path="price"]</b>' });
    const viaCreate = await lib.json<Partial>('POST', '/v1/templatePartial', { ID: r.body.ID, Content: 'x' });
    expect(viaCreate.body).toMatchObject({ Name: 'price-label', Content: 'x' });
    const list = await lib.json<Partial[]>('GET', '/v1/templatePartials?Name=price');
    expect(list.body.map((p) => p.Name)).toEqual(['price-label']);
    expect(list.headers.get('x-page')).toBe('1');
  });

  it('validates kebab-case names and uniqueness', async () => {
    for (const bad of ['Price', '1-price', 'price_tag', 'price tag', '-x', '']) {
      const r = await lib.json<{ error: string }>('POST', '/v1/templatePartial', { Name: bad });
      expect(r.status, bad).toBe(400);
      if (bad) expect(r.body.error).toBe('must be kebab-case: lowercase letters, digits, and hyphens, starting with a letter');
    }
    await lib.json('POST', '/v1/templatePartial', { Name: 'unique-one' });
    expect((await lib.json('POST', '/v1/templatePartial', { Name: 'unique-one' })).status).toBe(409);
  });

  it('has editDescription but no editName', async () => {
    const p = (await lib.json<Partial>('POST', '/v1/templatePartial', { Name: 'inline-one' })).body;
    expect((await lib.json('POST', `/v1/templatePartial/editDescription?id=${p.ID}`, { Description: 'new' })).body).toEqual({ ok: true, id: p.ID });
    expect((await lib.json('POST', `/v1/templatePartial/editName?id=${p.ID}`, { Name: 'x' })).status).toBe(404);
  });

  it('deletes with a stub reply and a browser redirect to the list', async () => {
    const p = (await lib.json<Partial>('POST', '/v1/templatePartial', { Name: 'to-delete' })).body;
    expect((await lib.json('POST', `/v1/templatePartial/delete?Id=${p.ID}`)).body).toEqual({ ID: p.ID });
    const q = (await lib.json<Partial>('POST', '/v1/templatePartial', { Name: 'to-delete-2' })).body;
    const html = await lib.fetch(`/v1/templatePartial/delete?Id=${q.ID}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe('/templatePartials');
  });

  it('serves the built-in presets sorted by name', async () => {
    const r = await lib.json<{ name: string; carrier: string; schemaVersion: number; slots: Record<string, string>; metaSchema: string }[]>('GET', '/v1/templatePresets');
    expect(r.body.map((p) => p.name)).toEqual(['contact-card', 'media-collection', 'project-dashboard', 'reading-log']);
    expect(r.body.map((p) => p.carrier)).toEqual(['category', 'resourceCategory', 'category', 'noteType']);
    for (const p of r.body) {
      expect(p.schemaVersion).toBe(1);
      expect(Object.keys(p.slots).length).toBeGreaterThan(0);
      expect(() => JSON.parse(p.metaSchema) as unknown).not.toThrow();
    }
  });

  it('renders its pages', async () => {
    const p = (await lib.json<Partial>('POST', '/v1/templatePartial', { Name: 'page-one', Content: '<script>x</script>' })).body;
    for (const path of ['/templatePartials', `/templatePartial?id=${p.ID}`, '/templatePartial/new', `/templatePartial/edit?id=${p.ID}`]) {
      const r = await lib.fetch(path);
      expect(r.status, path).toBe(200);
      expect(await r.text()).not.toContain('<script>x</script>');
    }
    expect((await lib.json<{ templatePartial: Partial }>('GET', `/templatePartial.json?id=${p.ID}`)).body.templatePartial.Name).toBe('page-one');
  });
});
