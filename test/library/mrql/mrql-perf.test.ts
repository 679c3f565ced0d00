// The structures and shapes behind the MRQL performance targets (issue 18) give exactly the
// results the specification defines: cross-entity ORDER BY RANDOM() drawn by id stays a uniform
// sample without replacement (chi-squared over many draws, marginals and pairs), and the nested
// [mrql] of a card list, run as one statement, renders what each card renders on its own.
process.env.TZ = 'UTC';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import type { FlatResult, MrqlEngine, RunOptions } from '../../../src/library/mrql/engine.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';

let t: TestLibrary;
let engine: MrqlEngine;

beforeAll(async () => {
  t = await startTestLibrary();
  await loadFixture(t);
  engine = t.mrql.service.engine;
});
afterAll(async () => t?.close());

/** A fixture change through the API (it must succeed). */
async function api(method: string, path: string, body: unknown): Promise<void> {
  const r = await t.json(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const labels = (r: FlatResult) => [...r.resources.map((x) => `R${x.ID}`), ...r.notes.map((x) => `N${x.ID}`), ...r.groups.map((x) => `G${x.ID}`)];

/**
 * Pearson's statistic of observed counts against equal expectations, and whether it stays
 * under the 99.99th percentile of chi-squared with `n - 1` degrees of freedom (Wilson–Hilferty).
 * A correct sampler fails this once in ten thousand runs; a sampler that favours rows fails it
 * every time at these sample sizes.
 */
function uniform(counts: number[], total: number): { stat: number; limit: number } {
  const expected = total / counts.length;
  const stat = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
  const k = counts.length - 1;
  const z = 3.719; // the standard normal's 99.99th percentile
  const limit = k * (1 - 2 / (9 * k) + z * Math.sqrt(2 / (9 * k))) ** 3;
  return { stat, limit };
}

describe('cross-entity ORDER BY RANDOM() drawn by id (§11)', () => {
  // Every row of the §24 fixture matches: 5 resources, 3 notes, 5 groups.
  const ALL = ['R1', 'R2', 'R3', 'R4', 'R5', 'N1', 'N2', 'N3', 'G1', 'G2', 'G3', 'G4', 'G5'];

  it('is uniform over rows and over pairs of rows, in two statements', async () => {
    const runs = 1500;
    const rows = new Map(ALL.map((l) => [l, 0]));
    const pairs = new Map<string, number>();
    for (let i = 0; i < ALL.length; i++) for (let j = i + 1; j < ALL.length; j++) pairs.set([ALL[i], ALL[j]].sort().join(','), 0);
    for (let n = 0; n < runs; n++) {
      const stats = { statements: 0, rows: 0 };
      const got = labels((await engine.execute('name ~ "" ORDER BY RANDOM() LIMIT 2', {}, stats)) as FlatResult);
      expect(got).toHaveLength(2);
      expect(new Set(got).size).toBe(2);
      // The id ranges, then one primary-key probe of the drawn ids (never a pass over the tables).
      expect(stats.statements).toBe(2);
      for (const l of got) rows.set(l, rows.get(l)! + 1);
      const key = [...got].sort().join(',');
      pairs.set(key, pairs.get(key)! + 1);
    }
    const byRow = uniform([...rows.values()], runs * 2);
    expect(byRow.stat).toBeLessThan(byRow.limit);
    // A sample that is uniform row by row but draws fixed runs of rows (a stored random key
    // read from a random start) fails here: every pair must be as likely as every other.
    const byPair = uniform([...pairs.values()], runs);
    expect(byPair.stat).toBeLessThan(byPair.limit);
  }, 180_000);

  it('stays uniform over the matches when draws land on gaps and on rows that do not match', async () => {
    // A hole in the note ids, and a predicate only some rows of each type satisfy.
    await api('POST', '/v1/note/delete', { Id: 2 });
    const matching = ['R1', 'R2', 'R3', 'R4', 'G2', 'G4', 'G5']; // names containing "e"
    const runs = 1050;
    const counts = new Map(matching.map((l) => [l, 0]));
    for (let n = 0; n < runs; n++) {
      const got = labels((await engine.execute('name ~ "e" ORDER BY RANDOM() LIMIT 2')) as FlatResult);
      expect(got).toHaveLength(2);
      expect(new Set(got).size).toBe(2);
      for (const l of got) {
        expect(counts.has(l), l).toBe(true);
        counts.set(l, counts.get(l)! + 1);
      }
    }
    const r = uniform([...counts.values()], runs * 2);
    expect(r.stat).toBeLessThan(r.limit);
  }, 180_000);

  it('returns every match when there are fewer than asked for, and honours OFFSET and SCOPE', async () => {
    const all = labels((await engine.execute('name ~ "e" ORDER BY RANDOM() LIMIT 50')) as FlatResult);
    expect(all.sort()).toEqual(['G2', 'G4', 'G5', 'R1', 'R2', 'R3', 'R4']);
    const paged = labels((await engine.execute('name ~ "e" ORDER BY RANDOM() LIMIT 3 OFFSET 5')) as FlatResult);
    expect(paged).toHaveLength(2);
    // SCOPE 2: group 2 and its child 3; resources 2 and 1, note 1 live there.
    for (let n = 0; n < 30; n++) {
      const scoped = labels((await engine.execute('name ~ "" SCOPE 2 ORDER BY RANDOM() LIMIT 2')) as FlatResult);
      expect(scoped).toHaveLength(2);
      for (const l of scoped) expect(['R1', 'R2', 'N1', 'G2', 'G3']).toContain(l);
    }
  });
});

describe('nested [mrql] of a card list in one statement (§23.3 nested-mrql)', () => {
  it('renders exactly what each card renders alone, with fewer statements', async () => {
    // Group categories 7 and 8 get a card with a nested, entity-scoped [mrql].
    const card = `<section>[property path="Name"]: [mrql query='type = resource ORDER BY id' format="compact"] / [mrql query='type = note ORDER BY id' format="compact" limit="1"]</section>`;
    await api('POST', '/v1/category', { ID: 7, Name: 'cat7', CustomMRQLResult: card });
    await api('POST', '/v1/category', { ID: 8, Name: 'cat8', CustomMRQLResult: card });
    const sc = t.mrql.shortcodes;
    const before = engine.statementsRun;
    const list = await sc.render(`[mrql query='type = group ORDER BY id' scope="global"]`, { type: 'group', entity: { ID: 4, Meta: {} } }, sc.state());
    // Group list, then the three cards' resource queries in one statement and their note
    // queries in another, instead of one statement per card and query.
    expect(engine.statementsRun - before).toBe(3);
    const groups = ((await engine.execute('type = group ORDER BY id')) as FlatResult).groups;
    let cards = '';
    for (const g of groups) {
      if (g.CategoryId === 7 || g.CategoryId === 8) cards += await sc.render(card, { type: 'group', entity: g }, sc.state());
      else cards += `<div class="mrql-card" data-type="group" data-id="${g.ID}"><a href="/group?id=${g.ID}">${g.Name}</a>${g.Description ? `<p>${g.Description}</p>` : ''}</div>`;
    }
    expect(list).toBe(`<div class="mrql-results"><div class="mrql-cards">${cards}</div></div>`);
    expect(list).toContain('<section>Studio: <div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=1">sunrise.jpg</a>, <a href="/resource?id=2">sunset.png</a>, <a href="/resource?id=5">Clip 100%.mp4</a></span></div>');
    expect(list).toContain('<section>Alpha: <div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=1">sunrise.jpg</a></span></div>');
  });

  it('batches any order and direction per group, as each card alone renders it', async () => {
    // By name (the group-by-group top ids as a list) and by id descending (a range of the
    // owner index bounded by the group's k-th id), with a filter and a limit.
    const card = `<section>[mrql query='type = resource AND id > 0 ORDER BY name DESC' format="compact" limit="2"] / [mrql query='type = note ORDER BY id DESC' format="compact" limit="2"]</section>`;
    await api('POST', '/v1/category', { ID: 7, Name: 'cat7', CustomMRQLResult: card });
    await api('POST', '/v1/category', { ID: 8, Name: 'cat8', CustomMRQLResult: card });
    const sc = t.mrql.shortcodes;
    const before = engine.statementsRun;
    const list = await sc.render(`[mrql query='type = group AND category IN (7, 8) ORDER BY id' scope="global"]`, { type: 'group', entity: { ID: 4, Meta: {} } }, sc.state());
    expect(engine.statementsRun - before).toBe(3);
    const groups = ((await engine.execute('type = group AND category IN (7, 8) ORDER BY id')) as FlatResult).groups;
    let cards = '';
    for (const g of groups) cards += await sc.render(card, { type: 'group', entity: g }, sc.state());
    expect(list).toBe(`<div class="mrql-results"><div class="mrql-cards">${cards}</div></div>`);
    expect(list).toContain('<section><div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=2">sunset.png</a>, <a href="/resource?id=1">sunrise.jpg</a></span></div> / ');
  });

  it('fixed formats read only links and descriptions; a template of the same query still gets every field', async () => {
    // The list and table answers come from the narrowed batch (id, name, description); the
    // template's answer, cached apart, must still carry ContentType.
    const card = `<section>[mrql query='type = resource ORDER BY id' format="list"] | [mrql query='type = resource ORDER BY id' format="table"] | [mrql query='type = resource ORDER BY id']<i>[property path="ContentType"]</i>[/mrql]</section>`;
    await api('POST', '/v1/category', { ID: 7, Name: 'cat7', CustomMRQLResult: card });
    await api('POST', '/v1/category', { ID: 8, Name: 'cat8', CustomMRQLResult: card });
    const sc = t.mrql.shortcodes;
    const before = engine.statementsRun;
    const list = await sc.render(`[mrql query='type = group AND category IN (7, 8) ORDER BY id' scope="global"]`, { type: 'group', entity: { ID: 4, Meta: {} } }, sc.state());
    // The group list, then one statement for every card's narrowed (list, table) and whole
    // (template) requests: two kinds of request, so the per-query batch of whole rows.
    expect(engine.statementsRun - before).toBe(2);
    const groups = ((await engine.execute('type = group AND category IN (7, 8) ORDER BY id')) as FlatResult).groups;
    let cards = '';
    for (const g of groups) cards += await sc.render(card, { type: 'group', entity: g }, sc.state());
    expect(list).toBe(`<div class="mrql-results"><div class="mrql-cards">${cards}</div></div>`);
    expect(list).toContain('<i>image/jpeg</i>');
    expect(list).toContain('<ul class="mrql-list"><li><a href="/resource?id=1">sunrise.jpg</a>');
  });

  it('reads the group chains of a card list once, and only when a card asks for a parent or root', async () => {
    const sc = t.mrql.shortcodes;
    const listed = async (card: string) => {
      await api('POST', '/v1/category', { ID: 7, Name: 'cat7', CustomMRQLResult: card });
      await api('POST', '/v1/category', { ID: 8, Name: 'cat8', CustomMRQLResult: card });
      const stats = { statements: 0, rows: 0 };
      const mrqlBefore = engine.statementsRun;
      const html = await sc.render(`[mrql query='type = group AND category IN (7, 8) ORDER BY id' scope="global"]`, { type: 'group', entity: { ID: 4, Meta: {} } }, sc.state(undefined, stats));
      // The render's statements less the MRQL ones: carrier and chain lookups.
      return { html, lookups: stats.statements - (engine.statementsRun - mrqlBefore) };
    };
    // Each card's own scope (the group itself) needs no chain: the carriers are the only lookup.
    expect((await listed(`<section>[mrql query='type = resource ORDER BY id' format="compact"]</section>`)).lookups).toBe(1);
    // Parent and root scopes and a link to the root: one chain lookup serves every card (groups
    // 1, 2 and 3 of the fixture: no parent, parent 1, parent 2; root 1 for all).
    const card = `<section>[link to="root"] [mrql query='type = resource ORDER BY id' format="compact" scope="parent"] [mrql query='type = note ORDER BY id' format="compact" scope="root"]</section>`;
    const { html, lookups } = await listed(card);
    expect(lookups).toBe(2);
    const groups = ((await engine.execute('type = group AND category IN (7, 8) ORDER BY id')) as FlatResult).groups;
    let cards = '';
    for (const g of groups) cards += await sc.render(card, { type: 'group', entity: g }, sc.state());
    expect(html).toBe(`<div class="mrql-results"><div class="mrql-cards">${cards}</div></div>`);
    expect(html.match(/<section>\/group\?id=1 /g)).toHaveLength(3);
    expect(html).toContain('<section>/group?id=1 <div class="mrql-results"><p class="mrql-empty">No results.</p></div>');
  });

  it('a nested query that fails renders its error on its card only', async () => {
    const card = `<section>[property path="Name"] [mrql query='type = resource AND meta.rating > 1 ORDER BY id' format="compact"]</section>`;
    await api('POST', '/v1/category', { ID: 7, Name: 'cat7', CustomMRQLResult: card });
    await api('POST', '/v1/category', { ID: 8, Name: 'cat8', CustomMRQLResult: `<section>[mrql query='type = resource AND bogus = 1']</section>` });
    const sc = t.mrql.shortcodes;
    const html = await sc.render(`[mrql query='type = group AND category IN (7, 8) ORDER BY id' scope="global"]`, { type: 'group', entity: { ID: 4, Meta: {} } }, sc.state());
    expect(html).toContain('<section>Studio <div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=1">sunrise.jpg</a>, <a href="/resource?id=2">sunset.png</a>, <a href="/resource?id=5">Clip 100%.mp4</a></span></div></section>');
    expect(html.match(/unknown or invalid field &#34;bogus&#34;/g)).toHaveLength(2);
  });
});

describe('executeMany prepares a repeated query text once, and answers each request alone', () => {
  it('gives each request what it alone gives: its own scope, parameters and error', async () => {
    const ORDERED = 'type = resource ORDER BY id';
    const list: { text: string; opts: RunOptions }[] = [
      // The same text under three scopes (one walk for all): each scope's own rows.
      ...[1, 2, 3].map((g) => ({ text: ORDERED, opts: { limit: 20, contextScope: g } })),
      // With OFFSET and a limit under two scopes: each scope's own page.
      ...[1, 3].map((g) => ({ text: 'type = resource ORDER BY id OFFSET 1', opts: { limit: 1, contextScope: g } })),
      // The same text with different parameters: the parameters are part of the key.
      { text: 'type = resource AND name ~ $n ORDER BY id', opts: { params: { n: 'sun' } } },
      { text: 'type = resource AND name ~ $n ORDER BY id', opts: { params: { n: 'clip' } } },
      // An invalid text under two scopes: the error on both.
      ...[1, 2].map((g) => ({ text: 'type = resource AND bogus = 1', opts: { contextScope: g } })),
      // A scope that does not exist is reported before any later check of the text.
      { text: 'type = resource AND name ~* "x" SCOPE 99999', opts: {} },
      { text: 'type = resource AND name ~* "x" SCOPE 99999', opts: { limit: 5 } },
    ];
    const alone = await Promise.all(list.map(({ text, opts }) => engine.execute(text, opts).catch((e: Error) => e)));
    const many = await engine.executeMany(list);
    const shown = (r: unknown) => (r instanceof Error ? `error: ${r.message}` : labels(r as FlatResult).join(' '));
    expect(many.map(shown)).toEqual(alone.map(shown));
    // The requests really differ, so a key that left scope or parameters out would fail above.
    expect(new Set(alone.slice(0, 3).map(shown)).size).toBe(3);
    expect(shown(alone[3])).not.toBe(shown(alone[4]));
    expect(shown(alone[5])).not.toBe(shown(alone[6]));
    expect(shown(alone[7])).toMatch(/bogus/);
    expect(shown(alone[9])).toMatch(/scope group not found/);
  });
});

describe('bucket keys of an unfiltered key (a skip scan on PostgreSQL)', () => {
  it('lists every distinct value once, NULL included, in key order', async () => {
    const keys = async (q: string) => {
      const r = await engine.execute(q);
      if (!('mode' in r) || r.mode !== 'bucketed') throw new Error('expected buckets');
      return r.buckets.map((b) => b.key);
    };
    expect(await keys('type = resource GROUP BY contentType LIMIT 1')).toEqual(
      ['application/pdf', 'image/jpeg', 'image/png', 'text/plain', 'video/mp4'].map((contentType) => ({ contentType })),
    );
    // Note 3 has no note type: NULL is a key, sorted first. A WHERE that keeps every row takes
    // the plain DISTINCT path, which must agree.
    const noteTypes = await keys('type = note GROUP BY noteType LIMIT 1');
    expect(noteTypes[0]).toEqual({ noteType: null });
    expect(noteTypes).toContainEqual({ noteType: 1 });
    expect(noteTypes).toEqual(await keys('type = note AND id > 0 GROUP BY noteType LIMIT 1'));
    expect(await keys('type = group GROUP BY parent LIMIT 1')).toEqual(await keys('type = group AND id > 0 GROUP BY parent LIMIT 1'));
  });
});
