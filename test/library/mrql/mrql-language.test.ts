// Every language case of mrql.md §25.1–25.9 against the fixture of §24, run through the engine
// (parser, validator, translator, execution) on the test database (SQLite or PostgreSQL).
process.env.TZ = 'UTC';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import type { MrqlEngine, MrqlResult } from '../../../src/library/mrql/engine.js';
import { MrqlError } from '../../../src/library/mrql/errors.js';
import { parseFilter, parseQuery } from '../../../src/library/mrql/parser.js';
import { validateQuery } from '../../../src/library/mrql/validate.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';
import { ACCEPTED, MATCHING, REJECTED_PARSE, REJECTED_VALIDATION, rep, type Case } from './mrql-cases.js';

let t: TestLibrary;
let engine: MrqlEngine;

beforeAll(async () => {
  // The §25 fixtures assume no average-hash check unless a case sets one (T174).
  t = await startTestLibrary(['-hash-ahash-threshold', '0']);
  await loadFixture(t);
  engine = t.mrql.service.engine;
});
afterAll(async () => t?.close());

function labels(r: MrqlResult): string[] {
  if ('mode' in r) throw new Error('grouped result');
  return [...r.resources.map((x) => `R${x.ID}`), ...r.notes.map((x) => `N${x.ID}`), ...r.groups.map((x) => `G${x.ID}`)];
}

async function errorOf(work: () => unknown): Promise<MrqlError> {
  try {
    await work();
  } catch (e) {
    if (e instanceof MrqlError) return e;
    throw e;
  }
  throw new Error('expected an MRQL error');
}

async function check([, query, exp]: Case): Promise<void> {
  if ('P' in exp || 'V' in exp) {
    const [pos, len, msg] = 'P' in exp ? exp.P : exp.V;
    // Queries with placeholders are checked the way validate and save see them: unbound.
    const e = await errorOf(() => (query.includes('$') && 'V' in exp ? validateQuery(parseQuery(query)) : engine.execute(query)));
    expect({ kind: e.kind, pos: e.position, len: e.length, msg: e.bare }).toEqual({ kind: 'P' in exp ? 'parse' : 'validation', pos, len, msg });
  } else if ('parses' in exp) {
    expect(() => parseQuery(query)).not.toThrow();
  } else if ('valid' in exp) {
    expect(() => validateQuery(parseQuery(query))).not.toThrow();
  } else if ('set' in exp) {
    expect(labels(await engine.execute(query)).sort()).toEqual([...exp.set].sort());
  } else {
    expect(labels(await engine.execute(query))).toEqual(exp.list);
  }
}

describe('§25.1 lexing and parsing — accepted', () => {
  for (const c of ACCEPTED) it(`${c[0]}: ${c[1].slice(0, 80)}`, () => check(c));
  it('T14: IN with 500 values (filter, resource)', () => {
    expect(() => parseFilter(`id IN (${rep('1', 500, ',')})`)).not.toThrow();
  });
  it('T9: 1.5MB is 1572864 bytes', async () => {
    const x = await engine.explain('type = resource AND fileSize > 1.5MB', {}, false);
    expect((x.statements as { vars: unknown[] }[])[0].vars).toContain(1572864);
  });
  it('T16/T17: escapes', () => {
    const q = parseQuery('type = resource AND name = "O\\"Brien \\\\ x" AND name ~ "\\.tmp"');
    const w = q.where as { left: { right: { value: { v: string } } }; right: { value: { v: string } } };
    expect(w.left.right.value.v).toBe('O"Brien \\ x');
    expect(w.right.value.v).toBe('\\.tmp');
  });
});

describe('§25.2 lexing and parsing — rejected', () => {
  for (const c of REJECTED_PARSE) it(`${c[0]}: ${c[1].slice(0, 80)}`, () => check(c));
  it('T50: 501 IN values (filter, resource)', async () => {
    const e = await errorOf(() => parseFilter(`id IN (${rep('1', 501, ',')})`));
    expect([e.position, e.length, e.bare]).toEqual([1007, 1, 'IN list exceeds maximum of 500 values']);
  });
});

describe('§25.3 validation — rejected', () => {
  for (const c of REJECTED_VALIDATION) it(`${c[0]}: ${c[1].slice(0, 80)}`, () => check(c));
});

