// The dialect members that must mean the same on both engines, evaluated by the engines
// themselves: SQLite always, PostgreSQL when TEST_DB=postgres (PG_TEST_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { connect, type DbHandle } from '../connect.js';
import { fragment } from '../sql-text.js';
import { globToRegex } from './postgres.js';

const GLOB = '*http [0-9][0-9][0-9]*';
const TEXTS = ['http 404', 'failed: http 503 service unavailable', 'http 40', 'https 404', 'HTTP 404', 'http 4a4', 'line one\nhttp 500\nline three', ''];
/** What a glob of `*`, `?` and `[…]` classes means, written out by hand for the cases below. */
const EXPECTED = [true, true, false, false, false, false, true, false];

const engines: { kind: 'sqlite' | 'postgres'; dsn: string }[] = [{ kind: 'sqlite', dsn: ':memory:' }];
if (process.env.TEST_DB === 'postgres') engines.push({ kind: 'postgres', dsn: process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });

describe('globToRegex', () => {
  it('anchors the pattern and keeps classes, wildcards and literal characters', () => {
    expect(globToRegex(GLOB)).toBe('^.*http [0-9][0-9][0-9].*$');
    expect(globToRegex('a?c')).toBe('^a.c$');
    expect(globToRegex('[!x]y')).toBe('^[^x]y$');
    expect(globToRegex('a.b(c)+$')).toBe('^a\\.b\\(c\\)\\+\\$$');
    expect(globToRegex('open[')).toBe('^open\\[$');
  });

  it('matches what the glob means', () => {
    const re = new RegExp(globToRegex(GLOB), 's');
    expect(TEXTS.map((t) => re.test(t))).toEqual(EXPECTED);
  });
});

for (const engine of engines) {
  describe(`${engine.kind} dialect`, () => {
    let handle: DbHandle<unknown>;
    let db: Kysely<unknown>;
    beforeAll(() => {
      handle = connect<unknown>({ kind: engine.kind, dsn: engine.dsn });
      db = handle.db;
    });
    afterAll(async () => handle?.close());

    const value = async <T>(build: Parameters<typeof fragment>[1]): Promise<T> => {
      const r = await fragment<T>(handle.dialect, (b) => `SELECT ${build(b)} AS v`).execute(db);
      return (r.rows[0] as { v: T }).v;
    };

    it('matchesGlob is case-sensitive and matches the whole text', async () => {
      const got: boolean[] = [];
      for (const text of TEXTS) got.push(Boolean(Number(await value((b) => `CASE WHEN ${handle.dialect.matchesGlob(b, handle.dialect.textParam(b.p(text)), GLOB)} THEN 1 ELSE 0 END`))));
      expect(got).toEqual(EXPECTED);
    });

    it('laterBy compares instants, not text', async () => {
      const ts = (iso: string) => (engine.kind === 'postgres' ? `CAST(${"'" + iso + "'"} AS timestamptz)` : `'${iso}'`);
      const later = async (a: string, b: string) => Number(await value(() => `CASE WHEN ${handle.dialect.laterBy(ts(a), ts(b), 1)} THEN 1 ELSE 0 END`));
      expect(await later('2024-01-01T00:00:01.500Z', '2024-01-01T00:00:00.000Z')).toBe(1);
      expect(await later('2024-01-01T00:00:00.900Z', '2024-01-01T00:00:00.000Z')).toBe(0);
      expect(await later('2024-01-01T00:00:00.000Z', '2024-01-01T00:00:05.000Z')).toBe(0);
    });

    it('subtreeMember answers the same membership under every plan (a hint never changes rows)', async () => {
      const set = 'SELECT 1 UNION SELECT 3 UNION SELECT 5';
      for (const large of [false, true]) {
        for (const narrowed of [false, true]) {
          const member = async (n: number) => Number(await value(() => `CASE WHEN ${handle.dialect.subtreeMember(String(n), set, { large, narrowed })} THEN 1 ELSE 0 END`));
          expect([await member(1), await member(3), await member(5), await member(4)], JSON.stringify({ large, narrowed })).toEqual([1, 1, 1, 0]);
        }
      }
    });

    it('int64 binds every bit of a 64-bit value', async () => {
      const big = 0xfedcba9876543210n;
      const back = await value<string>((b) => handle.dialect.castText(`CAST(${b.p(handle.dialect.int64(big))} AS bigint)`));
      expect(BigInt(back)).toBe(BigInt.asIntN(64, big));
    });
  });
}
