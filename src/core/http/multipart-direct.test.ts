// readPartsDirect in a server of its own: a sink that asks the reader to wait (a slow disk's
// backlog) pauses the socket without losing or reordering a byte, fields arrive in order around
// the file, and bodies it does not take (small, chunked) are left for readParts untouched.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT_MIN_BYTES, readParts, readPartsDirect, registerMultipart } from './multipart.js';

const B = 'directTestBoundary';
const app = Fastify();
let url: string;
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

interface Seen {
  direct: boolean;
  fields: string[];
  files: { name: string; filename: string; sha1: string; size: number }[];
  waits: number;
}

beforeAll(async () => {
  registerMultipart(app, { fieldSize: 1024 });
  app.post('/read', async (req, reply) => {
    const seen: Seen = { direct: false, fields: [], files: [], waits: 0 };
    let calls = 0;
    seen.direct = await readPartsDirect(req, reply.raw, {
      field: (name, value) => void seen.fields.push(`${name}=${value}`),
      file(name, filename) {
        const hash = createHash('sha1');
        let size = 0;
        return {
          write(chunk) {
            hash.update(chunk);
            size += chunk.length;
          },
          end: () => void seen.files.push({ name, filename, sha1: hash.digest('hex'), size }),
        };
      },
      // Every third read waits 5 ms, as a sink whose writes went to a slow disk.
      blocked() {
        if (++calls % 3 !== 0) return null;
        seen.waits++;
        return new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    if (!seen.direct) for await (const part of readParts(req)) if (part.type === 'field') seen.fields.push(`${part.name}=${part.value}`);
    return seen;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

function body(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="before"\r\n\r\none\r\n`),
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="doc"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${B}\r\nContent-Disposition: form-data; name="after"\r\n\r\ntwo\r\n--${B}--\r\n`),
  ]);
}

function post(payload: Buffer, chunked = false): Promise<{ status: number; seen: Seen }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${B}` };
    if (!chunked) headers['content-length'] = String(payload.length);
    const req = request(`${url}/read`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, seen: JSON.parse(text) as Seen }));
    });
    req.on('error', reject);
    // Written in pieces, so the server gets many reads.
    for (let at = 0; at < payload.length; at += 100_000) req.write(payload.subarray(at, at + 100_000));
    req.end();
  });
}

describe('readPartsDirect', () => {
  it('pauses on a sink that is behind and still delivers every byte in order', async () => {
    const file = randomBytes(6 * 1024 * 1024 + 11);
    const { status, seen } = await post(body(file));
    expect(status).toBe(200);
    expect(seen.direct).toBe(true);
    expect(seen.fields).toEqual(['before=one', 'after=two']);
    expect(seen.files).toEqual([{ name: 'doc', filename: 'a.bin', sha1: sha1(file), size: file.length }]);
    expect(seen.waits).toBeGreaterThan(3);
  });

  it('leaves an injected request (no socket) to readParts', async () => {
    const payload = body(randomBytes(DIRECT_MIN_BYTES * 2));
    const res = await app.inject({ method: 'POST', url: '/read', payload, headers: { 'content-type': `multipart/form-data; boundary=${B}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ direct: false, fields: ['before=one', 'after=two'] });
  });

  it('leaves a small body and a chunked one to readParts', async () => {
    const small = await post(body(randomBytes(DIRECT_MIN_BYTES / 2)));
    expect(small.seen).toMatchObject({ direct: false, fields: ['before=one', 'after=two'] });
    const chunked = await post(body(randomBytes(DIRECT_MIN_BYTES * 2)), true);
    expect(chunked.seen).toMatchObject({ direct: false, fields: ['before=one', 'after=two'] });
  });
});
