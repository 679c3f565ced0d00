// Issue 12, defect 7: JSON bodies are bounded by default (16 MiB), so concurrent large bodies
// cannot take the server's memory; a multipart text field has the same bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

const big = () => JSON.stringify({ Name: 'big', Description: 'x'.repeat(17 * 1024 * 1024) });

describe('the default JSON body limit', () => {
  it('answers 413 {error} to a JSON body over 16 MiB and creates nothing', async () => {
    const r = await lib.fetch('/v1/note', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: big() });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: string }).error).toMatch(/too large/);
    expect((await lib.json<unknown[]>('GET', '/v1/notes')).body).toEqual([]);
  });

  it('answers 413 to a multipart text field over the same limit', async () => {
    const form = new FormData();
    form.append('Name', 'x'.repeat(17 * 1024 * 1024));
    const r = await lib.fetch('/v1/tag', { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: string }).error).toMatch(/too large/);
  });

  it('accepts a body under the limit', async () => {
    const r = await lib.json('POST', '/v1/note', { Name: 'fits', Description: 'x'.repeat(1024 * 1024) });
    expect(r.status).toBe(200);
  });
});
