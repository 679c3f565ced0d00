// /clips/bulk/*: counts, validation, all-or-nothing scope checks, the streamed ZIP (§15.11).
import { fromBuffer, type Entry } from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fixtureF, ids, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const bulk = (name: string, body: unknown, key = f.KE) => t.req(key, 'POST', `/clips/bulk/${name}`, body);
const fresh = async (n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await t.upload(f.KE, { filename: `b${i}.txt`, data: `bulk ${i} ${Math.random()}` })).body.id);
  return out;
};
const clip = async (id: number) => (await t.req<ClipJson>(f.KA, 'GET', `/clips/${id}`)).body;

/** Reads every entry of a ZIP into name → bytes, in archive order. */
function unzip(buf: Buffer): Promise<[string, Buffer][]> {
  return new Promise((resolve, reject) => {
    fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: [string, Buffer][] = [];
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.push([entry.fileName, Buffer.concat(chunks)]);
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('bulk edits', () => {
  it('deletes, echoing the number of ids sent and skipping unknown ones', async () => {
    const [a, b] = await fresh(2);
    expect((await bulk('delete', { ids: [a, b, 999999] })).body).toEqual({ deleted: 3 });
    expect((await t.req(f.KA, 'GET', `/clips/${a}`)).status).toBe(404);
    expect((await t.req(f.KA, 'GET', `/clips/${b}`)).status).toBe(404);
  });

  it('validates ids', async () => {
    expect((await bulk('delete', { ids: [] })).body).toEqual({ error: 'ids is required' });
    expect((await bulk('delete', {})).body).toEqual({ error: 'ids is required' });
    expect((await bulk('delete', { ids: '1' })).status).toBe(400);
    expect((await bulk('delete', { ids: [1, 'x'] })).status).toBe(400);
    expect((await bulk('delete', { ids: Array.from({ length: 10_001 }, (_, i) => i + 1) })).status).toBe(413);
    const bad = await t.raw(f.KE, 'POST', '/clips/bulk/archive', '{', { 'content-type': 'application/json' });
    expect(bad.body).toEqual({ error: 'invalid JSON body' });
    expect((await clip(1)).id).toBe(1);
  });

  it('archives and unarchives', async () => {
    expect((await bulk('archive', { ids: [1, 2] })).body).toEqual({ archived: 2 });
    expect(ids(await t.req(f.KV, 'GET', '/clips?archived=true'))).toEqual([3, 2, 1]);
    expect((await bulk('unarchive', { ids: [1, 2, 3] })).body).toEqual({ unarchived: 3 });
    expect(ids(await t.req(f.KV, 'GET', '/clips?archived=true'))).toEqual([]);
    await bulk('archive', { ids: [3] });
  });

  it('sets and cancels expiry', async () => {
    const [a, b] = await fresh(2);
    expect((await bulk('expire', { ids: [a, b], minutes: 30 })).body).toEqual({ updated: 2 });
    expect((await bulk('expire', { ids: [a] })).status).toBe(400);
    expect((await bulk('expire', { ids: [a], minutes: 0 })).status).toBe(400);
    expect((await bulk('cancel-expire', { ids: [a] })).body).toEqual({ updated: 1 });
    t.clock.advance(31 * 60_000);
    await t.svc.cleanup.runOnce();
    expect((await t.req(f.KA, 'GET', `/clips/${a}`)).status).toBe(200);
    expect((await t.req(f.KA, 'GET', `/clips/${b}`)).status).toBe(404);
  });

  it('tags with exclusivity and untags', async () => {
    expect((await bulk('tag', { ids: [1, 2], tag_id: 3 })).body).toEqual({ tagged: 2 });
    expect((await clip(1)).tags.map((x) => x.name)).toEqual(['work/client2']);
    expect((await clip(2)).tags.map((x) => x.name)).toEqual(['personal', 'work/client2']);
    expect((await bulk('untag', { ids: [1, 2], tag_id: 3 })).body).toEqual({ untagged: 2 });
    expect((await clip(1)).tags).toEqual([]);
    expect((await clip(2)).tags.map((x) => x.name)).toEqual(['personal']);
    await t.req(f.KE, 'PUT', '/clips/1/tags/2');
  });

  it('validates tag_id', async () => {
    expect((await bulk('tag', { ids: [1] })).status).toBe(400);
    expect((await bulk('tag', { ids: [1], tag_id: 999 })).body).toEqual({ error: 'tag not found' });
    expect((await bulk('untag', { ids: [1], tag_id: '2' })).status).toBe(400);
  });

  it('checks every id against a scoped key before changing anything', async () => {
    expect((await bulk('delete', { ids: [1, 2] }, f.KSE)).status).toBe(403);
    expect((await t.req(f.KA, 'GET', '/clips/1')).status).toBe(200);
    expect((await bulk('archive', { ids: [1, 999999] }, f.KSE)).status).toBe(403);
    expect((await clip(1)).is_archived).toBe(false);
    expect((await bulk('tag', { ids: [1], tag_id: 4 }, f.KSA)).status).toBe(403);
    expect((await bulk('archive', { ids: [1] }, f.KSE)).body).toEqual({ archived: 1 });
    await bulk('unarchive', { ids: [1] });
  });

  it('refuses viewers every edit', async () => {
    for (const name of ['delete', 'archive', 'unarchive', 'cancel-expire', 'copy']) expect((await bulk(name, { ids: [1] }, f.KV)).status).toBe(403);
    expect((await bulk('expire', { ids: [1], minutes: 5 }, f.KV)).status).toBe(403);
    expect((await bulk('tag', { ids: [1], tag_id: 2 }, f.KV)).status).toBe(403);
  });

  it('answers 501 for clipboard copies on a server without a clipboard', async () => {
    expect((await bulk('copy', { ids: [1] })).body).toEqual({ error: 'clipboard not available on this server' });
    expect((await bulk('copy', { ids: [] })).status).toBe(400);
    expect((await bulk('copy', { ids: [2] }, f.KSE)).status).toBe(403);
  });
});

describe('bulk download', () => {
  it('streams a ZIP of the clip files in the order of ids, skipping unknown ones', async () => {
    const res = await fetch(`${t.url}${API}/clips/bulk/download`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.KV}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [2, 1, 999999] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="clips.zip"');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(entries.map(([name]) => name)).toEqual(['2_shot.png', '1_notes.txt']);
    expect(entries[0][1].equals(f.pngBytes)).toBe(true);
    expect(entries[1][1].toString()).toBe('hello world');
  });

  it('names unnamed clips after id and type, and yields an empty ZIP for unknown ids', async () => {
    const c = (await t.upload(f.KE, { data: 'no name here' })).body;
    const res = await fetch(`${t.url}${API}/clips/bulk/download`, { method: 'POST', headers: { authorization: `Bearer ${f.KV}` }, body: JSON.stringify({ ids: [c.id] }) });
    expect((await unzip(Buffer.from(await res.arrayBuffer()))).map(([n]) => n)).toEqual([`${c.id}_clip_${c.id}.txt`]);
    const empty = await fetch(`${t.url}${API}/clips/bulk/download`, { method: 'POST', headers: { authorization: `Bearer ${f.KV}` }, body: JSON.stringify({ ids: [999999] }) });
    expect(await unzip(Buffer.from(await empty.arrayBuffer()))).toEqual([]);
  });

  it('is confined by scope', async () => {
    expect((await t.req(f.KSV, 'POST', '/clips/bulk/download', { ids: [1] })).status).toBe(403);
    expect((await t.raw(f.KSV, 'POST', '/clips/bulk/download', JSON.stringify({ ids: [2] }))).status).toBe(200);
  });
});
