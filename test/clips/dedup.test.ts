// Deduplication: groups, merge into a named clip, merge-all keeping the oldest (§15.13, §5).
// Duplicate rows come from inserts that do not deduplicate (as watch-folder imports will).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

const HELLO = 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9';

/** Fixture D: F plus an untagged, non-deduplicated import of "hello world" as clip 4 (dup.txt). */
async function fixtureD(): Promise<{ t: TestClips; f: FixtureF }> {
  const t = await startTestClips();
  const f = await fixtureF(t);
  await importCopy(t, 'hello world', 'dup.txt');
  return { t, f };
}

async function importCopy(t: TestClips, text: string, filename: string): Promise<number> {
  const staged = await t.svc.ctx.blobs.stage([Buffer.from(text)], 1024);
  return (await t.svc.services.clips.createFromStaged(staged, { filename }, { dedup: false })).clip.id;
}

let t: TestClips;
let f: FixtureF;
beforeAll(async () => ({ t, f } = await fixtureD()));
afterAll(async () => t?.close());

async function withD(run: (t: TestClips, f: FixtureF) => Promise<void>) {
  const d = await fixtureD();
  try {
    await run(d.t, d.f);
  } finally {
    await d.t.close();
  }
}

describe('dedup', () => {
  it('lists groups of identical content', async () => {
    const r = await t.req(f.KV, 'GET', '/dedup');
    expect(r.body).toEqual({ groups: [{ content_hash: HELLO, filename: 'dup.txt', content_type: 'text/plain', count: 2, oldest_id: 1 }], total: 1 });
  });

  it('orders groups by size, then hash', async () => {
    await withD(async (t, f) => {
      for (let i = 0; i < 2; i++) await importCopy(t, 'third copy', `t${i}.txt`);
      await importCopy(t, 'third copy', 't2.txt');
      const groups = (await t.req<{ groups: { count: number; filename: string }[] }>(f.KV, 'GET', '/dedup')).body.groups;
      expect(groups.map((g) => [g.count, g.filename])).toEqual([[3, 't0.txt'], [2, 'dup.txt']]);
    });
  });

  it('merges into the named clip: tags carried over, duplicates deleted, blob kept, clip moved to the top', async () => {
    await withD(async (t, f) => {
      const events: string[] = [];
      t.svc.ctx.events.subscribe((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
      const before = new Date(t.clock.now().getTime() - 1000).toISOString().slice(0, 19);
      expect((await t.req(f.KE, 'POST', '/dedup/4/merge')).status).toBe(204);
      expect((await t.req(f.KV, 'GET', '/clips/1')).status).toBe(404);
      const survivor = (await t.req<ClipJson>(f.KV, 'GET', '/clips/4')).body;
      expect(survivor.tags.map((x) => x.name)).toEqual(['work/client1']);
      expect(survivor.created_at.slice(0, 19) >= before).toBe(true);
      expect((await t.req<{ clips: ClipJson[] }>(f.KV, 'GET', '/clips')).body.clips[0].id).toBe(4);
      expect((await t.req(f.KV, 'GET', '/dedup')).body).toEqual({ groups: [], total: 0 });
      expect(existsSync(join(t.dataDir, 'blobs', 'sha256', 'b9', '4d', HELLO))).toBe(true);
      expect(events).toEqual(['clip:deleted 1', 'tag:added_to_clip {"tag_id":2,"clip_id":4}']);
    });
  });

  it('merges every group into its oldest clip', async () => {
    await withD(async (t, f) => {
      expect((await t.req(f.KA, 'POST', '/dedup/all')).body).toEqual({ removed: 1 });
      expect((await t.req(f.KV, 'GET', '/clips/1')).status).toBe(200);
      expect((await t.req(f.KV, 'GET', '/clips/4')).status).toBe(404);
      expect((await t.req(f.KA, 'POST', '/dedup/all')).body).toEqual({ removed: 0 });
    });
  });

  it('refuses scoped keys the list and merge-all, and editors merge-all', async () => {
    expect((await t.req(f.KSA, 'GET', '/dedup')).body).toEqual({ error: 'dedup operations are not available for tag-scoped keys' });
    expect((await t.req(f.KSA, 'POST', '/dedup/all')).status).toBe(403);
    expect((await t.req(f.KSV, 'GET', '/dedup')).status).toBe(403);
    expect((await t.req(f.KE, 'POST', '/dedup/all')).status).toBe(403);
  });

  it('lets a scoped key merge only into a clip in its scope', async () => {
    await withD(async (t, f) => {
      expect((await t.req(f.KSE, 'POST', '/dedup/4/merge')).status).toBe(403);
      expect((await t.req(f.KSE, 'POST', '/dedup/1/merge')).status).toBe(204);
      expect((await t.req(f.KA, 'GET', '/clips/4')).status).toBe(404);
    });
  });

  it('404s an unknown clip and does nothing for a clip without duplicates', async () => {
    expect((await t.req(f.KE, 'POST', '/dedup/999/merge')).status).toBe(404);
    expect((await t.req(f.KE, 'POST', '/dedup/x/merge')).status).toBe(400);
    expect((await t.req(f.KE, 'POST', '/dedup/2/merge')).status).toBe(204);
    expect((await t.req(f.KV, 'GET', '/clips/2')).status).toBe(200);
  });

  it('does not merge metadata', async () => {
    await withD(async (t, f) => {
      await t.req(f.KE, 'PUT', '/clips/1/metadata', { k: 'v' });
      await t.req(f.KE, 'PUT', '/clips/4/metadata', { z: '1' });
      await t.req(f.KE, 'POST', '/dedup/4/merge');
      expect((await t.req(f.KV, 'GET', '/clips/4/metadata')).body).toEqual({ z: '1' });
    });
  });

  it('keeps the survivor\'s own tag in a root tree it already uses', async () => {
    await withD(async (t, f) => {
      await t.req(f.KE, 'PUT', '/clips/4/tags/3');
      await t.req(f.KE, 'PUT', '/clips/4/tags/4');
      await t.req(f.KE, 'POST', '/dedup/1/merge');
      expect((await t.req<ClipJson>(f.KV, 'GET', '/clips/1')).body.tags.map((x) => x.name)).toEqual(['personal', 'work/client1']);
    });
  });

  it('leaves expired copies out of groups', async () => {
    await withD(async (t, f) => {
      await t.req(f.KE, 'PUT', '/clips/4/expiration', { minutes: 1 });
      t.clock.advance(61_000);
      expect((await t.req(f.KV, 'GET', '/dedup')).body).toEqual({ groups: [], total: 0 });
    });
  });
});