describe('§25.4–25.8 matching', () => {
  for (const c of MATCHING) it(`${c[0]}: ${c[1].slice(0, 90)}`, () => check(c));

  it('T174: hash_ahash_threshold 5 drops pairs with a larger aHash distance', async () => {
    await t.lib.settings.set('hash_ahash_threshold', '5', 'T174');
    try {
      const r = await engine.execute('type = resource AND SIMILAR TO resource(2) WITHIN 11');
      expect(labels(r)).toEqual(['R1']);
    } finally {
      await t.lib.settings.reset('hash_ahash_threshold');
    }
  });

  it('T187: LIMIT 0 reports applied_limit 0', async () => {
    const r = await engine.execute('type = resource LIMIT 0');
    expect(r).toMatchObject({ applied_limit: 0, default_limit_applied: false });
  });

  it.runIf(TEST_DB === 'postgres')('T188: regex on PostgreSQL', async () => {
    expect(labels(await engine.execute('type = resource AND name ~* "^sun(rise|set)\\."')).sort()).toEqual(['R1', 'R2']);
  });

  it.runIf(TEST_DB === 'sqlite')('T189/T190: regex is refused on SQLite, also cross-entity', async () => {
    for (const q of ['type = resource AND name ~* "x"', 'name ~* "x" LIMIT 1']) {
      const e = await errorOf(() => engine.execute(q));
      expect(e.message).toContain('regex match (~*) requires PostgreSQL');
    }
  });

  it('T238–T241: scope errors', async () => {
    let e = await errorOf(() => engine.execute('type = resource SCOPE 99'));
    expect([e.status, e.message]).toEqual([404, 'scope group not found: id 99']);
    e = await errorOf(() => engine.execute('type = resource SCOPE "Nowhere"'));
    expect([e.status, e.message]).toEqual([404, 'scope group not found: "Nowhere"']);
    e = await errorOf(() => engine.execute('type = resource SCOPE 3.5'));
    expect([e.status, e.message]).toEqual([400, 'SCOPE requires an integer group ID, got 3.5']);
  });

  it('T243: a confined principal ignores the written SCOPE', async () => {
    const principal = { userId: 9, username: 'c', role: 'user' as const, scopeGroupId: 2, superUser: false };
    for (const q of ['type = resource SCOPE 1', 'type = resource SCOPE 99']) {
      expect(labels(await engine.execute(q, { principal })).sort()).toEqual(['R1', 'R2']);
    }
  });

  it('T245: cross-entity merge order and counts', async () => {
    const r = (await engine.execute('name ~ "t" ORDER BY name LIMIT 4')) as Extract<MrqlResult, { counts: unknown }>;
    expect(r.entityType).toBe('all');
    expect(r.counts).toEqual({ resources: 2, notes: 0, groups: 2 });
  });
});

