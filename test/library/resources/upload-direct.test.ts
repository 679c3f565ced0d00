// Large uploads (declared 1 MiB or more) are read off the socket by the direct multipart reader
// and written from its read buffer (issue 18): the same resources, fields, limits and errors as
// the streamed reader, no temporary file left behind by any failure, and the connection closed
// after the reply (what shows the direct reader ran). Smaller bodies keep the connection alive.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { upload } from '../../helpers/resources.js';
import { stopStagingWorker } from '../../../src/core/storage/staging-worker.js';

let lib: TestLibrary;
const MiB = 1024 * 1024;
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => {
  await lib?.close();
});

const tempFiles = () => readdirSync(join(lib.dir, 'files', '.tmp'), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);

/** Waits for the server's cleanup after a failed upload (it runs after the reply). */
async function noTempFiles(): Promise<string[]> {
  for (let i = 0; i < 50 && tempFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return tempFiles();
}

/** Bytes that contain pieces of the delimiter, so the parser's search is exercised inside a file. */
function trickyBytes(size: number, boundary: string): Buffer {
  const out = randomBytes(size);
  const near = Buffer.from(`\r\n--${boundary.slice(0, -1)}`);
  // The byte after each near miss is never the boundary's last one (a random byte would be, 1 in 256).
  const notLast = boundary.charCodeAt(boundary.length - 1) ^ 1;
  const plant = (at: number) => {
    near.copy(out, at);
    out[at + near.length] = notLast;
  };
  for (let at = 1000; at + near.length < size; at += 65_531) plant(at);
  // One across the 256 KiB read boundary the server uses.
  plant(256 * 1024 - 5);
  return out;
}

type Piece = { name: string; value: string } | { name: string; filename: string; data: Buffer };

function multipart(boundary: string, pieces: Piece[]): Buffer {
  const out: Buffer[] = [];
  for (const p of pieces) {
    const head = 'data' in p ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: application/octet-stream` : `Content-Disposition: form-data; name="${p.name}"`;
    out.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), 'data' in p ? p.data : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A multipart POST to the library of `length` declared bytes, its body left to the caller. */
function multipartRequest(path: string, boundary: string, length: number, headers: Record<string, string> = {}, agent: Agent | false = false) {
  const url = new URL(lib.url);
  return request({
    host: url.hostname,
    port: url.port,
    path,
    method: 'POST',
    agent,
    headers: { accept: 'application/json', ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
  });
}

/** POSTs `body` as multipart; `send` bytes of it (all by default) under a declared `declared` length. */
function post(path: string, boundary: string, body: Buffer, options: { declared?: number; send?: number; hangUpAfterMs?: number; agent?: Agent } = {}): Promise<Answer | null> {
  return new Promise((resolve, reject) => {
    const req = multipartRequest(path, boundary, options.declared ?? body.length, {}, options.agent ?? false);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode!, connection: res.headers.connection, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', (e) => (options.hangUpAfterMs !== undefined ? resolve(null) : reject(e)));
    req.write(body.subarray(0, options.send ?? body.length));
    if (options.hangUpAfterMs !== undefined) setTimeout(() => (req.destroy(), resolve(null)), options.hangUpAfterMs);
  });
}

describe('large uploads through the direct reader', () => {
  it('stores every file part with the fields around them, byte for byte', async () => {
    const boundary = '----WebKitFormBoundaryq2Dh6Qb1xYz3Abc9';
    const first = trickyBytes(1536 * 1024 + 17, boundary);
    const second = trickyBytes(2 * MiB + 3, boundary);
    const body = multipart(boundary, [
      { name: 'Description', value: 'two scans, café' },
      { name: 'resource', filename: 'first.bin', data: first },
      { name: 'ignored', filename: 'not-wanted.bin', data: Buffer.alloc(5000, 1) },
      { name: 'resource', filename: 'dir/Second €.bin', data: second },
      { name: 'Tags', value: '' },
    ]);
    const r = (await post('/v1/resource', boundary, body))!;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.connection).toBe('close');
    expect(r.body.map((x: { Name: string; Hash: string; FileSize: number; Description: string }) => [x.Name, x.Hash, x.FileSize, x.Description])).toEqual([
      ['first.bin', sha1(first), first.length, 'two scans, café'],
      ['Second €.bin', sha1(second), second.length, 'two scans, café'],
    ]);
    const stored = Buffer.from(await (await lib.fetch(r.body[1].url)).arrayBuffer());
    expect(sha1(stored)).toBe(sha1(second));
    expect(await noTempFiles()).toEqual([]);
  });

  it('keeps concurrent uploads apart through the one staging thread', async () => {
    const boundary = 'concurrent-boundary';
    // Each larger than a file's ring (staging-worker.ts), so readers wait for room while others write.
    const datas = Array.from({ length: 6 }, (_, i) => trickyBytes(5 * MiB + i * 4099, boundary));
    const answers = await Promise.all(datas.map((data, i) => post('/v1/resource', boundary, multipart(boundary, [{ name: 'resource', filename: `part-${i}.bin`, data }]))));
    for (const [i, r] of answers.entries()) {
      expect(r!.status, JSON.stringify(r!.body)).toBe(200);
      expect([r!.body[0].Name, r!.body[0].Hash, r!.body[0].FileSize]).toEqual([`part-${i}.bin`, sha1(datas[i]), datas[i].length]);
      const stored = Buffer.from(await (await lib.fetch(r!.body[0].url)).arrayBuffer());
      expect(sha1(stored)).toBe(sha1(datas[i]));
    }
    expect(await noTempFiles()).toEqual([]);
  });

  it('keeps the connection of a small upload open (the streamed reader reads it)', async () => {
    const data = randomBytes(200 * 1024);
    const agent = new Agent({ keepAlive: true });
    const r = (await post('/v1/resource', 'smallBoundary', multipart('smallBoundary', [{ name: 'resource', filename: 'small.bin', data }]), { agent }))!;
    agent.destroy();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.connection).toBe('keep-alive');
    expect(r.body[0].Hash).toBe(sha1(data));
  });

  it('uploads a new version through the direct reader', async () => {
    const v1 = (await upload(lib, [{ name: 'versioned.bin', data: randomBytes(1000) }])).body[0];
    const next = trickyBytes(1200 * 1024, 'verBoundary');
    const r = (await post('/v1/resource/versions', 'verBoundary', multipart('verBoundary', [{ name: 'resourceId', value: String(v1.ID) }, { name: 'comment', value: 'rescanned' }, { name: 'file', filename: 'versioned.bin', data: next }])))!;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.connection).toBe('close');
    expect(r.body).toMatchObject({ resourceId: v1.ID, hash: sha1(next), fileSize: next.length, comment: 'rescanned', versionNumber: 2 });
  });

  it('answers a body that ends before its closing delimiter with 400 and keeps nothing', async () => {
    const boundary = 'cutBoundary';
    const whole = multipart(boundary, [{ name: 'resource', filename: 'cut.bin', data: randomBytes(1100 * 1024) }]);
    const cut = whole.subarray(0, whole.length - 40);
    const r = (await post('/v1/resource', boundary, cut))!;
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid multipart body: Unexpected end of multipart data' });
    expect(await noTempFiles()).toEqual([]);
  });

  it('answers a file over max_upload_size with 413 while reading, and keeps nothing', async () => {
    expect((await lib.json('PUT', '/v1/admin/settings/max_upload_size', { value: String(MiB + 512 * 1024) })).status).toBe(200);
    try {
      const boundary = 'limitBoundary';
      // Declared within the limit's slack (so it is read), the file itself is over it.
      const body = multipart(boundary, [{ name: 'resource', filename: 'big.bin', data: randomBytes(MiB + 540 * 1024) }]);
      const r = (await post('/v1/resource', boundary, body))!;
      expect(r.status).toBe(413);
      expect(r.body.error).toMatch(/^request body too large/);
      expect(await noTempFiles()).toEqual([]);
    } finally {
      expect((await lib.json('PUT', '/v1/admin/settings/max_upload_size', { value: '2G' })).status).toBe(200);
    }
  });

  it('keeps nothing when the client hangs up midway, and serves the next upload', async () => {
    const before = (await lib.json<{ ID: number }[]>('GET', '/v1/resources?pageSize=1000')).body.length;
    const boundary = 'hangBoundary';
    const body = multipart(boundary, [{ name: 'resource', filename: 'gone.bin', data: randomBytes(3 * MiB) }]);
    expect(await post('/v1/resource', boundary, body, { send: 2 * MiB, hangUpAfterMs: 300 })).toBeNull();
    expect(await noTempFiles()).toEqual([]);
    expect((await lib.json<{ ID: number }[]>('GET', '/v1/resources?pageSize=1000')).body.length).toBe(before);
    const data = randomBytes(MiB + 1);
    const r = (await post('/v1/resource', boundary, multipart(boundary, [{ name: 'resource', filename: 'after.bin', data }])))!;
    expect(r.status).toBe(200);
    expect(r.body[0].Hash).toBe(sha1(data));
  });

  it('answers 500 and keeps nothing when the staging thread dies midway, and serves the next upload on a new one', async () => {
    const before = (await lib.json<{ ID: number }[]>('GET', '/v1/resources?pageSize=1000')).body.length;
    const boundary = 'deathBoundary';
    const body = multipart(boundary, [{ name: 'resource', filename: 'orphan.bin', data: randomBytes(4 * MiB) }]);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = multipartRequest('/v1/resource', boundary, body.length);
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      // The server may close while the rest is still being sent.
      req.on('error', (e) => (e.message.includes('EPIPE') || e.message.includes('ECONNRESET') ? undefined : reject(e)));
      req.write(body.subarray(0, MiB));
      setTimeout(() => {
        void stopStagingWorker().then(() => {
          if (!req.destroyed) req.end(body.subarray(MiB));
        });
      }, 200);
    });
    expect(answer.status, answer.text).toBe(500);
    expect(JSON.parse(answer.text).error).toBeTruthy();
    expect(await noTempFiles()).toEqual([]);
    expect((await lib.json<{ ID: number }[]>('GET', '/v1/resources?pageSize=1000')).body.length).toBe(before);
    const data = randomBytes(2 * MiB + 5);
    const r = (await post('/v1/resource', boundary, multipart(boundary, [{ name: 'resource', filename: 'after-death.bin', data }])))!;
    expect(r.status).toBe(200);
    expect(r.body[0].Hash).toBe(sha1(data));
  });

  it('reads a body sent after "100 Continue" (curl asks for it before large bodies)', async () => {
    const boundary = 'continueBoundary';
    const data = trickyBytes(MiB + 99, boundary);
    const body = multipart(boundary, [{ name: 'resource', filename: 'continued.bin', data }]);
    const answer = await new Promise<{ status: number; continued: boolean; text: string }>((resolve, reject) => {
      let continued = false;
      const req = multipartRequest('/v1/resource', boundary, body.length, { expect: '100-continue' });
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, continued, text }));
      });
      req.on('error', reject);
    });
    expect(answer.continued).toBe(true);
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)[0].Hash).toBe(sha1(data));
  });

  it('answers 400 for a large body without a boundary, reading none of it', async () => {
    const url = new URL(lib.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: '/v1/resource', method: 'POST', agent: false, headers: { 'content-type': 'multipart/form-data', 'content-length': String(2 * MiB) } });
      req.on('response', (res) => (res.resume(), resolve(res.statusCode!)));
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024));
    });
    expect(status).toBe(400);
  });
});
