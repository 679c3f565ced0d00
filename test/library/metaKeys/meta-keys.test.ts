import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corruptMeta } from '../../helpers/fixtures.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

async function create(path: string, body: Record<string, unknown>): Promise<number> {
  const r = await lib.json<{ ID: number }>('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID;
}

describe('metadata keys', () => {
  it('lists distinct top-level keys per entity table, alphabetically', async () => {
    await create('/v1/group', { Name: 'g1', Meta: '{"zeta":1,"alpha":{"nested":true},"with space":true}' });
    await create('/v1/group', { Name: 'g2', Meta: '{"alpha":2,"beta":null}' });
    // A stored meta that is not an object contributes no keys (and breaks nothing).
    await corruptMeta(lib, 'groups', await create('/v1/group', { Name: 'g3' }), '[1,2]');
    await create('/v1/note', { Name: 'n', Meta: '{"mood":"ok"}' });
    expect((await upload(lib, [{ name: 'r.png', data: await png(8, 8), type: 'image/png' }], { Meta: '{"iso":100}' })).status).toBe(200);

    expect((await lib.json('GET', '/v1/groups/meta/keys')).body).toEqual([{ key: 'alpha' }, { key: 'beta' }, { key: 'with space' }, { key: 'zeta' }]);
    expect((await lib.json('GET', '/v1/notes/meta/keys')).body).toEqual([{ key: 'mood' }]);
    const res = await lib.json('GET', '/v1/resources/meta/keys');
    expect(res.body).toEqual([{ key: 'iso' }]);
    expect(res.headers.get('cache-control')).toBe('max-age=259200');
  });
});
