// Tags and clip–tag links: hierarchy, colours, exclusivity, rename, delete, children, tag clips
// (§15.10, §15.12, §4). Tests that reshape fixture F's tags get a service of their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

type Tag = { id: number; name: string; color: string; count: number };

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

/** A fresh fixture-F service for one test. */
async function withFresh(run: (t: TestClips, f: FixtureF) => Promise<void>): Promise<void> {
  const own = await startTestClips();
  try {
    await run(own, await fixtureF(own));
  } finally {
    await own.close();
  }
}

const tagNames = async (tt: TestClips, clipId: number, key: string) => (await tt.req<ClipJson>(key, 'GET', `/clips/${clipId}`)).body.tags.map((x) => x.name);

describe('clip–tag links', () => {
  it('replaces the tag of the same root tree and keeps other trees', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KE, 'PUT', '/clips/1/tags/3')).status).toBe(204);
      expect(await tagNames(t, 1, f.KV)).toEqual(['work/client2']);
      await t.req(f.KE, 'PUT', '/clips/1/tags/4');
      expect(await tagNames(t, 1, f.KV)).toEqual(['personal', 'work/client2']);
      await t.req(f.KE, 'PUT', '/clips/1/tags/1');
      expect(await tagNames(t, 1, f.KV)).toEqual(['personal', 'work']);
      const events: string[] = [];
      const stop = t.svc.ctx.events.subscribe((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
      await t.req(f.KE, 'PUT', '/clips/1/tags/2');
      await t.req(f.KE, 'PUT', '/clips/1/tags/2');
      stop();
      expect(events).toEqual(['tag:removed_from_clip {"tag_id":1,"clip_id":1}', 'tag:added_to_clip {"tag_id":2,"clip_id":1}']);
    });
  });

  it('treats names case-sensitively and by exact root', async () => {
    const workshop = (await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'workshop' })).body;
    const upper = (await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'Work/x' })).body;
    const c = (await t.upload(f.KE, { filename: 'excl.txt', data: 'exclusivity' })).body;
    await t.req(f.KE, 'PUT', `/clips/${c.id}/tags/2`);
    await t.req(f.KE, 'PUT', `/clips/${c.id}/tags/${workshop.id}`);
    await t.req(f.KE, 'PUT', `/clips/${c.id}/tags/${upper.id}`);
    expect(await tagNames(t, c.id, f.KV)).toEqual(['Work/x', 'work/client1', 'workshop']);
  });

  it('removes one link; removing an absent link is a no-op', async () => {
    const c = (await t.upload(f.KE, { filename: 'untag.txt', data: 'untag me' })).body;
    await t.req(f.KE, 'PUT', `/clips/${c.id}/tags/2`);
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}/tags/2`)).status).toBe(204);
    expect(await tagNames(t, c.id, f.KV)).toEqual([]);
    expect((await t.req(f.KE, 'DELETE', `/clips/${c.id}/tags/3`)).status).toBe(204);
    expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.map((x) => x.id)).toContain(2);
  });

  it('404s unknown tags and clips and refuses viewers', async () => {
    expect((await t.req(f.KE, 'PUT', '/clips/1/tags/999')).status).toBe(404);
    expect((await t.req(f.KE, 'PUT', '/clips/999/tags/2')).status).toBe(404);
    expect((await t.req(f.KE, 'PUT', '/clips/1/tags/x')).body).toEqual({ error: 'invalid tag id' });
    expect((await t.req(f.KV, 'PUT', '/clips/1/tags/4')).status).toBe(403);
  });

  it('needs both the tag and the clip inside a scoped key\'s subtree', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KSE, 'PUT', '/clips/1/tags/3')).status).toBe(403);
      expect((await t.req(f.KSE, 'PUT', '/clips/2/tags/2')).status).toBe(403);
      expect((await t.req(f.KSA, 'PUT', '/clips/1/tags/3')).status).toBe(204);
      const sub = (await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'work/client1/sub' })).body;
      await t.req(f.KA, 'PUT', '/clips/1/tags/2');
      expect((await t.req(f.KSE, 'PUT', `/clips/1/tags/${sub.id}`)).status).toBe(204);
      expect(await tagNames(t, 1, f.KSE)).toEqual(['work/client1/sub']);
    });
  });
});

describe('listing tags', () => {
  it('lists every tag by name with live clip counts', async () => {
    await withFresh(async (t, f) => {
      const r = await t.req<Tag[]>(f.KV, 'GET', '/tags');
      expect(r.body).toEqual([
        { id: 4, name: 'personal', color: '#22C55E', count: 1 },
        { id: 1, name: 'work', color: '#78716C', count: 0 },
        { id: 2, name: 'work/client1', color: '#78716C', count: 1 },
        { id: 3, name: 'work/client2', color: '#78716C', count: 0 },
      ]);
      await t.req(f.KE, 'PUT', '/clips/1/expiration', { minutes: 1 });
      t.clock.advance(61_000);
      expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.find((x) => x.id === 2)!.count).toBe(0);
    });
  });

  it('shows scoped keys their tag and its descendants', async () => {
    expect((await t.req<Tag[]>(f.KSE, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['work/client1']);
    expect((await t.req<Tag[]>(f.KSA, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['work', 'work/client1', 'work/client2']);
  });

  it('lists direct children only', async () => {
    const sub = (await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'work/client1/sub' })).body;
    await t.req(f.KA, 'POST', '/tags', { name: 'work/client1/sub/deep' });
    expect((await t.req<Tag[]>(f.KV, 'GET', '/tags/1/children')).body.map((x) => x.name)).toEqual(['work/client1', 'work/client2']);
    expect((await t.req<Tag[]>(f.KV, 'GET', '/tags/2/children')).body.map((x) => x.name)).toEqual(['work/client1/sub']);
    expect((await t.req<Tag[]>(f.KV, 'GET', `/tags/${sub.id}/children`)).body.map((x) => x.name)).toEqual(['work/client1/sub/deep']);
    expect((await t.req(f.KV, 'GET', '/tags/999/children')).status).toBe(404);
    expect((await t.req(f.KSE, 'GET', '/tags/4/children')).body).toEqual([]);
  });

  it('lists the clips carrying exactly a tag, paged', async () => {
    await withFresh(async (t, f) => {
      const c2 = await t.req<Record<string, unknown>>(f.KV, 'GET', '/tags/2/clips');
      expect(c2.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
      expect((c2.body.clips as ClipJson[]).map((c) => c.id)).toEqual([1]);
      expect((await t.req(f.KV, 'GET', '/tags/1/clips')).body).toEqual({ clips: [], total: 0, limit: 50, offset: 0 });
      const limited = await t.req<{ clips: ClipJson[]; limit: number }>(f.KV, 'GET', '/tags/4/clips?limit=1');
      expect([limited.body.clips.map((c) => c.id), limited.body.limit]).toEqual([[2], 1]);
      expect((await t.req(f.KSE, 'GET', '/tags/4/clips')).body).toEqual({ clips: [], total: 0, limit: 50, offset: 0 });
      expect((await t.req(f.KA, 'GET', '/tags/999/clips')).status).toBe(404);
      expect((await t.req(f.KA, 'GET', '/tags/2/clips?limit=0')).status).toBe(400);
    });
  });
});

describe('creating tags', () => {
  it('creates missing parents with the colour of the new root', async () => {
    await withFresh(async (t, f) => {
      const r = await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'a/b/c' });
      expect([r.status, r.body]).toEqual([201, { id: 7, name: 'a/b/c', color: '#3B82F6', count: 0 }]);
      const all = (await t.req<Tag[]>(f.KV, 'GET', '/tags')).body;
      expect(all.filter((x) => x.name === 'a' || x.name === 'a/b')).toEqual([
        { id: 5, name: 'a', color: '#3B82F6', count: 0 },
        { id: 6, name: 'a/b', color: '#3B82F6', count: 0 },
      ]);
    });
  });

  it('refuses duplicates with 409, trims names and inherits the nearest ancestor\'s colour', async () => {
    expect((await t.req(f.KA, 'POST', '/tags', { name: 'work' })).body).toEqual({ error: 'tag already exists: work' });
    expect((await t.req(f.KA, 'POST', '/tags', { name: 'work' })).status).toBe(409);
    const r = await t.req<Tag>(f.KA, 'POST', '/tags', { name: '  work/client3  ' });
    expect([r.status, r.body.name, r.body.color]).toEqual([201, 'work/client3', '#78716C']);
  });

  it('validates names', async () => {
    for (const name of ['', 'x/_api', '_api', 'a//b', '/a', 'a'.repeat(51), 'a/../b']) {
      expect([name, (await t.req(f.KA, 'POST', '/tags', { name })).status]).toEqual([name, 400]);
    }
    expect((await t.req(f.KA, 'POST', '/tags', {})).status).toBe(400);
    expect((await t.req(f.KA, 'POST', '/tags', { name: 'my_api' })).status).toBe(201);
  });

  it('confines scoped admins to their subtree and refuses editors', async () => {
    expect((await t.req(f.KSA, 'POST', '/tags', { name: 'work/scoped-made' })).status).toBe(201);
    expect((await t.req(f.KSA, 'POST', '/tags', { name: 'home' })).body).toEqual({ error: 'tag-scoped key can only create subtags under its scope' });
    expect((await t.req(f.KSA, 'POST', '/tags', { name: 'workshop2' })).status).toBe(403);
    expect((await t.req(f.KSE, 'POST', '/tags', { name: 'work/client1/x' })).status).toBe(403);
  });
});

describe('renaming and recolouring', () => {
  it('moves the whole subtree and keeps ids and links', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'PUT', '/tags/1', { name: 'office' })).status).toBe(204);
      expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.map((x) => [x.id, x.name])).toEqual([
        [1, 'office'],
        [2, 'office/client1'],
        [3, 'office/client2'],
        [4, 'personal'],
      ]);
      expect(await tagNames(t, 1, f.KV)).toEqual(['office/client1']);
      expect((await t.req<{ clips: ClipJson[] }>(f.KSE, 'GET', '/clips')).body.clips.map((c) => c.id)).toEqual([1]);
    });
  });

  it('recolours one tag only, and validates colours', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'PUT', '/tags/2', { color: '#ff0000' })).status).toBe(204);
      const all = (await t.req<Tag[]>(f.KV, 'GET', '/tags')).body;
      expect(all.find((x) => x.id === 2)).toMatchObject({ name: 'work/client1', color: '#ff0000' });
      expect(all.find((x) => x.id === 1)!.color).toBe('#78716C');
      expect((await t.req(f.KA, 'PUT', '/tags/2', { color: 'red' })).body).toEqual({ error: 'invalid color' });
      expect((await t.req(f.KA, 'PUT', '/tags/2', {})).status).toBe(400);
      expect((await t.req(f.KA, 'PUT', '/tags/999', { name: 'z' })).status).toBe(404);
    });
  });

  it('refuses renames onto existing names and changes nothing', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'PUT', '/tags/2', { name: 'work/client2' })).status).toBe(409);
      expect((await t.req(f.KA, 'PUT', '/tags/1', { name: 'personal' })).status).toBe(409);
      const o = (await t.req<Tag>(f.KA, 'POST', '/tags', { name: 'office3/client1' })).body;
      const parent = (await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.find((x) => x.name === 'office3')!;
      await t.req(f.KA, 'DELETE', `/tags/${parent.id}`);
      expect((await t.req(f.KA, 'PUT', '/tags/1', { name: 'office3' })).body).toEqual({ error: 'tag rename conflicts with an existing tag' });
      expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['office3/client1', 'personal', 'work', 'work/client1', 'work/client2']);
      expect(o.id).toBeGreaterThan(4);
    });
  });

  it('lets a rename go below the tag itself and rejects names made too long', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'PUT', '/tags/1', { name: 'work/inner' })).status).toBe(204);
      expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['personal', 'work/inner', 'work/inner/client1', 'work/inner/client2']);
      expect((await t.req(f.KA, 'PUT', '/tags/1', { name: 'w'.repeat(45) })).status).toBe(400);
    });
  });

  it('confines scoped admins: inside only, and never renaming their own root', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KSA, 'PUT', '/tags/4', { color: '#000000' })).status).toBe(403);
      expect((await t.req(f.KSA, 'PUT', '/tags/2', { name: 'home/x' })).status).toBe(403);
      expect((await t.req(f.KSA, 'PUT', '/tags/2', { name: 'work/renamed' })).status).toBe(204);
      expect((await t.req(f.KSA, 'PUT', '/tags/1', { name: 'job' })).status).toBe(403);
      expect((await t.req(f.KSA, 'PUT', '/tags/1', { color: '#000000' })).status).toBe(204);
    });
  });
});

describe('deleting tags', () => {
  it('keeps children and unlinks clips', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'DELETE', '/tags/1')).status).toBe(204);
      expect((await t.req<Tag[]>(f.KV, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['personal', 'work/client1', 'work/client2']);
      expect(await tagNames(t, 1, f.KV)).toEqual(['work/client1']);
      expect((await t.req(f.KV, 'GET', '/tags/1/children')).status).toBe(404);
      // Orphans still share their root tree for exclusivity.
      await t.req(f.KE, 'PUT', '/clips/1/tags/3');
      expect(await tagNames(t, 1, f.KV)).toEqual(['work/client2']);
      await t.req(f.KA, 'DELETE', '/tags/4');
      expect(await tagNames(t, 2, f.KV)).toEqual([]);
    });
  });

  it('clears the tag from watch folders that auto-apply it', async () => {
    await withFresh(async (t, f) => {
      const dir = mkdtempSync(join(tmpdir(), 'stacks-tags-watch-'));
      try {
        const folder = await t.req<{ id: number; auto_tag_id: number | null }>(f.KA, 'POST', '/watch', { path: dir, auto_tag_id: 4 });
        expect(folder).toMatchObject({ status: 201, body: { auto_tag_id: 4 } });
        await t.req(f.KA, 'DELETE', '/tags/4');
        expect((await t.req<{ auto_tag_id: number | null }>(f.KA, 'GET', `/watch/${folder.body.id}`)).body.auto_tag_id).toBeNull();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('404s unknown tags and confines scoped admins', async () => {
    await withFresh(async (t, f) => {
      expect((await t.req(f.KA, 'DELETE', '/tags/999')).status).toBe(404);
      expect((await t.req(f.KE, 'DELETE', '/tags/4')).status).toBe(403);
      expect((await t.req(f.KSA, 'DELETE', '/tags/4')).status).toBe(403);
      expect((await t.req(f.KSA, 'DELETE', '/tags/3')).status).toBe(204);
      // Deleting its own scope tag is allowed and revokes the key itself.
      expect((await t.req(f.KSA, 'DELETE', '/tags/1')).status).toBe(204);
      expect((await t.req(f.KSA, 'GET', '/tags')).status).toBe(401);
    });
  });
});
