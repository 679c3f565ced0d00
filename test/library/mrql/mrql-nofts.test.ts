// MRQL on a server started with -skip-fts (mrql.md §6.19, §9.4; T330, T331).
process.env.TZ = 'UTC';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';

let t: TestLibrary;
beforeAll(async () => {
  t = await startTestLibrary(['-skip-fts']);
  await loadFixture(t);
});
afterAll(async () => t?.close());

it('T330: ORDER BY RANK needs the full-text index', async () => {
  const r = await t.json<{ error: string }>('POST', '/v1/mrql', { query: 'type = resource AND TEXT ~ "light" ORDER BY RANK' });
  expect(r.status).toBe(400);
  expect(r.body.error).toContain('ORDER BY RANK requires the full-text index (server started with FTS disabled)');
});

it('T331: TEXT falls back to a substring match on name and description', async () => {
  const r = await t.json<{ resources: { ID: number }[] }>('POST', '/v1/mrql', { query: 'type = resource AND TEXT ~ "evening light"' });
  expect(r.body.resources.map((x) => x.ID)).toEqual([2]);
});
