// GET /clips and GET /clips/hidden-info: paging, filters, search, scope, expiry, hidden tags
// (§15.5, §15.6, §3.5, §3.7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, ids, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

type Page = { clips: ClipJson[]; total: number; limit: number; offset: number };

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const list = (query = '', key = f.KV) => t.req<Page>(key, 'GET', `/clips${query}`);

describe('listing', () => {
  it('lists newest first with paging echoed and tag objects with counts', async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual([3, 2, 1]);
    expect(r.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(r.body.clips[2].tags).toEqual([{ id: 2, name: 'work/client1', color: '#78716C', count: 1 }]);
  });

  it('filters by archived state and rejects other values', async () => {
    expect(ids(await list('?archived=true'))).toEqual([3]);
    expect(ids(await list('?archived=false'))).toEqual([2, 1]);
    expect((await list('?archived=yes')).status).toBe(400);
  });

  it('pages with limit and offset, clamps limit to 200 and rejects bad values', async () => {
    const page = await list('?limit=1&offset=1');
    expect(ids(page)).toEqual([2]);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect((await list('?limit=500')).body.limit).toBe(200);
    expect((await list('?limit=0')).body).toEqual({ error: 'invalid limit' });
    expect((await list('?limit=abc')).status).toBe(400);
    expect((await list('?offset=-1')).body).toEqual({ error: 'invalid offset' });
    const beyond = await list('?offset=10');
    expect(beyond.body).toMatchObject({ clips: [], total: 3 });
  });

  it('filters by exact content type, case-insensitively', async () => {
    expect(ids(await list('?content_type=image/png'))).toEqual([2]);
    expect(ids(await list('?content_type=IMAGE/PNG'))).toEqual([2]);
    expect(ids(await list('?content_type=image'))).toEqual([]);
  });

  it('searches filenames and text content literally, ASCII case-insensitively', async () => {
    expect(ids(await list('?search=HELLO'))).toEqual([1]);
    expect(ids(await list('?search=shot'))).toEqual([2]);
    expect(ids(await list('?search=%25'))).toEqual([]);
    expect(ids(await list('?search=_'))).toEqual([]);
    expect(ids(await list('?search='))).toEqual([3, 2, 1]);
  });

  it('does not search binary content', async () => {
    const bin = await t.upload(f.KE, { filename: 'blob.bin', type: 'application/octet-stream', data: Buffer.from([0, 1, 104, 101, 108, 108, 111, 0]) });
    expect(ids(await list('?search=hello'))).toEqual([1]);
    await t.req(f.KE, 'DELETE', `/clips/${bin.body.id}`);
  });

  it('filters by tag subtrees, AND-ed across repeats', async () => {
    expect(ids(await list('?tag=1'))).toEqual([1]);
    expect(ids(await list('?tag=2'))).toEqual([1]);
    expect(ids(await list('?tag=3'))).toEqual([]);
    expect(ids(await list('?tag=999'))).toEqual([]);
    expect((await list('?tag=x')).body).toEqual({ error: 'invalid tag id' });
    expect(ids(await list('?tag=1&tag=4'))).toEqual([]);
    await t.req(f.KE, 'PUT', '/clips/1/tags/4');
    expect(ids(await list('?tag=1&tag=4'))).toEqual([1]);
    await t.req(f.KE, 'DELETE', '/clips/1/tags/4');
  });

  it('shows scoped keys only their subtree; another tag gives an empty page', async () => {
    const mine = await list('', f.KSE);
    expect(ids(mine)).toEqual([1]);
    expect(mine.body.total).toBe(1);
    expect((await list('?tag=4', f.KSE)).body).toEqual({ clips: [], total: 0, limit: 50, offset: 0 });
    expect(ids(await list('', f.KSV))).toEqual([2]);
  });

  it('hides an expired clip from every read before the cleanup job runs', async () => {
    const c = await t.upload(f.KE, { filename: 'soon.txt', data: 'expires soon' });
    await t.req(f.KE, 'PUT', `/clips/${c.body.id}/expiration`, { minutes: 1 });
    await t.req(f.KE, 'PUT', `/clips/${c.body.id}/tags/2`);
    const before = await list();
    expect(ids(before)).toContain(c.body.id);
    const tagTotal = (await list('?tag=2')).body.total;
    t.clock.advance(61_000);
    const after = await list();
    expect(ids(after)).not.toContain(c.body.id);
    expect(after.body.total).toBe(before.body.total - 1);
    expect((await list('?tag=2')).body.total).toBe(tagTotal - 1);
    expect((await list('?archived=false')).body.total).toBe(2);
    expect((await t.req(f.KV, 'GET', `/clips/${c.body.id}`)).status).toBe(404);
    expect((await t.req<Page>(f.KV, 'GET', '/tags')).status).toBe(200);
    await t.svc.cleanup.runOnce();
  });
});