describe('§25.9 GROUP BY', () => {
  const rows = async (q: string, opts = {}) => {
    const r = await engine.execute(q, opts);
    if (!('mode' in r) || r.mode !== 'aggregated') throw new Error('not aggregated');
    return r;
  };
  const buckets = async (q: string, opts = {}) => {
    const r = await engine.execute(q, opts);
    if (!('mode' in r) || r.mode !== 'bucketed') throw new Error('not bucketed');
    return r;
  };
  const ids = (items: Record<string, unknown>[]) => items.map((x) => `R${String(x.ID)}`);

  it('T252', async () => {
    const r = await rows('type = resource GROUP BY contentType COUNT() ORDER BY contentType');
    expect(r.columns).toEqual(['contentType', 'count']);
    expect(r.rows).toEqual(['application/pdf', 'image/jpeg', 'image/png', 'text/plain', 'video/mp4'].map((c) => ({ contentType: c, count: 1 })));
  });
  it('T253', async () => {
    const r = await rows('type = resource GROUP BY category COUNT() SUM(fileSize) ORDER BY category');
    expect(r.rows).toEqual([
      { category: 1, count: 3, sum_fileSize: 3223725472 },
      { category: 2, count: 2, sum_fileSize: 120900 },
    ]);
  });
  it('T254', async () => {
    expect((await rows('type = resource GROUP BY hash COUNT() HAVING COUNT() > 1')).rows).toEqual([{ hash: 'h1', count: 2 }]);
  });
  it('T255', async () => {
    expect((await rows('type = resource GROUP BY tags COUNT() ORDER BY count DESC, tags')).rows).toEqual([
      { tags: null, count: 2 },
      { tags: 'red', count: 2 },
      { tags: 'blue', count: 1 },
      { tags: 'green', count: 1 },
    ]);
  });
  it('T256', async () => {
    expect((await rows('type = note GROUP BY owner COUNT() ORDER BY owner')).rows).toEqual([
      { owner: null, count: 1 },
      { owner: 'Alpha', count: 1 },
      { owner: 'Studio', count: 1 },
    ]);
  });
  it('T257', async () => {
    expect((await rows('type = resource GROUP BY created.month COUNT() ORDER BY created.month')).rows).toEqual([
      { 'created.month': '2023-12', count: 1 },
      { 'created.month': '2024-03', count: 2 },
      { 'created.month': '2024-06', count: 1 },
      { 'created.month': '2025-01', count: 1 },
    ]);
  });
  it('T258', async () => {
    expect((await rows('type = resource GROUP BY created.week COUNT() ORDER BY created.week')).rows).toEqual(
      ['2023-12-25', '2024-03-04', '2024-03-11', '2024-05-27', '2025-01-13'].map((w) => ({ 'created.week': w, count: 1 })),
    );
  });
  it('T259', async () => {
    const r = await rows('type = resource GROUP BY group, groups COUNT() ORDER BY group');
    expect(r.columns).toEqual(['group', 'count']);
    expect(r.rows).toEqual([
      { group: null, count: 2 },
      { group: 'Projects', count: 2 },
      { group: 'Studio', count: 2 },
    ]);
  });
  it('T260', async () => {
    expect((await rows('type = resource GROUP BY contentType MIN(created) MAX(fileSize) HAVING MAX(fileSize) > 1mb ORDER BY contentType')).rows).toEqual([
      { contentType: 'image/jpeg', min_created: '2024-03-10T12:00:00Z', max_fileSize: 2000000 },
      { contentType: 'video/mp4', min_created: '2024-03-11T12:00:00Z', max_fileSize: 3221225472 },
    ]);
  });
  it('T261', async () => {
    const r = await rows('type = resource GROUP BY meta.rating COUNT() ORDER BY meta.rating');
    expect(r.rows.map((x) => x['meta.rating'])).toEqual([null, 3, 4.5, 5, 'high']);
  });
  it('T262', async () => {
    const r = await rows('type = resource GROUP BY contentType COUNT() ORDER BY contentType', { limit: 2, page: 2 });
    expect(r.rows.map((x) => x.contentType)).toEqual(['image/png', 'text/plain']);
    expect(r.applied_limit).toBe(2);
  });
  it('T263', async () => {
    const r = await buckets('type = resource GROUP BY contentType LIMIT 1');
    expect(r.keyColumns).toEqual(['contentType']);
    expect(r.buckets.map((b) => [b.key.contentType, ids(b.items)])).toEqual([
      ['application/pdf', ['R3']],
      ['image/jpeg', ['R1']],
      ['image/png', ['R2']],
      ['text/plain', ['R4']],
      ['video/mp4', ['R5']],
    ]);
    expect(r.totalGroups).toBe(5);
    expect(r.nextOffset).toBeUndefined();
    expect(r.groups).toEqual(r.buckets);
    expect(r.rows).toEqual([]);
  });
  it('T264/T265', async () => {
    let r = await buckets('type = resource GROUP BY category ORDER BY name', { buckets: 1 });
    expect(r.buckets.map((b) => [b.key, ids(b.items)])).toEqual([[{ category: 1 }, ['R5', 'R1', 'R2']]]);
    expect([r.nextOffset, r.totalGroups]).toEqual([1, 2]);
    r = await buckets('type = resource GROUP BY category ORDER BY name', { buckets: 1, offset: 1 });
    expect(r.buckets.map((b) => [b.key, ids(b.items)])).toEqual([[{ category: 2 }, ['R4', 'R3']]]);
    expect(r.nextOffset).toBeUndefined();
  });
  it('T266', async () => {
    const r = await buckets('type = resource GROUP BY owner LIMIT 5');
    expect(r.buckets.map((b) => [b.key, ids(b.items)])).toEqual([
      [{ owner: null, owner_id: null }, ['R4']],
      [{ owner: 'Studio', owner_id: 1 }, ['R5']],
      [{ owner: 'Projects', owner_id: 2 }, ['R2']],
      [{ owner: 'Alpha', owner_id: 3 }, ['R1']],
      [{ owner: 'Archive', owner_id: 4 }, ['R3']],
    ]);
    expect(r.keyColumns).toEqual(['owner']);
  });
  it('T267', async () => {
    const r = await buckets('type = resource GROUP BY tags');
    expect(r.buckets.map((b) => [b.key.tags, ids(b.items).sort()])).toEqual([
      [null, ['R3', 'R5']],
      ['blue', ['R1']],
      ['green', ['R4']],
      ['red', ['R1', 'R2']],
    ]);
    expect([r.default_limit_applied, r.applied_limit]).toEqual([true, 500]);
  });
  it('T268', async () => {
    const r = await buckets('type = resource GROUP BY contentType LIMIT 1', { page: 2 });
    expect(r.buckets.map((b) => [b.key.contentType, ids(b.items)])).toEqual([['image/jpeg', ['R1']]]);
    expect(r.nextOffset).toBe(2);
  });
  it('T242: SCOPE with GROUP BY', async () => {
    expect((await rows('type = note SCOPE 1 GROUP BY owner COUNT() ORDER BY owner')).rows).toEqual([
      { owner: 'Alpha', count: 1 },
      { owner: 'Studio', count: 1 },
    ]);
  });
});
