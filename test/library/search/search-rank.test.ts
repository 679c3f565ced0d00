// Global search's full-text order (companion §8) is the engine's own relevance order, also where
// SQLite reads a one-word term's profile postings (migration 014, issue 18) instead of ranking
// every match: the ids must be exactly those of the plain statement — bm25 over the FTS5 table,
// ties by rowid — on a seeded corpus with many tied rows. PostgreSQL has no such path (its prefix
// query ranks differently from the postings); there the scores must be the plain ts_rank's.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../../../src/library/search/repository.js';
import { TEST_DB, startTestLibrary, type TestLibrary } from '../../helpers/library.js';

type Search = { results: { id: number; type: string; score: number }[] };

let t: TestLibrary;
let db: Kysely<unknown>;
let repo: SearchRepository;

/** A small deterministic generator (the corpus is the same on every run and engine). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const FILLER = ['stone', 'harbor', 'harborside', 'lantern', 'river'];

/** 0–3 "needle" and 0–4 filler words: few distinct (frequency, length) profiles, many ties. */
function text(next: () => number): string {
  const words = [...Array(Math.floor(next() * 4)).fill('needle'), ...Array.from({ length: Math.floor(next() * 5) }, () => FILLER[Math.floor(next() * FILLER.length)])];
  return words.join(' ');
}

/** The ids (and relevance, lower is better) of the plain statement: every match ranked. */
async function plain(table: string, word: string, prefix: boolean, limit: number): Promise<{ id: number; s: number }[]> {
  const q =
    TEST_DB === 'postgres'
      ? sql<{ id: number; s: number }>`SELECT id, -ts_rank(search_vector, q) AS s FROM ${sql.table(table)}, ${
          prefix ? sql`(SELECT to_tsquery('english', ${`${word}:*`}) || to_tsquery('simple', ${`${word}:*`}))` : sql`plainto_tsquery('english', ${word})`
        } AS x(q) WHERE search_vector @@ q ORDER BY s LIMIT ${limit}`
      : sql<{ id: number; s: number }>`SELECT t.id, f.rank AS s FROM ${sql.raw(`${table}_fts`)} f JOIN ${sql.table(table)} t ON t.id = f.rowid WHERE ${sql.raw(`${table}_fts`)} MATCH ${`"${word}"${prefix ? '*' : ''}`} ORDER BY f.rank LIMIT ${limit}`;
  return (await q.execute(db)).rows.map((r) => ({ id: Number(r.id), s: Number(r.s) }));
}

async function expectPlainOrder(type: 'note' | 'group', q: string, limit: number, fast: boolean) {
  const table = type === 'note' ? 'notes' : 'groups';
  const prefix = !q.startsWith('=');
  const word = q.replace(/^=/, '');
  const groups = await repo.profileGroups(table, { term: word, words: [word] }, prefix);
  expect(groups !== null, `${type} ${q}: postings path`).toBe(TEST_DB !== 'postgres' && fast);
  const r = await t.json<Search>('GET', `/v1/search?q=${encodeURIComponent(q)}&types=${type}&limit=${limit}`);
  expect(r.status).toBe(200);
  const got = r.body.results.map((x) => x.id);
  const want = await plain(table, word, prefix, limit);
  expect(want.length).toBeGreaterThan(0);
  if (TEST_DB === 'postgres') {
    // Ties among equal ts_rank come in any order on PostgreSQL, as before.
    const scores = new Map((await plain(table, word, prefix, 10_000)).map((x) => [x.id, x.s]));
    expect(got.map((id) => scores.get(id))).toEqual(want.map((x) => x.s));
  } else expect(got).toEqual(want.map((x) => x.id));
}

beforeAll(async () => {
  t = await startTestLibrary();
  db = t.lib.db as unknown as Kysely<unknown>;
  repo = new SearchRepository(t.lib.db, t.lib.dialect);
  const next = lcg(18);
  for (let i = 0; i < 40; i++) expect((await t.json('POST', '/v1/note', { Name: `note ${i}`, Description: text(next) })).status).toBe(200);
  for (let i = 0; i < 30; i++) expect((await t.json('POST', '/v1/group', { Name: `group ${i}`, Description: text(next) })).status).toBe(200);
}, 180_000);
afterAll(async () => t?.close());

describe('global search keeps the plain relevance order', () => {
  it('a word no other word starts with: the postings, same ids in the same order (ties by id)', async () => {
    for (const limit of [1, 5, 13, 50]) {
      await expectPlainOrder('note', 'needle', limit, true);
      await expectPlainOrder('group', 'needle', limit, true);
      await expectPlainOrder('note', '=needle', limit, true);
    }
  });

  it('a prefix other words start with ranks every match, as before', async () => {
    await expectPlainOrder('note', 'harbor', 20, false);
    await expectPlainOrder('note', '=harbor', 20, true);
  });

  it('follows writes: a new word sharing the prefix turns the postings path off', async () => {
    await expectPlainOrder('group', 'lantern', 20, true);
    const g = await t.json<{ ID: number }>('POST', '/v1/group', { Name: 'lanterns', Description: 'needle' });
    await expectPlainOrder('group', 'lantern', 20, false);
    await t.json('POST', `/v1/group/delete?Id=${g.body.ID}`);
    await expectPlainOrder('group', 'lantern', 20, true);
  });
});
