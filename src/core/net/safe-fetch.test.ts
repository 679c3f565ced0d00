import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { BlockList } from 'node:net';
import { text } from 'node:stream/consumers';
import { FetchError, ForbiddenAddressError, safeFetch, TooManyRedirectsError } from './safe-fetch.js';
import { isForbiddenAddress, parseAllowList, type AddressPolicy } from './addresses.js';

const open: AddressPolicy = { allowPrivate: true, allowed: new BlockList() };
const strict: AddressPolicy = { allowPrivate: false, allowed: new BlockList() };

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hello') return res.end('hello');
    if (req.url === '/hop') return res.writeHead(302, { location: '/hello' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') return res.writeHead(200, { 'content-length': '100' }).end('x'.repeat(100));
    if (req.url === '/chunked-big') {
      res.write('x'.repeat(60));
      setTimeout(() => res.end('x'.repeat(60)), 20);
      return;
    }
    if (req.url === '/stall') {
      res.writeHead(200);
      res.write('a');
      return; // never ends
    }
    if (req.url === '/silent') return; // never answers
    res.writeHead(404).end('nope');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function failure(p: Promise<unknown>): Promise<FetchError> {
  try {
    await p;
  } catch (e) {
    return e as FetchError;
  }
  throw new Error('expected the fetch to fail');
}

describe('address policy', () => {
  it('refuses private, loopback, link-local, CGNAT and metadata addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '168.63.129.16', '224.0.0.1']) {
      expect(isForbiddenAddress(ip, strict), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isForbiddenAddress(ip, strict), ip).toBe(false);
  });

  it('lets listed addresses through and refuses over-wide or malformed entries', () => {
    const policy = { allowPrivate: false, allowed: parseAllowList(['10.0.0.0/8', '192.168.1.5']) };
    expect(isForbiddenAddress('10.9.9.9', policy)).toBe(false);
    expect(isForbiddenAddress('192.168.1.5', policy)).toBe(false);
    expect(isForbiddenAddress('192.168.1.6', policy)).toBe(true);
    for (const bad of ['0.0.0.0/0', '10.0.0.0/7', 'fd00::/8', 'example.com', '10.0.0.0/8/1']) expect(() => parseAllowList([bad])).toThrow();
  });
});

describe('safeFetch', () => {
  it('fetches and follows redirects', async () => {
    const res = await safeFetch(`${base}/hop`, { policy: open });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/hello`);
    expect(await text(res.body)).toBe('hello');
  });

  it('refuses loopback literals and names that resolve to loopback', async () => {
    const literal = await failure(safeFetch(`${base}/hello`, { policy: strict }));
    expect(literal).toBeInstanceOf(ForbiddenAddressError);
    expect(literal.reason).toBe('blocked');
    const port = new URL(base).port;
    // Refused at DNS time: the error crosses the socket's lookup callback as the same object.
    const byName = await failure(safeFetch(`http://localhost:${port}/hello`, { policy: strict }));
    expect(byName).toBeInstanceOf(ForbiddenAddressError);
    expect(byName.reason).toBe('blocked');
    expect(byName.message).not.toContain('127.0.0.1');
  });

  it('refuses other schemes and endless redirects', async () => {
    expect((await failure(safeFetch('file:///etc/passwd', { policy: open }))).reason).toBe('unsupported');
    expect(await failure(safeFetch(`${base}/loop`, { policy: open, maxRedirects: 3 }))).toBeInstanceOf(TooManyRedirectsError);
  });

  it('caps the size by header and while streaming', async () => {
    expect((await failure(safeFetch(`${base}/big`, { policy: open, maxBytes: 50 }))).reason).toBe('limit');
    const res = await safeFetch(`${base}/chunked-big`, { policy: open, maxBytes: 100 });
    expect((await failure(text(res.body))).reason).toBe('limit');
  });

  it('times out a silent server and a stalled body', async () => {
    expect((await failure(safeFetch(`${base}/silent`, { policy: open, connectTimeoutMs: 100 }))).reason).toBe('timeout');
    const res = await safeFetch(`${base}/stall`, { policy: open, idleTimeoutMs: 100 });
    expect((await failure(text(res.body))).reason).toBe('timeout');
    const whole = await safeFetch(`${base}/stall`, { policy: open, overallTimeoutMs: 150 });
    expect((await failure(text(whole.body))).reason).toBe('timeout');
  });
});
