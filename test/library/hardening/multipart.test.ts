// Issue 12, defect 1: a multipart body the parser cannot read (no boundary, garbage, truncated,
// too many parts, an oversized field) is the client's fault: 4xx with {error} on every write
// route, never a 500, and the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
const writes: { method: string; path: string }[] = [];
beforeAll(async () => {
  lib = await startTestLibrary(['-max-json-body', '65536']);
  const spec = (await lib.json<{ paths: Record<string, Record<string, unknown>> }>('GET', '/v1/openapi.json')).body;
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const method of Object.keys(ops)) {
      if (method === 'get' || path.includes('{')) continue;
      writes.push({ method: method.toUpperCase(), path });
    }
  }
});
afterAll(async () => lib?.close());

async function send(method: string, path: string, contentType: string, body: string | Buffer): Promise<{ status: number; body: unknown }> {
  const res = await lib.fetch(path, { method, headers: { 'content-type': contentType, accept: 'application/json' }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed };
}

function expectClientError(r: { status: number; body: unknown }, what: string): void {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
  expect(typeof (r.body as { error?: unknown }).error, what).toBe('string');
}

const B = 'xBoundaryx';
const part = (name: string, value: string, filename?: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n${value}\r\n`;

describe('multipart bodies the parser cannot read', () => {
  it('finds the write routes of the OpenAPI description', () => {
    expect(writes.length).toBeGreaterThan(100);
  });

  it('answers 4xx {error} on every write route for a multipart body without a boundary', async () => {
    for (const { method, path } of writes) {
      expectClientError(await send(method, path, 'multipart/form-data', 'x'), `${method} ${path}`);
    }
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  });

  it('answers 4xx {error} for garbage, a truncated part, too many parts and an oversized field', async () => {
    const bodies: [string, string][] = [
      ['garbage', 'not multipart at all'],
      ['truncated part', `--${B}\r\nContent-Disposition: form-data; name="Name"\r\n\r\nhalf`],
      ['broken part header', `--${B}\r\nContent-Disposition\r\n\r\nv\r\n--${B}--\r\n`],
      ['too many parts', Array.from({ length: 1200 }, (_, i) => part(`f${i}`, 'v')).join('') + `--${B}--\r\n`],
      ['field over the JSON limit', part('Name', 'x'.repeat(70_000)) + `--${B}--\r\n`],
    ];
    for (const path of ['/v1/tag', '/v1/note', '/v1/resource', '/v1/resource/versions', '/v1/groups/import/parse']) {
      for (const [what, body] of bodies) {
        expectClientError(await send('POST', path, `multipart/form-data; boundary=${B}`, body), `${what} on ${path}`);
      }
    }
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  });

  it('still reads a well-formed multipart write', async () => {
    const r = await send('POST', '/v1/tag', `multipart/form-data; boundary=${B}`, part('Name', 'from-multipart') + `--${B}--\r\n`);
    expect(r.status).toBe(200);
    expect((r.body as { Name: string }).Name).toBe('from-multipart');
  });
});
