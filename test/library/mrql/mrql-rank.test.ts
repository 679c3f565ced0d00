// ORDER BY RANK (mrql.md §9.4) keeps the engine's own relevance order however the statement is
// shaped for speed (issue 18): the impact-ordered postings of migration 012 on PostgreSQL, the
// profile postings of 014 on SQLite (FTS5 keeping only its best rows where they do not apply).
// Each query's rows are compared with the plain relevance of every match — bm25() over the FTS5 table, ts_rank over search_vector —
// on a seeded corpus with many tied rows: the sequence of scores must be the plain query's
// first scores (tied rows may come in any order). The postings must stay what a recomputation
// gives after create, update, delete, merge and import.
process.env.TZ = 'UTC';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlatResult, MrqlEngine } from '../../../src/library/mrql/engine.js';
import { TEST_DB, startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';
import { applyImport, exportArchive, parseArchive } from '../../helpers/transfer.js';

let t: TestLibrary;
let engine: MrqlEngine;
let db: Kysely<unknown>;

/** A small deterministic generator (the corpus is the same on every run and engine). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const FILLER = ['stone', 'harbor', 'lantern', 'river', 'copper', 'meadow'];

/** A description with 0–3 "needle" and 0–5 filler words: few distinct profiles, many ties. */
function text(next: () => number): string {
  const words = [...Array(Math.floor(next() * 4)).fill('needle'), ...Array.from({ length: Math.floor(next() * 6) }, () => FILLER[Math.floor(next() * FILLER.length)])];
  return words.join(' ');
}

async function resource(name: string, description: string, seed: number): Promise<number> {
  const r = await upload(t, [{ name: `${name}.png`, data: await png(8, 8, seed) }], { Name: name, Description: description });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { ID: number }[])[0].ID;
}

