import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

type Dash = {
  resources: { id: number; name: string }[];
  notes: { id: number; name: string }[];
  groups: { id: number; name: string }[];
  tags: { id: number; name: string }[];
  activity: { type: string; id: number; name: string; action: string }[];
};

describe('dashboard', () => {
  it('shows the newest six of each kind and an activity feed that counts real edits only', async () => {
    for (let i = 1; i <= 7; i++) await lib.json('POST', '/v1/tag', { Name: `dash tag ${i}` });
    const group = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'dash group' })).body.ID;
    await lib.json('POST', '/v1/note', { Name: 'dash note' });
    await upload(lib, [{ name: 'dash.png', data: await png(20, 20, 77) }]);
    // An edit more than a second after creation is activity; the create-time updated_at is not.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await lib.json('POST', `/v1/group/editDescription?id=${group}`, { Description: 'edited later' })).status).toBe(200);

    const d = (await lib.json<Dash>('GET', '/dashboard.json')).body;
    expect(d.tags.map((t) => t.name)).toEqual(['dash tag 7', 'dash tag 6', 'dash tag 5', 'dash tag 4', 'dash tag 3', 'dash tag 2']);
    expect(d.groups.map((g) => g.name)).toEqual(['dash group']);
    expect(d.notes.map((n) => n.name)).toEqual(['dash note']);
    expect(d.resources.map((r) => r.name)).toEqual(['dash.png']);
    expect(d.activity[0]).toMatchObject({ type: 'group', id: group, action: 'updated' });
    expect(d.activity.filter((e) => e.action === 'updated')).toHaveLength(1);
    expect(d.activity.length).toBe(11);
    const html = await (await lib.fetch('/dashboard')).text();
    expect(html).toContain('data-testid="activity"');
    expect(html).toContain(`href="/group?id=${group}"`);
  });

  it('keeps an edit of an old entity in the feed when more creations than the feed holds came after it', async () => {
    const old = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'old tag' })).body.ID;
    for (let i = 1; i <= 30; i++) expect((await lib.json('POST', '/v1/note', { Name: `filler ${i}` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await lib.json('POST', '/v1/tag', { ID: old, Name: 'old tag', Description: 'edited after the fillers' })).status).toBe(200);
    const d = (await lib.json<Dash>('GET', '/dashboard.json')).body;
    expect(d.activity[0]).toMatchObject({ type: 'tag', id: old, action: 'updated' });
    // The rest are the newest creations, newest first; the old tag's creation is too old to show.
    expect(d.activity[1]).toMatchObject({ type: 'note', name: 'filler 30', action: 'created' });
    expect(d.activity.some((e) => e.id === old && e.action === 'created')).toBe(false);
  });
});
