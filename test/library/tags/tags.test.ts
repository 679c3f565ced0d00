import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, postMultipart } from '../../helpers/resources.js';

type Tag = { ID: number; Name: string; Description: string; CreatedAt: string; UpdatedAt: string; Meta: Record<string, unknown> };

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

async function createTag(name: string, description = ''): Promise<Tag> {
  const r = await lib.json<Tag>('POST', '/v1/tag', { Name: name, Description: description });
  expect(r.status).toBe(200);
  return r.body;
}

describe('tags', () => {
  it('creates a tag with capitalised fields and logs it', async () => {
    const tag = await createTag('alpha', 'first letter');
    expect(tag).toMatchObject({ Name: 'alpha', Description: 'first letter', Meta: {} });
    expect(typeof tag.ID).toBe('number');
    expect(tag.CreatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const logs = await lib.json<{ logs: { action: string; entityId: number; entityType: string }[] }>('GET', `/v1/logs/entity?entityType=tag&entityId=${tag.ID}`);
    expect(logs.body.logs).toEqual([expect.objectContaining({ action: 'create', entityType: 'tag', entityId: tag.ID })]);
  });

  it('returns the existing tag when a JSON create repeats a name, but refuses it from a form', async () => {
    const first = await createTag('dupe');
    const again = await lib.json<Tag>('POST', '/v1/tag', { Name: 'dupe' });
    expect(again.status).toBe(200);
    expect(again.body.ID).toBe(first.ID);
    const viaForm = await lib.form('/v1/tag', [['Name', 'dupe'], ['_form', '/tag/new']], { accept: 'text/html' });
    expect(viaForm.status).toBe(302);
    const location = viaForm.headers.get('location')!;
    expect(location.startsWith('/tag/new?')).toBe(true);
    expect(new URL(location, 'http://x').searchParams.get('error')).toBe('a tag named "dupe" already exists');
    expect(new URL(location, 'http://x').searchParams.get('Name')).toBe('dupe');
  });

  it('accepts form-encoded and multipart bodies, and parameter names in any case', async () => {
    const form = await lib.form('/v1/tag', [['name', 'from-form'], ['description', 'x']], { accept: 'application/json' });
    expect(form.status).toBe(200);
    expect(((await form.json()) as Tag).Name).toBe('from-form');
    const fd = new FormData();
    fd.append('Name', 'from-multipart');
    const mp = await lib.fetch('/v1/tag', { method: 'POST', body: fd, headers: { accept: 'application/json' } });
    expect(mp.status).toBe(200);
    expect(((await mp.json()) as Tag).Name).toBe('from-multipart');
  });

  it('updates partially: an omitted Description is kept', async () => {
    const t = await createTag('keep-desc', 'kept');
    const r = await lib.json<Tag>('POST', '/v1/tag', { ID: t.ID, Name: 'keep-desc-renamed' });
    expect(r.body).toMatchObject({ ID: t.ID, Name: 'keep-desc-renamed', Description: 'kept' });
  });

  it('rejects bad names with 400 and changes nothing', async () => {
    for (const name of ['', '   ', 'a\nb', 'x'.repeat(1001), 'evil\u202e']) {
      const r = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: name });
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    const bad = await lib.json('POST', '/v1/tag', { ID: 'abc', Name: 'x' });
    expect(bad.status).toBe(400);
    const missing = await lib.json('POST', '/v1/tag', { ID: 999999, Name: 'x' });
    expect(missing.status).toBe(404);
  });

  it('answers 303 to the tag page for browsers and honours redirect=', async () => {
    const html = await lib.form('/v1/tag', [['Name', 'browser-made']], { accept: 'text/html' });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toMatch(/^\/tag\?id=\d+$/);
    const redirected = await lib.form('/v1/tag?redirect=/tags%3Fx%3D1', [['Name', 'redirected']], { accept: 'application/json' });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toBe('/tags?x=1');
    for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil', 'relative']) {
      const r = await lib.form(`/v1/tag?redirect=${encodeURIComponent(target)}`, [['Name', `never-${target}`]]);
      expect(r.status).toBe(400);
    }
    const list = await lib.json<Tag[]>('GET', '/v1/tags?Name=never-');
    expect(list.body).toEqual([]);
  });

  it('lists with X-Total-Count, pagination headers, filters and SortBy', async () => {
    for (const n of ['sort-b', 'sort-a', 'sort-c']) await createTag(n, n === 'sort-a' ? 'Needle here' : '');
    const r = await lib.fetch('/v1/tags?Name=SORT-&SortBy=name%20desc');
    expect(r.headers.get('x-page')).toBe('1');
    expect(r.headers.get('x-per-page')).toBe('50');
    expect(r.headers.get('x-total-count')).toBe('3');
    const names = ((await r.json()) as Tag[]).map((t) => t.Name);
    expect(names).toEqual(['sort-c', 'sort-b', 'sort-a']);
    const asc = await lib.json<Tag[]>('GET', '/v1/tags?Name=sort-&SortBy=name');
    expect(asc.body.map((t) => t.Name)).toEqual(['sort-a', 'sort-b', 'sort-c']);
    const desc = await lib.json<Tag[]>('GET', '/v1/tags?Description=needle');
    expect(desc.body.map((t) => t.Name)).toEqual(['sort-a']);
    const suggest = await lib.fetch('/v1/tags/suggest?Name=sort-');
    expect(suggest.headers.get('x-total-count')).toBeNull();
    expect(suggest.headers.get('x-page')).toBe('1');
    expect(((await suggest.json()) as Tag[]).length).toBe(3);
  });

  it('treats LIKE wildcards in Name literally', async () => {
    await createTag('100%_done');
    await createTag('100x_done');
    const r = await lib.json<Tag[]>('GET', `/v1/tags?Name=${encodeURIComponent('100%_')}`);
    expect(r.body.map((t) => t.Name)).toEqual(['100%_done']);
  });

  it('pages at 50 rows', async () => {
    for (let i = 0; i < 55; i++) await createTag(`page-${String(i).padStart(2, '0')}`);
    const p1 = await lib.json<Tag[]>('GET', '/v1/tags?Name=page-&SortBy=name');
    const p2 = await lib.json<Tag[]>('GET', '/v1/tags?Name=page-&SortBy=name&page=2');
    expect(p1.body.length).toBe(50);
    expect(p2.body.length).toBe(5);
    expect(p2.headers.get('x-page')).toBe('2');
    expect(p2.body[0].Name).toBe('page-50');
    expect((await lib.json('GET', '/v1/tags?page=0')).status).toBe(400);
  });

  it('validates SortBy with the contract pattern, including meta expressions', async () => {
    await lib.json('POST', '/v1/tag', { Name: 'meta-2', Meta: '{"rank": 2}' });
    await lib.json('POST', '/v1/tag', { Name: 'meta-1', Meta: '{"rank": 1}' });
    const byMeta = await lib.json<Tag[]>('GET', `/v1/tags?Name=meta-&SortBy=${encodeURIComponent("meta->>'rank' asc")}`);
    expect(byMeta.status).toBe(200);
    expect(byMeta.body.map((t) => t.Name)).toEqual(['meta-1', 'meta-2']);
    const repeated = await lib.json<Tag[]>('GET', `/v1/tags?Name=meta-&SortBy=description&SortBy=${encodeURIComponent('name desc')}`);
    expect(repeated.body.map((t) => t.Name)).toEqual(['meta-2', 'meta-1']);
    for (const bad of ['name; drop table tags', 'Name', 'name sideways', "meta->>'Rank'", 'no_such_column', "meta->>'a' asc desc"]) {
      const r = await lib.json<{ error: string }>('GET', `/v1/tags?SortBy=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toContain('SortBy');
    }
  });

  it('filters by creation date bounds and rejects bad dates', async () => {
    const future = await lib.json<Tag[]>('GET', '/v1/tags?CreatedAfter=2999-01-01');
    expect(future.body).toEqual([]);
    const all = await lib.json<Tag[]>('GET', '/v1/tags?CreatedBefore=2999-01-01T00:00:00Z&Name=alpha');
    expect(all.body.map((t) => t.Name)).toEqual(['alpha']);
    const past = await lib.json<Tag[]>('GET', '/v1/tags?CreatedBefore=2000-01-01');
    expect(past.body).toEqual([]);
    const bad = await lib.json<{ error: string }>('GET', '/v1/tags?CreatedBefore=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('not a valid date');
  });

  it('edits name and description inline with id in the query', async () => {
    const t = await createTag('inline');
    const r = await lib.json<{ ok: boolean; id: number }>('POST', `/v1/tag/editName?id=${t.ID}`, { Name: 'inline-renamed' });
    expect(r.body).toEqual({ ok: true, id: t.ID });
    const d = await lib.form(`/v1/tag/editDescription?id=${t.ID}`, [['Description', 'new text']], { accept: 'application/json' });
    expect(d.status).toBe(200);
    const list = await lib.json<Tag[]>('GET', '/v1/tags?Name=inline-renamed');
    expect(list.body[0]).toMatchObject({ Name: 'inline-renamed', Description: 'new text' });
    expect((await lib.json('POST', `/v1/tag/editName?id=${t.ID}`, { Name: '' })).status).toBe(400);
    expect((await lib.json('POST', `/v1/tag/editName?id=999999`, { Name: 'x' })).status).toBe(404);
    const logs = await lib.json<{ logs: { action: string }[] }>('GET', `/v1/logs/entity?entityType=tag&entityId=${t.ID}`);
    expect(logs.body.logs.map((l) => l.action).sort()).toEqual(['create', 'update', 'update']);
  });

  it('deletes one tag (Id) and several tags (ID[])', async () => {
    const a = await createTag('del-a');
    const b = await createTag('del-b');
    const c = await createTag('del-c');
    const one = await lib.json<{ ID: number }>('POST', `/v1/tag/delete?Id=${a.ID}`);
    expect(one.body).toEqual({ ID: a.ID });
    const html = await lib.fetch(`/v1/tag/delete?Id=${b.ID}`, { method: 'POST', headers: { accept: 'text/html' } });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe('/tags');
    const many = await lib.form('/v1/tags/delete', [['ID', c.ID]], { accept: 'application/json' });
    expect(await many.json()).toEqual({ ok: true });
    expect((await lib.json<Tag[]>('GET', '/v1/tags?Name=del-')).body).toEqual([]);
    expect((await lib.json('POST', `/v1/tag/delete?Id=${a.ID}`)).status).toBe(404);
    expect((await lib.json('POST', '/v1/tags/delete', { ID: [] })).status).toBe(400);
  });

  it('merges tags, moving every resource, note and group association to the winner', async () => {
    const winner = await createTag('merge-winner');
    const l1 = await createTag('merge-loser-1');
    const l2 = await createTag('merge-loser-2');
    // Fixtures through the API: a group, a note and a resource carrying the losers (and the winner).
    const created = async (path: string, body: unknown) => {
      const r = await lib.json<{ ID: number }>('POST', path, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { id: r.body.ID };
    };
    const g = await created('/v1/group', { Name: 'g', Tags: [l1.ID, l2.ID] });
    const n = await created('/v1/note', { Name: 'n', Tags: [l2.ID] });
    const upload = await postMultipart(lib, '/v1/resource', 'resource', [{ name: 'r.png', type: 'image/png', data: await png(16, 16, 7) }], { Name: 'r', Tags: [l1.ID, winner.ID] });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const r = { id: ((Array.isArray(upload.body) ? upload.body[0] : upload.body) as { ID: number }).ID };
    const db = lib.lib.db;

    const res = await lib.form('/v1/tags/merge', [['Winner', winner.ID], ['Losers', l1.ID], ['Losers', l2.ID]], { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });

    expect(await db.selectFrom('resource_tags').selectAll().where('resource_id', '=', r.id).execute()).toEqual([{ resource_id: r.id, tag_id: winner.ID }]);
    expect(await db.selectFrom('note_tags').selectAll().where('note_id', '=', n.id).execute()).toEqual([{ note_id: n.id, tag_id: winner.ID }]);
    expect(await db.selectFrom('group_tags').selectAll().where('group_id', '=', g.id).execute()).toEqual([{ group_id: g.id, tag_id: winner.ID }]);
    expect((await lib.json<Tag[]>('GET', '/v1/tags?Name=merge-loser')).body).toEqual([]);

    expect((await lib.json('POST', '/v1/tags/merge', { Winner: winner.ID, Losers: [winner.ID] })).status).toBe(400);
    expect((await lib.json('POST', '/v1/tags/merge', { Winner: winner.ID, Losers: [987654] })).status).toBe(404);
    expect((await lib.json('POST', '/v1/tags/merge', { Winner: 987654, Losers: [winner.ID] })).status).toBe(404);
  });

  it('sorts by usage counts', async () => {
    const r = await lib.json<Tag[]>('GET', '/v1/tags?SortBy=most_used_resource%20desc');
    expect(r.status).toBe(200);
    expect(r.body[0].Name).toBe('merge-winner');
  });

  it('answers a timeline with buckets and hasMore', async () => {
    const r = await lib.json<{ buckets: { label: string; created: number; updated: number; start: string; end: string }[]; hasMore: { left: boolean; right: boolean } }>(
      'GET',
      '/v1/tags/timeline?granularity=yearly&columns=3&Name=alpha',
    );
    expect(r.status).toBe(200);
    expect(r.body.buckets).toHaveLength(3);
    const year = String(new Date().getUTCFullYear());
    expect(r.body.buckets[2]).toMatchObject({ label: year, created: 1, start: `${year}-01-01T00:00:00Z` });
    expect(r.body.hasMore).toEqual({ left: true, right: false });
  });
});
