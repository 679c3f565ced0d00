// A body taken off the socket (body-takeover.ts) must arrive byte for byte, close its connection
// after the reply, fail when the client goes away or sends less than it declared, and leave every
// request it cannot take (chunked, injected, already being read) to Node's own reading.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeBody, takeBodyStream } from './body-takeover.js';
import { HttpError } from './errors.js';
import { readParts, registerMultipart } from './multipart.js';

const B = 'takeoverBoundary';
const app = Fastify();
let port = 0;
/** What the last upload saw: whether its body was taken over, the file's SHA-1 and size, or its error. */
const currentReply = new WeakMap<FastifyRequest, ServerResponse>();
let last: { taken: boolean; sha1?: string; size?: number; error?: string } | null = null;

async function readUpload(req: FastifyRequest, taken: boolean, fileSize?: number) {
  const body = taken ? ((await takeBodyStream(req.raw, currentReply.get(req)!)) ?? undefined) : undefined;
  last = { taken: body !== undefined };
  try {
    for await (const part of readParts(req, { body, limits: { fileSize } })) {
      if (part.type !== 'file') continue;
      const hash = createHash('sha1');
      let size = 0;
      for await (const chunk of part.stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
      Object.assign(last, { sha1: hash.digest('hex'), size });
    }
  } catch (e) {
    last.error = (e as Error).message;
    throw e;
  }
  return last;
}

beforeAll(async () => {
  registerMultipart(app, { fieldSize: 1024 });
  app.addHook('onRequest', async (req, reply) => void currentReply.set(req, reply.raw));
  app.post('/upload', async (req) => readUpload(req, true));
  app.post('/small', async (req) => readUpload(req, true, 1024 * 1024));
  app.post('/plain', async (req) => readUpload(req, false));
  app.get('/ping', async () => ({ pong: true }));
  app.post('/buffers', async (req, reply) => readIntoBuffers(req, reply.raw));
  app.setErrorHandler(async (err, req, reply) => {
    if (!req.raw.complete) reply.header('Connection', 'close');
    return reply.code(err instanceof HttpError ? err.status : 500).send({ error: (err as Error).message });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/**
 * Reads a body into regions of one arena handed out in turn (never reused), refusing every third
 * time (the read then lands in takeBody's own buffer): each delivered chunk must be the region of
 * its read, or that own buffer.
 */
async function readIntoBuffers(req: FastifyRequest, res: ServerResponse) {
  const arena = Buffer.alloc(8 * 1024 * 1024);
  let offered = 0;
  let asked = 0;
  let current: Buffer | null = null;
  const strays: string[] = [];
  let inArena = 0;
  const hash = createHash('sha1');
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    void takeBody(req.raw, res, {
      data(chunk) {
        if (chunk.buffer === arena.buffer) {
          inArena += chunk.length;
          if (chunk.byteOffset !== current?.byteOffset) strays.push(`chunk at ${chunk.byteOffset}, region at ${current?.byteOffset}`);
        }
        hash.update(chunk);
        size += chunk.length;
        return true;
      },
      end: resolve,
    }, {
      next() {
        if (++asked % 3 === 0 || offered + 65536 > arena.length) return null;
        const region = arena.subarray(offered, offered + 65536);
        offered += 65536;
        return region;
      },
      filled(buffer, length) {
        current = buffer.buffer === arena.buffer ? buffer : null;
        if (length > buffer.length) strays.push(`filled ${length} into ${buffer.length}`);
      },
    }).then((taken) => taken ?? reject(new Error('not taken')), reject);
  });
  return { size, sha1: hash.digest('hex'), inArena, strays };
}

function multipart(file: Buffer) {
  const head = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  return Buffer.concat([head, file, Buffer.from(`\r\n--${B}--\r\n`)]);
}
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(path: string, body: Buffer, options: { chunked?: boolean; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': `multipart/form-data; boundary=${B}` };
    if (!options.chunked) headers['content-length'] = body.length;
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: options.agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    if (options.chunked) {
      for (let at = 0; at < body.length; at += 100_000) req.write(body.subarray(at, at + 100_000));
      req.end();
    } else req.end(body);
  });
}

/** Writes raw bytes on one connection; everything the server answers until it closes. */
function raw(bytes: Buffer[], after: 'end' | 'destroy' | 'wait'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    socket.on('connect', () => {
      for (const b of bytes) socket.write(b);
      if (after === 'end') socket.end();
      else if (after === 'destroy') setTimeout(() => socket.destroy(), 100);
    });
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('takeBody', () => {
  it('delivers a Content-Length body byte for byte and closes the connection after the reply', async () => {
    const file = randomBytes(5 * 1024 * 1024 + 17);
    const answer = await post('/upload', multipart(file));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ taken: true, sha1: sha1(file), size: file.length });
    expect(answer.headers.connection).toBe('close');
  });

  it('lets a keep-alive client go on with a new connection after an upload', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const file = randomBytes(300_000);
      const first = await post('/upload', multipart(file), { agent });
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body).sha1).toBe(sha1(file));
      const second = await post('/upload', multipart(file), { agent });
      expect(second.status).toBe(200);
      expect(JSON.parse(second.body)).toEqual({ taken: true, sha1: sha1(file), size: file.length });
    } finally {
      agent.destroy();
    }
  });

  it('drops a request pipelined after the body with the connection', async () => {
    const file = randomBytes(200_000);
    const body = multipart(file);
    const head = Buffer.from(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length}\r\n\r\n`);
    const text = await raw([head, body, Buffer.from('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n')], 'wait');
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).not.toContain('pong');
    expect(last).toEqual({ taken: true, sha1: sha1(file), size: file.length });
  });

  it('leaves a chunked body to Node (and keeps the connection)', async () => {
    const file = randomBytes(1024 * 1024);
    const answer = await post('/upload', multipart(file), { chunked: true });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ taken: false, sha1: sha1(file), size: file.length });
    expect(answer.headers.connection).not.toBe('close');
  });

  it('fails the read when the client goes away midway', async () => {
    last = null;
    const body = multipart(randomBytes(4 * 1024 * 1024));
    const head = Buffer.from(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length}\r\n\r\n`);
    await raw([head, body.subarray(0, body.length >> 1)], 'destroy');
    await until(() => last?.error !== undefined);
    expect(last).toMatchObject({ taken: true, error: expect.stringContaining('upload aborted') });
  });

  it('fails the read when the client sends less than it declared and closes its side', async () => {
    last = null;
    const body = multipart(randomBytes(1024 * 1024));
    const head = Buffer.from(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length + 1000}\r\n\r\n`);
    const text = await raw([head, body], 'end');
    await until(() => last?.error !== undefined);
    expect(last).toMatchObject({ taken: true, error: expect.stringContaining('upload aborted') });
    expect(text).not.toContain('HTTP/1.1 200');
  });

  it('answers an oversized file 413 and closes the connection', async () => {
    const body = multipart(randomBytes(3 * 1024 * 1024));
    const head = Buffer.from(`POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${body.length}\r\n\r\n`);
    const text = await raw([head, body], 'wait');
    expect(text.startsWith('HTTP/1.1 413')).toBe(true);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(last).toMatchObject({ taken: true, error: 'request body too large' });
  });

  it('gives the same bytes as the normal path', async () => {
    const file = randomBytes(2 * 1024 * 1024 + 3);
    const plain = JSON.parse((await post('/plain', multipart(file))).body);
    const taken = JSON.parse((await post('/upload', multipart(file))).body);
    expect(plain).toEqual({ taken: false, sha1: sha1(file), size: file.length });
    expect(taken).toEqual({ ...plain, taken: true });
  });

  it('reads into the memory a caller offers, and into its own buffer when offered none', async () => {
    const file = randomBytes(3 * 1024 * 1024 + 11);
    const body = multipart(file);
    const r = JSON.parse((await post('/buffers', body)).body);
    expect(r.size).toBe(body.length);
    expect(r.sha1).toBe(sha1(body));
    expect(r.strays).toEqual([]);
    // Most bytes landed in the offered regions; the rest in the reads that found none.
    expect(r.inArena).toBeGreaterThan(body.length / 3);
    expect(r.inArena).toBeLessThan(body.length);
  });

  it('takes nothing from a request without a socket of its own or already being read', async () => {
    const other = Fastify();
    let seen: unknown[] = [];
    other.post('/', async (req, reply) => {
      seen = [await takeBody(req.raw, reply.raw, { data: () => true, end: () => undefined })];
      return { ok: true };
    });
    other.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    await other.inject({ method: 'POST', url: '/', payload: 'x'.repeat(1000), headers: { 'content-type': 'text/plain' } });
    expect(seen).toEqual([null]);
    await other.close();

    const reading = Fastify();
    reading.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    reading.post('/', async (req, reply) => {
      req.raw.on('data', () => undefined);
      seen = [await takeBody(req.raw, reply.raw, { data: () => true, end: () => undefined })];
      return { ok: true };
    });
    await reading.listen({ port: 0, host: '127.0.0.1' });
    const readingPort = (reading.server.address() as AddressInfo).port;
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: readingPort, method: 'POST', path: '/', headers: { 'content-type': 'text/plain' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(Buffer.alloc(100_000, 1));
    });
    expect(seen).toEqual([null]);
    await reading.close();
  });
});
