// Issue 12: dedup by a tag-scoped key keeps the contract's rule (the existing clip is returned
// with status 200 and gains the scoped tag) but reveals nothing the key could not already see:
// the returned clip, and every later read by that key, shows only tags inside the scope, and
// the clip object carries no metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestClips, type ClipJson, type TestClips } from './helper.js';

describe('dedup through a tag-scoped key', () => {
  let t: TestClips;
  let scoped: string;
  let inside: number;
  beforeAll(async () => {
    t = await startTestClips();
    const tag = async (name: string) => (await t.req<{ id: number }>(t.admin, 'POST', '/tags', { name })).body.id;
    await tag('secret-project');
    await tag('team');
    inside = await tag('team/shared');
    scoped = await t.key('scoped editor', 'editor', await tag('team/inbox'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns the existing clip with only in-scope tags and no metadata', async () => {
    const original = (await t.upload<ClipJson>(t.admin, { filename: 'plan.txt', type: 'text/plain', data: 'the confidential plan' })).body;
    expect((await t.req(t.admin, 'PUT', `/clips/${original.id}/tags/${(await t.req<{ id: number; name: string }[]>(t.admin, 'GET', '/tags')).body.find((x) => x.name === 'secret-project')!.id}`)).status).toBe(204);
    expect((await t.req(t.admin, 'PUT', `/clips/${original.id}/tags/${inside}`)).status).toBe(204);
    expect((await t.req(t.admin, 'PUT', `/clips/${original.id}/metadata`, { owner: 'alice', budget: 'classified' })).status).toBe(204);

    const dup = await t.upload<ClipJson & Record<string, unknown>>(scoped, { filename: 'guess.txt', type: 'text/plain', data: 'the confidential plan' });
    expect(dup.status).toBe(200);
    expect(dup.body.id).toBe(original.id);
    expect(dup.body.filename).toBe('plan.txt');
    expect(dup.body.tags.map((x) => x.name)).toEqual(['team/inbox']);
    expect(dup.text).not.toMatch(/secret-project|team\/shared|alice|classified/);
    expect(Object.keys(dup.body).sort()).toEqual(['content_type', 'created_at', 'filename', 'id', 'is_archived', 'size', 'tags']);

    // The contract's rule holds: the scoped tag was applied to the existing clip, with the
    // normal add-tag rules (it takes the place of the same-root tag team/shared, §4.4).
    const full = (await t.req<ClipJson>(t.admin, 'GET', `/clips/${original.id}`)).body;
    expect(full.tags.map((x) => x.name)).toEqual(['secret-project', 'team/inbox']);

    // Later reads by the scoped key show the same narrowed view.
    const one = await t.req<ClipJson>(scoped, 'GET', `/clips/${original.id}`);
    expect(one.body.tags.map((x) => x.name)).toEqual(['team/inbox']);
    const list = await t.req<{ clips: ClipJson[] }>(scoped, 'GET', '/clips');
    expect(list.body.clips.find((c) => c.id === original.id)?.tags.map((x) => x.name)).toEqual(['team/inbox']);
    expect(JSON.stringify(list.body)).not.toMatch(/secret-project|team\/shared/);
  });
});
