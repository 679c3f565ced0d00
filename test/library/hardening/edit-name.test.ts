// Issue 12, defect 2: an inline rename to a name another record already has is a 409 conflict
// (as create and update are), and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary();
});
afterAll(async () => lib?.close());

const KINDS: { base: string; list: string; extra?: () => Promise<Record<string, unknown>> }[] = [
  { base: '/v1/tag', list: '/v1/tags' },
  { base: '/v1/category', list: '/v1/categories' },
  { base: '/v1/resourceCategory', list: '/v1/resourceCategories' },
  { base: '/v1/query', list: '/v1/queries', extra: async () => ({ Text: 'SELECT 1' }) },
  {
    base: '/v1/relationType',
    list: '/v1/relationTypes',
    extra: async () => {
      const c = await lib.json<{ ID: number }>('POST', '/v1/category', { Name: `for relations ${Math.random()}` });
      return { FromCategory: c.body.ID, ToCategory: c.body.ID };
    },
  },
];

describe('editName to a taken name', () => {
  for (const { base, list, extra } of KINDS) {
    it(`answers 409 on ${base}/editName and keeps both names`, async () => {
      const fields = extra ? await extra() : {};
      const a = await lib.json<{ ID: number }>('POST', base, { Name: `first ${base}`, ...fields });
      const b = await lib.json<{ ID: number }>('POST', base, { Name: `second ${base}`, ...fields });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      expect(b.status, JSON.stringify(b.body)).toBe(200);
      const r = await lib.json<{ error: string }>('POST', `${base}/editName?id=${b.body.ID}`, { Name: `first ${base}` });
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(typeof r.body.error).toBe('string');
      const rows = (await lib.json<{ ID: number; Name: string }[]>('GET', list)).body;
      expect(rows.find((row) => row.ID === b.body.ID)?.Name).toBe(`second ${base}`);
      expect(rows.find((row) => row.ID === a.body.ID)?.Name).toBe(`first ${base}`);
    });
  }
});
