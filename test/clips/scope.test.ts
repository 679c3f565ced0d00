// The tag-scope matrix: for every endpoint family, a key scoped to work/client1 meets clips and
// tags inside its scope, in a subtag, on the parent tag, and outside (§6.5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestClips, type ClipJson, type TestClips } from './helper.js';

type Where = 'inside' | 'subtag' | 'parent' | 'outside';
const WHERE: Where[] = ['inside', 'subtag', 'parent', 'outside'];
const ALLOWED: Record<Where, boolean> = { inside: true, subtag: true, parent: false, outside: false };

let t: TestClips;
let KA: string;
/** Scoped to work/client1: viewer, editor, admin. */
let SV: string, SE: string, SA: string;
const tagOf: Record<Where, number> = { inside: 0, subtag: 0, parent: 0, outside: 0 };
let seq = 0;

beforeAll(async () => {
  t = await startTestClips();
  KA = t.admin;
  const make = async (name: string) => (await t.req<{ id: number }>(KA, 'POST', '/tags', { name })).body.id;
  tagOf.parent = await make('work');
  tagOf.inside = await make('work/client1');
  tagOf.subtag = await make('work/client1/sub');
  tagOf.outside = await make('personal');
  SV = await t.key('SV', 'viewer', tagOf.inside);
  SE = await t.key('SE', 'editor', tagOf.inside);
  SA = await t.key('SA', 'admin', tagOf.inside);
});
afterAll(async () => t?.close());

/** A new clip carrying the tag of `where`. */
async function clipAt(where: Where): Promise<number> {
  const c = await t.upload(KA, { filename: `${where}-${++seq}.txt`, type: 'text/plain', data: `${where} clip ${seq}` });
  await t.req(KA, 'PUT', `/clips/${c.body.id}/tags/${tagOf[where]}`);
  return c.body.id;
}

function expectAllowed(where: Where, label: string, status: number, okStatus: number) {
  expect(`${label} on ${where} clip → ${status}`).toBe(`${label} on ${where} clip → ${ALLOWED[where] ? okStatus : 403}`);
}

describe('clips', () => {
  it('reads: get, data, metadata', async () => {
    for (const where of WHERE) {
      const id = await clipAt(where);
      expectAllowed(where, 'GET clip', (await t.req(SV, 'GET', `/clips/${id}`)).status, 200);
      expectAllowed(where, 'GET data', (await t.raw(SV, 'GET', `/clips/${id}/data`)).status, 200);
      expectAllowed(where, 'GET metadata', (await t.req(SV, 'GET', `/clips/${id}/metadata`)).status, 200);
    }
    expect((await t.req(SV, 'GET', '/clips/987654')).status).toBe(403);
  });

  it('writes: rename, archive, expiry, metadata, delete', async () => {
    const ops: [string, string, (id: number) => string, unknown][] = [
      ['PATCH', 'rename', (id) => `/clips/${id}`, { filename: 'renamed.txt' }],
      ['PUT', 'archive', (id) => `/clips/${id}/archive`, undefined],
      ['DELETE', 'unarchive', (id) => `/clips/${id}/archive`, undefined],
      ['PUT', 'expire', (id) => `/clips/${id}/expiration`, { minutes: 60 }],
      ['DELETE', 'cancel expiry', (id) => `/clips/${id}/expiration`, undefined],
      ['PUT', 'replace metadata', (id) => `/clips/${id}/metadata`, { a: 'b' }],
      ['PUT', 'set metadata key', (id) => `/clips/${id}/metadata/k`, { value: 'v' }],
      ['DELETE', 'delete metadata key', (id) => `/clips/${id}/metadata/k`, undefined],
      ['DELETE', 'delete', (id) => `/clips/${id}`, undefined],
    ];
    for (const where of WHERE) {
      const id = await clipAt(where);
      for (const [method, label, path, body] of ops) expectAllowed(where, label, (await t.req(SE, method, path(id), body)).status, 204);
    }
  });

  it('list and hidden-info: the scope subtree only; another tag is empty', async () => {
    const made = Object.fromEntries(await Promise.all(WHERE.map(async (w) => [w, await clipAt(w)] as const))) as Record<Where, number>;
    const seen = (await t.req<{ clips: ClipJson[] }>(SV, 'GET', '/clips?limit=200')).body.clips.map((c) => c.id);
    for (const where of WHERE) expect(`${where} listed: ${seen.includes(made[where])}`).toBe(`${where} listed: ${ALLOWED[where]}`);
    for (const where of WHERE) {
      const r = await t.req<{ clips: ClipJson[]; total: number }>(SV, 'GET', `/clips?tag=${tagOf[where]}`);
      expect(`${where} filter: ${r.body.total > 0}`).toBe(`${where} filter: ${ALLOWED[where]}`);
      const info = await t.req<{ count: number }>(SV, 'GET', `/clips/hidden-info?tag=${tagOf[where]}&hidden=${tagOf[where]}`);
      expect(info.body.count).toBe(0);
    }
    // Without a tag parameter the scope itself is the filter, and a filter outweighs hiding (§3.7).
    expect((await t.req(SV, 'GET', `/clips/hidden-info?hidden=${tagOf.subtag}`)).body).toEqual({ count: 0, tags: [] });
    const filtered = await t.req<{ count: number; tags: string[] }>(SV, 'GET', `/clips/hidden-info?tag=${tagOf.subtag}&hidden=${tagOf.inside}`);
    expect(filtered.body).toEqual({ count: 0, tags: [] });
    const unscoped = await t.req<{ count: number; tags: string[] }>(KA, 'GET', `/clips/hidden-info?hidden=${tagOf.subtag}`);
    expect(unscoped.body.tags).toEqual(['work/client1/sub']);
  });

  it('upload: applies the scope tag to new and duplicate clips', async () => {
    const outsideId = await clipAt('outside');
    const data = (await t.raw(KA, 'GET', `/clips/${outsideId}/data`)).text;
    const dup = await t.upload(SE, { filename: 'dup.txt', data });
    expect([dup.status, dup.body.id]).toEqual([200, outsideId]);
    expect(dup.body.tags.map((x) => x.name)).toEqual(['personal', 'work/client1']);
    const made = await t.upload(SE, { filename: 'new.txt', data: `scoped upload ${Math.random()}` });
    expect(made.body.tags.map((x) => x.name)).toEqual(['work/client1']);
    const sub = await clipAt('subtag');
    const subData = (await t.raw(KA, 'GET', `/clips/${sub}/data`)).text;
    // A clip already under the scope (in a subtag) gets the scope tag in place of its same-tree tag.
    expect((await t.upload(SE, { filename: 'again.txt', data: subData })).body.tags.map((x) => x.name)).toEqual(['work/client1']);
  });
});

