// Issue 12, defect 3: a multipart upload whose body stops arriving (the client keeps the socket
// open) or whose client hangs up mid-body is cut off by the idle-body timeout: the connection is
// closed (after a 408), and no staged `.part` file or import upload folder is left behind.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { Header } from 'tar';
import { multipartHead, openFilePart, stallBody, stallRaw } from '../../helpers/slow-client.js';

let lib: TestLibrary;
let resourceId: number;
beforeAll(async () => {
  lib = await startTestLibrary(['-request-body-idle-timeout', '400ms', '-request-timeout', '3s', '-request-headers-timeout', '2s']);
  const form = new FormData();
  form.append('resource', new Blob([Buffer.from('first version')]), 'a.txt');
  const r = await lib.fetch('/v1/resource', { method: 'POST', body: form, headers: { accept: 'application/json' } });
  resourceId = ((await r.json()) as { ID: number }[])[0].ID;
});
afterAll(async () => lib?.close());

const B = 'stallBoundary';
const host = () => new URL(lib.url).host;

/** Files under the store's temp folder and import uploads, polled until gone (bounded). */
async function leftovers(): Promise<string[]> {
  const list = () => {
    const dirs = [join(lib.dir, 'files', '.tmp'), join(lib.dir, 'files', '_imports')];
    return dirs.flatMap((d) => (existsSync(d) ? readdirSync(d).map((f) => join(d, f)) : []));
  };
  for (let i = 0; i < 100 && list().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  return list();
}

/** A file part that never ends; for the import, the start of a well-formed archive. */
function openPart(field: string, importArchive: boolean): string | Buffer {
  if (!importArchive) return openFilePart(B, field, 'big.bin');
  const header = new Header({ path: 'manifest.json', size: 1_000_000, type: 'File', mode: 0o644, mtime: new Date(0) });
  const block = Buffer.alloc(512);
  header.encode(block, 0);
  return Buffer.concat([Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="a.tar"\r\nContent-Type: application/x-tar\r\n\r\n`), block, Buffer.from('{"schema_version": 1, "x": "' + 'x'.repeat(100_000))]);
}

const UPLOADS: [string, string][] = [
  ['/v1/resource', 'resource'],
  ['/v1/resource/versions?resourceId=RID', 'file'],
  ['/v1/groups/import/parse', 'file'],
];

describe('stalled and abandoned request bodies', () => {
  for (const [path, field] of UPLOADS) {
    it(`closes a stalled upload to ${path.replace(/\?.*/, '')} with 408 and leaves no staged file`, async () => {
      const target = path.replace('RID', String(resourceId));
      const { answer } = await stallBody(lib.url, multipartHead(target, host(), B), openPart(field, path.includes('import')));
      expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer.slice(0, 200)).toBe(true);
      expect(await leftovers()).toEqual([]);
    });

    it(`cleans up after a client that hangs up mid-upload to ${path.replace(/\?.*/, '')}`, async () => {
      const target = path.replace('RID', String(resourceId));
      await stallBody(lib.url, multipartHead(target, host(), B), openPart(field, path.includes('import')), 100);
      expect(await leftovers()).toEqual([]);
    });
  }

  it('closes a JSON body that stops arriving', async () => {
    const head = [`POST /v1/tag HTTP/1.1`, `Host: ${host()}`, 'Content-Type: application/json', 'Content-Length: 1000'].join('\r\n');
    const { answer } = await stallBody(lib.url, head, '{"Name": "slo');
    expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer.slice(0, 200)).toBe(true);
  });

  it('closes a connection whose headers never finish', async () => {
    const { answer } = await stallRaw(lib.url, `GET /v1/tags HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: 1`);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer.slice(0, 200)).toBe(true);
  });

  it('keeps serving', async () => {
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  });
});
