// The profile order of migration 014 against FTS5's own bm25(), on rows long enough that the
// totals record needs multi-byte varints and with three columns (weights all 1).
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { averageLength, bm25Groups, bm25Order, profileOf } from './sqlite-bm25.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('bm25Order', () => {
  it('orders (frequency, length) profiles as FTS5 bm25 orders their rows', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(a, b, c)');
    const next = lcg(7);
    const words = (n: number, hits: number) => [...Array(hits).fill('needle'), ...Array.from({ length: n }, () => `w${Math.floor(next() * 50)}`)].join(' ');
    const insert = db.prepare('INSERT INTO t(rowid, a, b, c) VALUES (?, ?, ?, ?)');
    const rows: { id: number; profile: number }[] = [];
    let tokens = 0;
    for (let id = 1; id <= 300; id++) {
      const [fa, fb, fc] = [0, 1, 2].map(() => Math.floor(next() * 3));
      const [na, nb, nc] = [3, 40, 200].map((m) => Math.floor(next() * m));
      insert.run(id, words(na, fa), words(nb, fb), words(nc, fc));
      tokens += na + nb + nc + fa + fb + fc;
      if (fa + fb + fc > 0) rows.push({ id, profile: profileOf(fa + fb + fc, na + nb + nc + fa + fb + fc) });
    }
    const block = (db.prepare('SELECT block FROM t_data WHERE id = 1').get() as { block: Uint8Array }).block;
    const fts = db.prepare(`SELECT rowid AS id, bm25(t) AS s FROM t WHERE t MATCH '"needle"'`).all() as { id: number; s: number }[];
    const score = new Map(fts.map((r) => [r.id, r.s]));
    expect(score.size).toBe(rows.length);
    // Every row of one profile has one score, and profiles in bm25Order have ascending scores.
    const byProfile = new Map<number, number>();
    for (const r of rows) {
      if (byProfile.has(r.profile)) expect(score.get(r.id)).toBe(byProfile.get(r.profile));
      byProfile.set(r.profile, score.get(r.id)!);
    }
    const order = bm25Order([...byProfile.keys()], averageLength(block));
    expect(order.length).toBeGreaterThan(20);
    const scores = order.map((p) => byProfile.get(p)!);
    expect(scores).toEqual([...scores].sort((x, y) => x - y));
    // bm25Groups: rows by (group, rowid) are FTS5's ORDER BY rank, ties included (global search).
    const groups = bm25Groups([...byProfile.keys()], averageLength(block))!;
    const groupOf = new Map(groups.flatMap((g, i) => g.map((p) => [p, i] as const)));
    const ranked = (db.prepare(`SELECT rowid AS id FROM t WHERE t MATCH '"needle"*' ORDER BY rank`).all() as { id: number }[]).map((r) => r.id);
    const byGroup = [...rows].sort((x, y) => groupOf.get(x.profile)! - groupOf.get(y.profile)! || x.id - y.id).map((r) => r.id);
    expect(byGroup).toEqual(ranked);
    expect(new Set(rows.map((r) => r.profile)).size).toBeLessThan(rows.length);
    // The column totals (tens of thousands) are multi-byte varints.
    expect(averageLength(block)).toBe(tokens / 300);
    expect(tokens).toBeGreaterThan(16384);
  });
});