describe('clip–tag links', () => {
  it('need both the tag and the clip in scope', async () => {
    for (const clipWhere of WHERE) {
      for (const tagWhere of WHERE) {
        const id = await clipAt(clipWhere);
        const status = (await t.req(SE, 'PUT', `/clips/${id}/tags/${tagOf[tagWhere]}`)).status;
        const ok = ALLOWED[clipWhere] && ALLOWED[tagWhere];
        expect(`PUT tag ${tagWhere} on ${clipWhere} clip → ${status}`).toBe(`PUT tag ${tagWhere} on ${clipWhere} clip → ${ok ? 204 : 403}`);
        const del = (await t.req(SE, 'DELETE', `/clips/${id}/tags/${tagOf[tagWhere]}`)).status;
        expect(`DELETE tag ${tagWhere} on ${clipWhere} clip → ${del}`).toBe(`DELETE tag ${tagWhere} on ${clipWhere} clip → ${ok ? 204 : 403}`);
      }
    }
  });
});

describe('bulk', () => {
  it('every operation is all-or-nothing over the ids', async () => {
    const ops: [string, Record<string, unknown>, string][] = [
      ['archive', {}, 'archived'],
      ['unarchive', {}, 'unarchived'],
      ['expire', { minutes: 60 }, 'updated'],
      ['cancel-expire', {}, 'updated'],
      ['tag', { tag_id: 0 }, 'tagged'],
      ['untag', { tag_id: 0 }, 'untagged'],
      ['delete', {}, 'deleted'],
    ];
    for (const where of WHERE) {
      for (const [name, extra, field] of ops) {
        const inside = await clipAt('inside');
        const other = await clipAt(where);
        const body = { ids: [inside, other], ...extra, ...(extra.tag_id !== undefined ? { tag_id: tagOf.subtag } : {}) };
        const r = await t.req<Record<string, number>>(SE, 'POST', `/clips/bulk/${name}`, body);
        expect(`${name} with ${where} clip → ${r.status}`).toBe(`${name} with ${where} clip → ${ALLOWED[where] ? 200 : 403}`);
        if (ALLOWED[where]) expect(r.body[field]).toBe(2);
        else expect((await t.req<ClipJson>(KA, 'GET', `/clips/${inside}`)).body).toMatchObject({ is_archived: false, tags: [{ name: 'work/client1' }] });
      }
      const id = await clipAt(where);
      expectAllowed(where, 'bulk download', (await t.req(SV, 'POST', '/clips/bulk/download', { ids: [id] })).status, 200);
      expectAllowed(where, 'bulk copy', (await t.req(SE, 'POST', '/clips/bulk/copy', { ids: [id] })).status, 501);
    }
  });

  it('bulk tag and untag need the tag in scope', async () => {
    for (const where of WHERE) {
      const id = await clipAt('inside');
      expectAllowed(where, 'bulk tag with tag', (await t.req(SE, 'POST', '/clips/bulk/tag', { ids: [id], tag_id: tagOf[where] })).status, 200);
      expectAllowed(where, 'bulk untag with tag', (await t.req(SE, 'POST', '/clips/bulk/untag', { ids: [id], tag_id: tagOf[where] })).status, 200);
    }
  });
});

