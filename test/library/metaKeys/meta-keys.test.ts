import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

const now = () => new Date().toISOString();

describe('metadata keys', () => {
  it('lists distinct top-level keys per entity table, alphabetically', async () => {
    const db = lib.lib.db;
    await db.insertInto('groups').values({ created_at: now(), updated_at: now(), name: 'g1', meta: '{"zeta":1,"alpha":{"nested":true}}' } as never).execute();
    await db.insertInto('groups').values({ created_at: now(), updated_at: now(), name: 'g2', meta: '{"alpha":2,"beta":null}' } as never).execute();
    await db.insertInto('notes').values({ created_at: now(), updated_at: now(), name: 'n', meta: '{"mood":"ok"}' } as never).execute();
    const rc = await db.selectFrom('resource_categories').select('id').executeTakeFirstOrThrow();
    await db.insertInto('resources').values({ created_at: now(), updated_at: now(), name: 'r', resource_category_id: rc.id, meta: '{"iso":100}', own_meta: '{}' } as never).execute();

    expect((await lib.json('GET', '/v1/groups/meta/keys')).body).toEqual([{ key: 'alpha' }, { key: 'beta' }, { key: 'zeta' }]);
    expect((await lib.json('GET', '/v1/notes/meta/keys')).body).toEqual([{ key: 'mood' }]);
    const res = await lib.json('GET', '/v1/resources/meta/keys');
    expect(res.body).toEqual([{ key: 'iso' }]);
    expect(res.headers.get('cache-control')).toBe('max-age=259200');
  });
});
