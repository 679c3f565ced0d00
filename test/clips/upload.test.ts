// POST /clips: content types, filenames, dedup, limits and atomicity (§15.4, §2.2, §3.2–3.4).
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, fixtureF, multipart, png, startTestClips, type ClipJson, type FixtureF, type TestClips } from './helper.js';

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const HELLO_HASH = 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9';
const blobPath = (hash: string) => join(t.dataDir, 'blobs', 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);
const total = async () => (await t.req<{ total: number }>(f.KA, 'GET', '/clips')).body.total;

describe('upload', () => {
  it('creates a clip (201) and stores its bytes content-addressed', async () => {
    const r = await t.upload(f.KE, { filename: 'a.txt', type: 'text/plain', data: 'plain text' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: r.body.id, filename: 'a.txt', content_type: 'text/plain', size: 10, is_archived: false, created_at: r.body.created_at, tags: [] });
    expect(r.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(existsSync(blobPath(HELLO_HASH))).toBe(true);
    const data = await t.raw(f.KV, 'GET', `/clips/${r.body.id}/data`);
    expect(data.text).toBe('plain text');
  });

  it('returns the existing clip (200) for known bytes and keeps the stored filename', async () => {
    const before = await total();
    const r = await t.upload(f.KE, { filename: 'other.txt', type: 'text/plain', data: 'hello world' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 1, filename: 'notes.txt', tags: [{ id: 2, name: 'work/client1' }] });
    expect(await total()).toBe(before);
  });

  it('applies a scoped key\'s tag to a new clip and to an existing duplicate', async () => {
    const dup = await t.upload(f.KSE, { filename: 'copy.png', type: 'image/png', data: f.pngBytes });
    expect(dup.status).toBe(200);
    expect(dup.body.id).toBe(2);
    expect(dup.body.tags.map((x) => x.name)).toEqual(['personal', 'work/client1']);
    await t.req(f.KE, 'DELETE', '/clips/2/tags/2');

    const fresh = await t.upload(f.KSE, { filename: 's.txt', type: 'text/plain', data: 'scoped note' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.tags).toEqual([{ id: 2, name: 'work/client1', color: '#78716C', count: 2 }]);
    const seen = await t.req<{ clips: ClipJson[] }>(f.KSE, 'GET', '/clips');
    expect(seen.body.clips.map((c) => c.id)).toContain(fresh.body.id);
    await t.req(f.KE, 'DELETE', `/clips/${fresh.body.id}`);
  });

  it('takes ?filename= over the part filename and makes .md Markdown', async () => {
    const r = await t.upload(f.KE, { filename: 'x.txt', type: 'text/plain', data: '# Title' }, '?filename=readme.md');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ filename: 'readme.md', content_type: 'text/markdown', size: 7 });
  });

  it('detects types by extension, sniffing, text refinement and normalisation', async () => {
    const cases: [Parameters<TestClips['upload']>[1], string, string][] = [
      [{ filename: 'data.json', data: '{"a":1}' }, 'application/json', 'data.json'],
      [{ data: '<!DOCTYPE html><html></html>' }, 'text/html', ''],
      [{ filename: 'image.png', type: 'application/octet-stream', data: png('ext') }, 'image/png', 'image.png'],
      [{ data: png('sniffed') }, 'image/png', ''],
      [{ filename: 'n.txt', type: 'Text/Plain; charset=UTF-8', data: '42' }, 'text/plain', 'n.txt'],
      [{ data: '  {"pasted": [1, 2]}  ' }, 'application/json', ''],
      [{ data: '[not json' }, 'text/plain', ''],
      [{ data: '<!doctype HTML><p>x' }, 'text/html', ''],
      [{ filename: 'doc', data: '%PDF-1.7 body' }, 'application/pdf', 'doc'],
      [{ data: Buffer.from([0, 1, 2, 3, 255]) }, 'application/octet-stream', ''],
      [{ filename: 'notes.markdown', type: 'text/plain', data: 'x' }, 'text/markdown', 'notes.markdown'],
      [{ filename: 'Photo.JPG', data: Buffer.from([1, 2, 3]) }, 'image/jpeg', 'Photo.JPG'],
      [{ name: 'anything', filename: 'C:\\Users\\me\\clip.csv', data: 'a,b' }, 'text/csv', 'clip.csv'],
      [{ filename: 'dir/sub/x.gif', data: 'GIF89a....' }, 'image/gif', 'x.gif'],
    ];
    for (const [part, type, filename] of cases) {
      const r = await t.upload(f.KE, part);
      expect([r.status, r.body.content_type, r.body.filename]).toEqual([201, type, filename]);
    }
  });

  it('stores an empty part as an empty clip', async () => {
    const r = await t.upload(f.KE, { filename: 'empty.bin', type: 'application/x-empty', data: '' });
    expect(r.status).toBe(201);
    expect(r.body.size).toBe(0);
    const data = await t.raw(f.KV, 'GET', `/clips/${r.body.id}/data`);
    expect([data.status, data.text, data.headers.get('content-length')]).toEqual([200, '', '0']);
  });

  it('takes only the first part, whatever its name', async () => {
    const { body, contentType } = multipart([
      { name: 'first', filename: 'one.txt', type: 'text/plain', data: 'first part wins' },
      { name: 'file', filename: 'two.txt', type: 'text/plain', data: 'second part ignored' },
    ]);
    const r = await fetch(`${t.url}${API}/clips`, { method: 'POST', headers: { authorization: `Bearer ${f.KE}`, 'content-type': contentType }, body: new Uint8Array(body) });
    const clip = (await r.json()) as ClipJson;
    expect([r.status, clip.filename, clip.size]).toEqual([201, 'one.txt', 15]);
  });

  it('refuses what is not a multipart upload', async () => {
    const json = await t.req(f.KE, 'POST', '/clips', {});
    expect(json.body).toEqual({ error: 'expected multipart/form-data' });
    const empty = await t.raw(f.KE, 'POST', '/clips', `--b--\r\n`, { 'content-type': 'multipart/form-data; boundary=b' });
    expect(empty.status).toBe(400);
    const noBoundary = await t.raw(f.KE, 'POST', '/clips', 'x', { 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect((await t.upload(f.KV, { filename: 'v.txt', data: 'viewer' })).status).toBe(403);
  });

  it('validates the ?filename= override before reading anything', async () => {
    for (const bad of ['../evil', 'a/b.txt', '..x', 'a\\b', 'x'.repeat(256), '%01bell']) {
      const r = await t.upload(f.KE, { filename: 'ok.txt', data: `override ${bad}` }, `?filename=${encodeURIComponent(bad === '%01bell' ? '\u0001bell' : bad)}`);
      expect([bad, r.status]).toEqual([bad, 400]);
    }
  });
});

describe('limits and atomicity', () => {
  /** Streams a multipart upload of `size` bytes of 'a' without building it in memory. */
  function bigUpload(size: number, chunked = false): Promise<{ status: number; body: string }> {
    const boundary = 'bigboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { authorization: `Bearer ${f.KE}`, 'content-type': `multipart/form-data; boundary=${boundary}` };
      if (!chunked) headers['content-length'] = head.length + size + tail.length;
      const req = request(`${t.url}${API}/clips`, { method: 'POST', headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let left = size;
      req.write(head);
      const pump = () => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
        }
        req.end(tail);
      };
      pump();
    });
  }

  it('answers 413 above 100 MiB, stores nothing and leaves tmp/ empty', async () => {
    const before = await total();
    const r = await bigUpload(104_857_601);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ error: 'clip exceeds 100 MiB limit' });
    expect(await total()).toBe(before);
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('answers 413 at once for a declared length beyond the body cap', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.url}${API}/clips`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.KE}`, 'content-type': 'multipart/form-data; boundary=b', 'content-length': 200 * 1024 * 1024 },
      });
      req.on('response', (r) => resolve(r.statusCode ?? 0));
      req.on('error', reject);
      req.write('--b\r\n');
    });
    expect(res).toBe(413);
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('cuts off a chunked body that grows past the cap in later parts, keeping nothing', async () => {
    const before = await total();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${t.url}${API}/clips`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.KE}`, 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => undefined);
      setTimeout(() => reject(new Error('no response')), 20_000).unref();
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="small.txt"\r\n\r\nsmall first part\r\n');
      req.write('--b\r\nContent-Disposition: form-data; name="extra"; filename="huge.bin"\r\n\r\n');
      const chunk = Buffer.alloc(1024 * 1024, 'q');
      let sent = 0;
      const pump = () => {
        while (sent < 110 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(await total()).toBe(before);
    for (let i = 0; i < 50 && readdirSync(join(t.dataDir, 'tmp')).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('leaves no temp file and no row when the client goes away mid-upload', async () => {
    const before = await total();
    await new Promise<void>((resolve) => {
      const req = request(`${t.url}${API}/clips`, {
        method: 'POST',
        headers: { authorization: `Bearer ${f.KE}`, 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' },
      });
      req.on('error', () => resolve());
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n');
      req.write(Buffer.alloc(256 * 1024, 'z'));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    for (let i = 0; i < 50 && readdirSync(join(t.dataDir, 'tmp')).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
    expect(await total()).toBe(before);
  });

  it('makes one clip from concurrent uploads of the same new bytes', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => t.upload(f.KE, { filename: `same${i}.txt`, data: 'concurrent identical bytes' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  it('keeps a shared blob until the last clip using it is deleted', async () => {
    const a = await t.upload(f.KE, { filename: 'shared.txt', data: 'shared bytes' });
    // Rows that do not deduplicate (watch imports, tag-server uploads) share the blob.
    const svc = t.svc.services.clips;
    const staged = await t.svc.ctx.blobs.stage([Buffer.from('shared bytes')], 100);
    const b = await svc.createFromStaged(staged, { filename: 'import.txt' }, { dedup: false });
    expect(b.created).toBe(true);
    const hash = (await t.svc.ctx.db.selectFrom('clips').select('content_hash').where('id', '=', a.body.id).executeTakeFirstOrThrow()).content_hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await t.req(f.KE, 'DELETE', `/clips/${a.body.id}`);
    expect(existsSync(blobPath(hash))).toBe(true);
    await t.req(f.KE, 'DELETE', `/clips/${b.clip.id}`);
    expect(existsSync(blobPath(hash))).toBe(false);
  });

  it('accepts a body split into many small chunks', async () => {
    const { body, contentType } = multipart([{ filename: 'slow.txt', type: 'text/plain', data: 'x'.repeat(5000) }]);
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${t.url}${API}/clips`, { method: 'POST', headers: { authorization: `Bearer ${f.KE}`, 'content-type': contentType } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      for (let i = 0; i < body.length; i += 7) req.write(body.subarray(i, i + 7));
      req.end();
    });
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body)).toMatchObject({ filename: 'slow.txt', size: 5000, content_type: 'text/plain' });
  });
});