describe('tags', () => {
  it('list, children and tag clips show the subtree only', async () => {
    const names = (await t.req<{ name: string }[]>(SV, 'GET', '/tags')).body.map((x) => x.name);
    expect(names).toEqual(['work/client1', 'work/client1/sub']);
    for (const where of WHERE) {
      const children = await t.req<unknown[]>(SV, 'GET', `/tags/${tagOf[where]}/children`);
      expect(children.status).toBe(200);
      if (!ALLOWED[where]) expect(children.body).toEqual([]);
      const clips = await t.req<{ total: number }>(SV, 'GET', `/tags/${tagOf[where]}/clips`);
      expect(`${where} tag clips: ${clips.body.total > 0}`).toBe(`${where} tag clips: ${ALLOWED[where]}`);
    }
    expect((await t.req<unknown[]>(SV, 'GET', `/tags/${tagOf.inside}/children`)).body).toHaveLength(1);
  });

  it('scoped admins create, recolour, rename and delete inside their subtree only', async () => {
    const base: Record<Where, string> = { inside: 'work/client1', subtag: 'work/client1/sub', parent: 'work', outside: 'personal' };
    for (const where of WHERE) {
      const created = await t.req<{ id: number }>(SA, 'POST', '/tags', { name: `${base[where]}/made${seq++}` });
      expectAllowed(where, 'create under', created.status, 201);
      expectAllowed(where, 'recolour', (await t.req(SA, 'PUT', `/tags/${tagOf[where]}`, { color: '#123456' })).status, 204);
    }
    const victim = (await t.req<{ id: number }>(KA, 'POST', '/tags', { name: 'work/client1/victim' })).body.id;
    expect((await t.req(SA, 'PUT', `/tags/${victim}`, { name: 'work/client1/renamed' })).status).toBe(204);
    expect((await t.req(SA, 'PUT', `/tags/${victim}`, { name: 'work/escaped' })).status).toBe(403);
    expect((await t.req(SA, 'PUT', `/tags/${tagOf.inside}`, { name: 'work/client1x' })).status).toBe(403);
    expect((await t.req(SA, 'DELETE', `/tags/${tagOf.parent}`)).status).toBe(403);
    expect((await t.req(SA, 'DELETE', `/tags/${tagOf.outside}`)).status).toBe(403);
    expect((await t.req(SA, 'DELETE', `/tags/${victim}`)).status).toBe(204);
  });

  it('the hidden list is not confined', async () => {
    expect((await t.req(SA, 'PUT', '/tags/hidden', { ids: [tagOf.outside] })).status).toBe(204);
    expect((await t.req(SV, 'GET', '/tags/hidden')).body).toEqual({ ids: [tagOf.outside] });
    await t.req(KA, 'PUT', '/tags/hidden', { ids: [] });
  });
});

describe('dedup and keys', () => {
  it('dedup list and merge-all are refused; merge needs the survivor in scope', async () => {
    expect((await t.req(SV, 'GET', '/dedup')).status).toBe(403);
    expect((await t.req(SA, 'POST', '/dedup/all')).status).toBe(403);
    for (const where of WHERE) {
      const id = await clipAt(where);
      expectAllowed(where, 'merge into', (await t.req(SE, 'POST', `/dedup/${id}/merge`)).status, 204);
    }
  });

  it('key management is gated on role only', async () => {
    const made = await t.req<{ key: string; info: { scoped_tag_id: number } }>(SA, 'POST', '/keys', { name: 'from scoped', role: 'admin', scoped_tag_id: tagOf.outside });
    expect(made.status).toBe(201);
    expect(made.body.info.scoped_tag_id).toBe(tagOf.outside);
    expect((await t.req(SA, 'GET', '/keys')).status).toBe(200);
    expect((await t.req(SE, 'GET', '/keys')).status).toBe(403);
  });
});