describe('hidden tags', () => {
  it('drops clips carrying a hidden tag or a descendant of one', async () => {
    const r = await list('?hidden=4');
    expect(ids(r)).toEqual([3, 1]);
    expect(r.body.total).toBe(2);
    expect(ids(await list('?hidden=1'))).toEqual([3, 2]);
  });

  it('lets an explicit filter win over hiding, including the filter\'s ancestors', async () => {
    expect(ids(await list('?tag=4&hidden=4'))).toEqual([2]);
    expect(ids(await list('?tag=2&hidden=1'))).toEqual([1]);
  });

  it('hides a clip whose hidden tag sits beside a visible one', async () => {
    await t.req(f.KE, 'PUT', '/clips/2/tags/3');
    expect(ids(await list('?hidden=4'))).toEqual([3, 1]);
    await t.req(f.KE, 'DELETE', '/clips/2/tags/3');
  });

  it('accepts repeated and comma-separated ids and rejects others', async () => {
    expect((await list('?hidden=x')).body).toEqual({ error: 'invalid hidden tag id' });
    expect(ids(await list('?hidden=4,1'))).toEqual([3]);
    expect(ids(await list('?hidden=4&hidden=1'))).toEqual([3]);
    expect(ids(await list('?hidden=999'))).toEqual([3, 2, 1]);
  });

  it('reports what hiding withheld', async () => {
    const info = (q: string, key = f.KV) => t.req(key, 'GET', `/clips/hidden-info${q}`);
    expect((await info('?hidden=4')).body).toEqual({ count: 1, tags: ['personal'] });
    expect((await info('?tag=1&hidden=2')).body).toEqual({ count: 0, tags: [] });
    expect((await info('')).body).toEqual({ count: 0, tags: [] });
    expect((await info('?hidden=1,4&archived=false')).body).toEqual({ count: 2, tags: ['personal', 'work/client1'] });
    expect((await info('?tag=2&hidden=2', f.KSV)).body).toEqual({ count: 0, tags: [] });
    expect((await info('?hidden=x')).status).toBe(400);
  });

  it('stores the hidden list as a client preference that is never applied implicitly', async () => {
    expect((await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [4] })).status).toBe(204);
    expect((await t.req(f.KV, 'GET', '/tags/hidden')).body).toEqual({ ids: [4] });
    expect(ids(await list())).toEqual([3, 2, 1]);
    expect((await t.req(f.KSE, 'GET', '/tags/hidden')).body).toEqual({ ids: [4] });
  });

  it('validates the hidden list and removes duplicates', async () => {
    expect((await t.req(f.KE, 'PUT', '/tags/hidden', { ids: [4] })).status).toBe(403);
    expect((await t.req(f.KA, 'PUT', '/tags/hidden', { ids: '4' })).status).toBe(400);
    expect((await t.req(f.KA, 'PUT', '/tags/hidden', {})).status).toBe(400);
    expect((await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [0] })).status).toBe(400);
    expect((await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [4, 4, 1] })).status).toBe(204);
    expect((await t.req(f.KV, 'GET', '/tags/hidden')).body).toEqual({ ids: [4, 1] });
    await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [] });
  });

  it('drops a deleted tag from the hidden list', async () => {
    const tag = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: 'gone-soon' })).body;
    await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [tag.id, 4] });
    await t.req(f.KA, 'DELETE', `/tags/${tag.id}`);
    expect((await t.req(f.KV, 'GET', '/tags/hidden')).body).toEqual({ ids: [4] });
    await t.req(f.KA, 'PUT', '/tags/hidden', { ids: [] });
  });
});

// The filters and totals read trigger-kept structures (clip_tree, tag_stats, clip_search);
// these writes change what lies under a tag or what a search finds. Last: it deletes tag 1.
describe('filters after tag moves, new parents, deletes and content changes', () => {
  const total = async (query: string) => (await list(query)).body.total;
  const countOf = async (id: number) => (await t.req<{ id: number; count: number }[]>(f.KV, 'GET', '/tags')).body.find((x) => x.id === id)?.count;

  it('follows a subtree moved under another tag and back', async () => {
    expect([await total('?tag=1'), await total('?tag=4')]).toEqual([1, 1]);
    expect((await t.req(f.KA, 'PUT', '/tags/4', { name: 'work/personal' })).status).toBe(204);
    expect(ids(await list('?tag=1'))).toEqual([2, 1]);
    expect([await total('?tag=1'), await total('?tag=1&hidden=4'), await total('?hidden=1')]).toEqual([2, 2, 1]);
    await t.req(f.KA, 'PUT', '/tags/4', { name: 'personal' });
    expect([await total('?tag=1'), await total('?tag=4'), await countOf(4)]).toEqual([1, 1, 1]);
  });

  it('keeps orphaned children after a delete and gathers them under a recreated parent', async () => {
    await t.req(f.KA, 'DELETE', '/tags/1');
    expect([await total('?tag=1'), await total('?tag=2'), await countOf(2)]).toEqual([0, 1, 1]);
    const work = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: 'work' })).body;
    expect(ids(await list(`?tag=${work.id}`))).toEqual([1]);
    expect(await total(`?tag=${work.id}`)).toBe(1);
    await t.req(f.KE, 'DELETE', '/clips/1/tags/2');
    expect([await total(`?tag=${work.id}`), await countOf(2)]).toEqual([0, 0]);
    await t.req(f.KE, 'PUT', '/clips/1/tags/2');
  });

  it('searches renamed and deleted clips, folding ASCII case only', async () => {
    const c = await t.upload(f.KE, { filename: 'École Minutes.txt', data: 'quarterly figures' });
    expect(ids(await list('?search=minutes'))).toEqual([c.body.id]);
    expect(ids(await list('?search=QUARTERLY'))).toEqual([c.body.id]);
    expect(ids(await list('?search=École'))).toEqual([c.body.id]);
    expect(ids(await list('?search=école'))).toEqual([]);
    await t.req(f.KE, 'PATCH', `/clips/${c.body.id}`, { filename: 'agenda.txt' });
    expect([await total('?search=minutes'), await total('?search=agenda')]).toEqual([0, 1]);
    await t.req(f.KE, 'DELETE', `/clips/${c.body.id}`);
    expect(await total('?search=quarterly')).toBe(0);
  });
});
