// A file part that is read slowly must hold back the request body instead of buffering it:
// with eight uploads at once, every MiB buffered per part was 8 MiB of the server's memory
// (bench/README.md, "Library uploads", third turn).
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParts, registerMultipart } from './multipart.js';

const B = 'partBufferBoundary';
const body = randomBytes(8 * 1024 * 1024);
const app = Fastify();
let url: string;
let observed: { buffered: number; sha1: string; size: number } | null = null;

beforeAll(async () => {
  registerMultipart(app, { fieldSize: 1024 });
  app.post('/upload', async (req) => {
    for await (const part of readParts(req)) {
      if (part.type !== 'file') continue;
      // Leave the part unread while the client keeps sending: whatever the part's stream
      // takes in meanwhile is what one stalled upload costs in memory.
      // (readParts hands out a PassThrough: its two sides are the part's buffer.)
      const stream = part.stream as PassThrough;
      let buffered = 0;
      for (let i = 0; i < 15; i++) {
        await new Promise((r) => setTimeout(r, 20));
        buffered = Math.max(buffered, stream.readableLength + stream.writableLength);
      }
      const hash = createHash('sha1');
      let size = 0;
      for await (const chunk of part.stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
      observed = { buffered, sha1: hash.digest('hex'), size };
    }
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

function post(): Promise<number> {
  const head = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${B}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/upload`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${B}`, 'content-length': head.length + body.length + tail.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(Buffer.concat([head, body, tail]));
  });
}

describe('readParts', () => {
  it('buffers at most a few socket reads of a file part that is not being read, and loses nothing', async () => {
    expect(await post()).toBe(200);
    expect(observed!.size).toBe(body.length);
    expect(observed!.sha1).toBe(createHash('sha1').update(body).digest('hex'));
    // Two sides of 64 KiB, each allowed to overshoot by one read; 1 MiB per side held 2 MiB.
    expect(observed!.buffered).toBeGreaterThan(0);
    expect(observed!.buffered).toBeLessThanOrEqual(256 * 1024);
  });
});