async function api(method: string, path: string, body: unknown): Promise<unknown> {
  const r = await t.json(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Every matching row's plain relevance (lower is better, as the RANK key sorts). */
async function plainScores(table: string, term: string): Promise<Map<number, number>> {
  const q =
    TEST_DB === 'postgres'
      ? sql<{ id: number; s: number }>`SELECT id, -ts_rank(search_vector, plainto_tsquery('english', ${term})) AS s FROM ${sql.table(table)} WHERE search_vector @@ plainto_tsquery('english', ${term})`
      : sql<{ id: number; s: number }>`SELECT rowid AS id, bm25(${sql.raw(`${table}_fts`)}) AS s FROM ${sql.raw(`${table}_fts`)} WHERE ${sql.raw(`${table}_fts`)} MATCH ${term
          .split(' ')
          .map((w) => `"${w}"`)
          .join(' ')}`;
  const rows = (await q.execute(db)).rows;
  return new Map(rows.map((r) => [Number(r.id), Number(r.s)]));
}

const idsOf = (r: FlatResult, entity: 'resource' | 'group') => (entity === 'resource' ? r.resources : r.groups).map((x) => Number(x.ID));

/**
 * The query's rows carry exactly the plain query's best scores in order: `keep` narrows the plain
 * matches as the query's other filters do; rows that do not match follow the matches.
 */
async function expectRankOrder(
  query: string,
  entity: 'resource' | 'group',
  term: string,
  opts: { limit: number; offset?: number; desc?: boolean; keep?: (id: number) => boolean; postings?: boolean },
) {
  const table = entity === 'resource' ? 'resources' : 'groups';
  const scores = await plainScores(table, term);
  const stats = { statements: 0, rows: 0 };
  const got = idsOf((await engine.execute(query, {}, stats)) as FlatResult, entity);
  // SQLite reads the term's posting profiles first when the postings apply (migration 014).
  expect(stats.statements, query).toBe(TEST_DB !== 'postgres' && opts.postings ? 2 : 1);
  expect(new Set(got).size).toBe(got.length);
  const all = [...scores].filter(([id]) => opts.keep?.(id) ?? true).map(([, s]) => s);
  all.sort((a, b) => (opts.desc ? b - a : a - b));
  const expected = all.slice(opts.offset ?? 0, (opts.offset ?? 0) + opts.limit);
  const matched = got.filter((id) => scores.has(id));
  // Matches first (ASC), then the rest; the matches' scores are the plain query's, in order.
  expect(got.slice(0, matched.length)).toEqual(matched);
  expect(matched.map((id) => scores.get(id))).toEqual(expected);
  expect(expected.length).toBeGreaterThan(0);
  return got;
}

/**
 * SQLite: every (term, profile, id) posting is what FTS5's own index gives — per (term, row) the
 * instance count and the row's token count, from an fts5vocab instance table.
 */
async function expectSqlitePostingsInSync(): Promise<void> {
  for (const table of ['resources', 'notes', 'groups']) {
    const vocab = sql.raw(`temp.${table}_check`);
    await sql`CREATE VIRTUAL TABLE IF NOT EXISTS ${vocab} USING fts5vocab(main, ${sql.raw(`${table}_fts`)}, instance)`.execute(db);
    const fresh = sql`SELECT i.term, count(*) * 4294967296 + n.len AS profile, i.doc AS id FROM ${vocab} i JOIN (SELECT doc, count(*) AS len FROM ${vocab} GROUP BY doc) n ON n.doc = i.doc GROUP BY i.term, i.doc`;
    const postings = sql.raw(`${table}_fts_postings`);
    const diff = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT * FROM (SELECT term, profile, id FROM ${postings} EXCEPT ${fresh}) UNION ALL SELECT * FROM (${fresh} EXCEPT SELECT term, profile, id FROM ${postings}))`.execute(db);
    expect(diff.rows[0].n, table).toBe(0);
    const n = await sql<{ n: number }>`SELECT count(*) AS n FROM ${postings}`.execute(db);
    expect(n.rows[0].n, table).toBeGreaterThan(0);
  }
}

/** The stored postings are what a recomputation gives (PostgreSQL: from search_vector). */
async function expectPostingsInSync(): Promise<void> {
  if (TEST_DB !== 'postgres') return expectSqlitePostingsInSync();
  for (const table of ['resources', 'notes', 'groups']) {
    const postings = sql.raw(`${table}_fts_postings`);
    const fresh = sql`SELECT r.id, u.lexeme, -ts_rank(r.search_vector, ('''' || replace(replace(u.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery) AS score FROM ${sql.table(table)} r CROSS JOIN LATERAL unnest(r.search_vector) u`;
    const diff = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ((SELECT id, lexeme, score FROM ${postings} EXCEPT ${fresh}) UNION ALL (${fresh} EXCEPT SELECT id, lexeme, score FROM ${postings})) d`.execute(db);
    expect(diff.rows[0].n, table).toBe(0);
  }
}

const ids: number[] = [];
const groupIds: number[] = [];
const noteIds: number[] = [];

beforeAll(async () => {
  t = await startTestLibrary();
  engine = t.mrql.service.engine;
  db = t.lib.db as unknown as Kysely<unknown>;
  const next = lcg(18);
  for (let i = 0; i < 36; i++) ids.push(await resource(`item ${i % 3 === 0 ? 'needle' : 'plain'} ${i}`, text(next), i));
  for (let i = 0; i < 12; i++) groupIds.push(((await api('POST', '/v1/group', { Name: `group ${i}`, Description: text(next) })) as { ID: number }).ID);
  for (let i = 0; i < 3; i++) noteIds.push(((await api('POST', '/v1/note', { Name: `note ${i}`, Description: text(next), OwnerId: groupIds[3] })) as { ID: number }).ID);
}, 180_000);
afterAll(async () => t?.close());

describe('ORDER BY RANK keeps the plain relevance order (§9.4)', () => {
  it('the best matches when TEXT is the only filter, with OFFSET and DESC', async () => {
    await expectRankOrder('type = resource AND TEXT ~ "needle" ORDER BY RANK LIMIT 7', 'resource', 'needle', { limit: 7, postings: true });
    await expectRankOrder('type = "resource" AND TEXT ~ "needle" ORDER BY RANK LIMIT 5 OFFSET 4', 'resource', 'needle', { limit: 5, offset: 4, postings: true });
    await expectRankOrder('type = resource AND TEXT ~ "needle" ORDER BY RANK DESC LIMIT 6', 'resource', 'needle', { limit: 6, desc: true });
    await expectRankOrder('type = resource AND TEXT ~ "needle" ORDER BY RANK LIMIT 500', 'resource', 'needle', { limit: 500, postings: true });
    await expectRankOrder('type = resource AND TEXT ~ "NEEDLE" ORDER BY RANK LIMIT 9', 'resource', 'NEEDLE', { limit: 9, postings: true });
    await expectRankOrder('type = resource AND TEXT ~ "stone" ORDER BY RANK LIMIT 20', 'resource', 'stone', { limit: 20, postings: true });
    await expectRankOrder('type = group AND TEXT ~ "needle" ORDER BY RANK LIMIT 4', 'group', 'needle', { limit: 4, postings: true });
  });

  it('many distinct profiles, and a word no row holds gives no rows', async () => {
    if (TEST_DB !== 'postgres') {
      const n = await sql<{ n: number }>`SELECT count(DISTINCT profile) AS n FROM resources_fts_postings WHERE term = 'needle'`.execute(db);
      expect(n.rows[0].n).toBeGreaterThan(5);
    }
    const r = (await engine.execute('type = resource AND TEXT ~ "absentword" ORDER BY RANK LIMIT 5')) as FlatResult;
    expect(r.resources).toEqual([]);
  });

  it('under other filters, OR, several words and a stemmed word', async () => {
    const cut = ids[10];
    await expectRankOrder(`type = resource AND TEXT ~ "needle" AND id > ${cut} ORDER BY RANK LIMIT 5`, 'resource', 'needle', { limit: 5, keep: (id) => id > cut });
    const got = await expectRankOrder('type = resource AND (TEXT ~ "needle" OR name ~ "plain") ORDER BY RANK LIMIT 500', 'resource', 'needle', { limit: 500 });
    expect(got.length).toBeGreaterThan((await plainScores('resources', 'needle')).size);
    await expectRankOrder('type = resource AND TEXT ~ "needle stone" ORDER BY RANK LIMIT 5', 'resource', 'needle stone', { limit: 5 });
    // PostgreSQL stems "needles" to the lexeme of "needle" (SQLite matches words as written).
    if (TEST_DB === 'postgres') await expectRankOrder('type = resource AND TEXT ~ "needles" ORDER BY RANK LIMIT 5', 'resource', 'needles', { limit: 5 });
  });
});

describe('the relevance structures stay in sync with every write', () => {
  const check = async () => {
    await expectPostingsInSync();
    await expectRankOrder('type = resource AND TEXT ~ "needle" ORDER BY RANK LIMIT 8', 'resource', 'needle', { limit: 8, postings: true });
    await expectRankOrder('type = resource AND TEXT ~ "needle" ORDER BY RANK LIMIT 500', 'resource', 'needle', { limit: 500, postings: true });
  };

  it('after create, update, delete, merge and import', async () => {
    await expectPostingsInSync();
    await resource('fresh needle needle', 'needle needle needle', 99);
    await check();
    await api('POST', '/v1/resource/edit', { ID: ids[0], Description: 'needle needle needle needle' });
    await api('POST', '/v1/resource/edit', { ID: ids[1], Name: 'renamed', Description: 'stone' });
    await api('POST', '/v1/group', { ID: groupIds[0], Description: 'needle needle' });
    await api('POST', '/v1/note', { ID: noteIds[0], Name: 'note needle', Description: 'needle stone' });
    await check();
    await api('POST', '/v1/resource/delete', { Id: ids[2] });
    await api('POST', '/v1/group/delete', { Id: groupIds[1] });
    await api('POST', `/v1/note/delete?Id=${noteIds[1]}`, {});
    await check();
    await api('POST', '/v1/resources/merge', { Winner: ids[3], Losers: [ids[4], ids[5]] });
    await check();
    const owner = ((await api('POST', '/v1/group', { Name: 'export root', Description: 'needle' })) as { ID: number }).ID;
    await api('POST', '/v1/resource/edit', { ID: ids[6], OwnerId: owner });
    const archive = (await exportArchive(t, { rootGroupIds: [owner] })).bytes;
    await api('POST', '/v1/group/delete', { Id: owner });
    await api('POST', '/v1/resource/delete', { Id: ids[6] });
    const { id } = await parseArchive(t, archive);
    await applyImport(t, id);
    const imported = await engine.execute('type = group AND name = "export root"');
    expect((imported as FlatResult).groups).toHaveLength(1);
    await check();
  }, 120_000);
});
