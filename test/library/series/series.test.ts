import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

type Series = { ID: number; Name: string; Slug: string; Meta: Record<string, unknown>; CreatedAt: string };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

type Member = { Meta: Record<string, unknown>; ownMeta: Record<string, unknown>; seriesId: number | null };

describe('series', () => {
  it('creates with a slug defaulting to the trimmed name, and refuses duplicate slugs', async () => {
    const a = await lib.json<Series>('POST', '/v1/series/create', { Name: '  Summer trip  ' });
    expect(a.body).toMatchObject({ Name: 'Summer trip', Slug: 'Summer trip', Meta: {} });
    const b = await lib.json<Series>('POST', '/v1/series/create', { Name: 'Winter', Slug: 'winter-2026' });
    expect(b.body.Slug).toBe('winter-2026');
    expect((await lib.json('POST', '/v1/series/create', { Name: 'Other', Slug: 'winter-2026' })).status).toBe(409);
    expect((await lib.json('POST', '/v1/series/create', {})).status).toBe(400);
    const one = await lib.json<Series>('GET', `/v1/series?id=${a.body.ID}`);
    expect(one.body.Name).toBe('Summer trip');
  });

  it('lists by name and slug with paging headers', async () => {
    const r = await lib.json<Series[]>('GET', '/v1/seriesList?Slug=winter');
    expect(r.body.map((s) => s.Name)).toEqual(['Winter']);
    expect(r.headers.get('x-per-page')).toBe('50');
    expect((await lib.json<Series[]>('GET', '/v1/seriesList?Name=summer&SortBy=slug%20desc')).body).toHaveLength(1);
  });

  it('updates name and shared meta, and members inherit it unless they override', async () => {
    const s = (await lib.json<Series>('POST', '/v1/series/create', { Name: 'Inherit' })).body;
    await lib.json('POST', '/v1/series', { ID: s.ID, Meta: '{"base":"b"}' });
    const up = await upload(lib, [{ name: 'member.png', data: await png(16, 16, 3), type: 'image/png' }], { SeriesId: s.ID, Meta: '{"own":1}' });
    expect(up.status).toBe(200);
    const id = (up.body as { ID: number }[])[0].ID;
    // An explicit null override: the member drops "hidden" whatever the series says.
    expect((await lib.json('POST', `/v1/resource/editMeta?id=${id}`, { path: 'hidden', value: null })).status).toBe(200);
    const member = async () => (await lib.json<Member>('GET', `/v1/resource?id=${id}`)).body;
    expect((await member()).ownMeta).toEqual({ own: 1, hidden: null });

    const upd = await lib.json<Series>('POST', '/v1/series', { ID: s.ID, Meta: '{"artist":"A","hidden":"x"}' });
    expect(upd.body).toMatchObject({ Name: 'Inherit', Meta: { artist: 'A', hidden: 'x' } });
    expect((await member()).Meta).toEqual({ artist: 'A', own: 1 });
    expect((await lib.json('POST', '/v1/series', { ID: s.ID, Meta: '[]' })).status).toBe(400);
    expect((await lib.json('POST', '/v1/series', { Name: 'no id' })).status).toBe(400);

    expect((await lib.json('POST', `/v1/series/delete?Id=${s.ID}`)).body).toEqual({ id: s.ID });
    const after = await member();
    expect(after).toMatchObject({ seriesId: null, ownMeta: {} });
    expect(after.Meta).toEqual({ artist: 'A', own: 1 });
  });

  it('renames inline and redirects browsers after writes', async () => {
    const s = (await lib.json<Series>('POST', '/v1/series/create', { Name: 'Inline' })).body;
    expect((await lib.json('POST', `/v1/series/editName?id=${s.ID}`, { Name: 'Renamed' })).body).toEqual({ ok: true, id: s.ID });
    const html = await lib.form('/v1/series/create', [['Name', 'Browser series']], { accept: 'text/html' });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toMatch(/^\/series\?id=\d+$/);
    const del = await lib.fetch(`/v1/series/delete?Id=${s.ID}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(del.headers.get('location')).toBe('/resources');
  });

  it('renders its pages', async () => {
    const s = (await lib.json<Series>('POST', '/v1/series/create', { Name: 'Paged <em>' })).body;
    for (const path of ['/seriesList', `/series?id=${s.ID}`, '/series/new']) {
      const r = await lib.fetch(path);
      expect(r.status, path).toBe(200);
      expect(await r.text()).not.toContain('<em>');
    }
    expect((await lib.json<{ series: Series }>('GET', `/series.json?id=${s.ID}`)).body.series.Name).toBe('Paged <em>');
  });
});
