// Issue 12 for the clip service: multipart bodies the parser cannot read are answered 4xx {error}
// on every route, JSON routes included, and the service keeps answering.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartHead, openFilePart, stallBody } from '../helpers/slow-client.js';
import { API, fixtureF, startTestClips, type FixtureF, type TestClips } from './helper.js';

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips(['--request-body-idle-timeout-ms', '400', '--request-headers-timeout-ms', '2000', '--request-timeout-ms', '3000']);
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const B = 'xBoundaryx';
const ROUTES: [string, string][] = [
  ['POST', '/tags'],
  ['PUT', '/clips/1'],
  ['POST', '/clips'],
  ['POST', '/clips/bulk/archive'],
  ['POST', '/keys'],
  ['POST', '/backup/restore'],
  ['POST', '/watch'],
];

function expectClientError(r: { status: number; text: string; body: unknown }, what: string): void {
  expect(r.status, `${what}: ${r.text}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${r.text}`).toBeLessThan(500);
  expect(typeof (r.body as { error?: unknown }).error, `${what}: ${r.text}`).toBe('string');
}

describe('multipart bodies the parser cannot read', () => {
  it('answers 4xx {error} for a multipart body without a boundary', async () => {
    for (const [method, path] of ROUTES) {
      expectClientError(await t.raw(f.KA, method, path, 'x', { 'content-type': 'multipart/form-data' }), `${method} ${path}`);
    }
    expect((await t.req(f.KA, 'GET', '/tags')).status).toBe(200);
  });

  it('answers the contract\'s 400 "failed to read multipart data" on upload and restore, whatever the parser\'s reason', async () => {
    const truncated = `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf`;
    const brokenHeader = `--${B}\r\nContent-Disposition\r\n\r\nv\r\n--${B}--\r\n`;
    for (const [path, what, body] of [
      ['/clips', 'truncated', truncated],
      ['/clips', 'broken part header', brokenHeader],
      ['/backup/restore', 'truncated', truncated],
    ]) {
      const r = await t.raw(f.KA, 'POST', path, body, { 'content-type': `multipart/form-data; boundary=${B}` });
      expect({ status: r.status, body: r.body }, `${what} on ${path}`).toEqual({ status: 400, body: { error: 'failed to read multipart data' } });
    }
  });

  it('answers 4xx {error} for garbage, a broken part header, a truncated body and too many parts', async () => {
    const bodies: [string, string][] = [
      ['garbage', 'not multipart at all'],
      ['broken part header', `--${B}\r\nContent-Disposition\r\n\r\nv\r\n--${B}--\r\n`],
      ['truncated', `--${B}\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf`],
      ['too many parts', Array.from({ length: 1200 }, (_, i) => `--${B}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('') + `--${B}--\r\n`],
    ];
    for (const [method, path] of ROUTES) {
      for (const [what, body] of bodies) {
        // The first part is the clip; what follows it is read and dropped (companion §3.4).
        if (path === '/clips' && what === 'too many parts') continue;
        expectClientError(await t.raw(f.KA, method, path, body, { 'content-type': `multipart/form-data; boundary=${B}` }), `${what} on ${method} ${path}`);
      }
    }
    expect((await t.req(f.KA, 'GET', '/tags')).status).toBe(200);
  });
});

describe('stalled and abandoned request bodies', () => {
  const leftovers = async () => {
    const list = () => readdirSync(join(t.dataDir, 'tmp'));
    for (let i = 0; i < 100 && list().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return list();
  };
  const head = (path: string) => multipartHead(`${API}${path}`, new URL(t.url).host, B, [`Authorization: Bearer ${f.KA}`]);

  for (const path of ['/clips', '/backup/restore']) {
    it(`closes a stalled upload to ${path} with 408 and leaves no temp file`, async () => {
      const { answer } = await stallBody(t.url, head(path), openFilePart(B, 'file', 'big.bin'));
      expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer.slice(0, 200)).toBe(true);
      expect(await leftovers()).toEqual([]);
    });

    it(`cleans up after a client that hangs up mid-upload to ${path}`, async () => {
      await stallBody(t.url, head(path), openFilePart(B, 'file', 'big.bin'), 100);
      expect(await leftovers()).toEqual([]);
    });
  }

  it('closes a JSON body that stops arriving, and keeps serving', async () => {
    const jsonHead = [`POST ${API}/tags HTTP/1.1`, `Host: ${new URL(t.url).host}`, `Authorization: Bearer ${f.KA}`, 'Content-Type: application/json', 'Content-Length: 1000'].join('\r\n');
    const { answer } = await stallBody(t.url, jsonHead, '{"name": "slo');
    expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer.slice(0, 200)).toBe(true);
    expect((await t.req(f.KA, 'GET', '/tags')).status).toBe(200);
  });
});
