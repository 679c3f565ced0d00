// GET /v1/search (companion §8): every type, full-text kept in sync on writes, limit clamping,
// the ceiling and totalCapped, relative URLs and `extra`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { jpeg, upload } from '../../helpers/resources.js';

type Search = { query: string; total: number; totalCapped?: boolean; results: { id: number; type: string; name: string; description: string; score: number; url: string; extra?: Record<string, unknown> }[] };

let t: TestLibrary;
let plain: TestLibrary;
const search = (lib: TestLibrary, qs: string) => lib.json<Search>('GET', `/v1/search?${qs}`);

async function seed(lib: TestLibrary) {
  const created = [
    await upload(lib, [{ name: 'IMG_7.JPG', data: await jpeg(), type: 'image/jpeg' }], { Name: 'harbour sunrise.jpg', Description: 'boats at dawn' }),
    await lib.json('POST', '/v1/note', { Name: 'Harbour plan', Description: 'meeting notes' }),
    await lib.json('POST', '/v1/mrql/saved', { name: 'harbour photos', query: 'type = resource', description: 'all photos' }),
  ];
  expect(created.map((r) => r.status)).toEqual([200, 200, 201]);
  for (let i = 0; i < 60; i++) await lib.json('POST', '/v1/tag', { Name: `many${String(i).padStart(2, '0')}` });
}

beforeAll(async () => {
  t = await startTestLibrary();
  plain = await startTestLibrary(['-skip-fts']);
  await seed(t);
  await seed(plain);
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

describe('global search with the full-text index', () => {
  it('finds every type by prefix, with relative URLs and extra', async () => {
    const r = await search(t, 'q=harb');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('private, max-age=10');
    const byType = Object.fromEntries(r.body.results.map((x) => [x.type, x]));
    expect(byType.resource).toMatchObject({ name: 'harbour sunrise.jpg', url: `/resource?id=${byType.resource.id}`, extra: { contentType: 'image/jpeg' } });
    expect(byType.note.url).toBe(`/note?id=${byType.note.id}`);
    expect(byType.mrqlQuery.url).toBe(`/mrql?saved=${byType.mrqlQuery.id}`);
    expect(r.body.total).toBe(r.body.results.length);
  });

  it('keeps the index in sync with creates, renames and deletes', async () => {
    const g = await t.json<{ ID: number }>('POST', '/v1/group', { Name: 'Lighthouse keepers', Description: 'coastal' });
    const r = await search(t, 'q=lighthouse&types=group');
    expect(r.body.results.map((x) => [x.type, x.id, x.url])).toEqual([['group', g.body.ID, `/group?id=${g.body.ID}`]]);
    await t.json('POST', '/v1/group', { ID: g.body.ID, Name: 'Beacon crew', Description: 'coastal' });
    expect((await search(t, 'q=lighthouse&types=group')).body.results).toEqual([]);
    expect((await search(t, 'q=beacon&types=group')).body.results.length).toBe(1);
    await t.json('POST', `/v1/group/delete?Id=${g.body.ID}`);
    expect((await search(t, 'q=beacon&types=group')).body.results).toEqual([]);
  });

  it('clamps limit to 50, defaults to 20, and reports totalCapped at the ceiling', async () => {
    let r = await search(t, 'q=many&types=tag');
    expect([r.body.results.length, r.body.total, r.body.totalCapped]).toEqual([20, 20, true]);
    r = await search(t, 'q=many&types=tag&limit=500');
    expect([r.body.results.length, r.body.totalCapped]).toEqual([50, true]);
    r = await search(t, 'q=many0&types=tag&limit=30');
    expect([r.body.results.length, r.body.totalCapped]).toEqual([10, undefined]);
  });

  it('exact, quoted, fuzzy and empty queries', async () => {
    expect((await search(t, 'q=')).body).toEqual({ query: '', total: 0, results: [] });
    expect((await search(t, `q=${encodeURIComponent('"harbour"')}&types=note`)).body.results.map((x) => x.name)).toEqual(['Harbour plan']);
    expect((await search(t, 'q=harb&types=note')).body.results.length).toBe(1);
    expect((await search(t, `q=${encodeURIComponent('=harb')}&types=note`)).body.results.length).toBe(0);
    expect((await search(t, `q=${encodeURIComponent('~harbxur')}&types=note`)).body.results.map((x) => x.name)).toEqual(['Harbour plan']);
    expect((await search(t, `q=${encodeURIComponent('!!!')}`)).body.results).toEqual([]);
    const unknown = await search(t, 'q=harbour&types=nonsense');
    expect(unknown.body.results.length).toBeGreaterThan(2);
  });
});

describe('global search without the full-text index (-skip-fts)', () => {
  it('scores LIKE matches by the fixed table', async () => {
    const r = await search(plain, 'q=harbour');
    const scores = Object.fromEntries(r.body.results.map((x) => [x.name, x.score]));
    expect(scores['Harbour plan']).toBe(80);
    expect(scores['harbour sunrise.jpg']).toBe(80);
    expect(scores['harbour photos']).toBe(80);
    const d = await search(plain, 'q=dawn');
    expect(d.body.results.map((x) => [x.name, x.score])).toEqual([['harbour sunrise.jpg', 40]]);
    const o = await search(plain, `q=${encodeURIComponent('IMG_7.JPG')}`);
    expect(o.body.results.map((x) => x.score)).toEqual([90]);
  });
});
