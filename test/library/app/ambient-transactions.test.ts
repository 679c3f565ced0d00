// Ambient transactions (src/core/db/ambient.ts, what mah.db.transaction runs on) with statements
// issued side by side inside the block, as a service's Promise.all of lookups does: they all join
// the block's one connection, and on PostgreSQL none is handed to pg while another is still
// running there (pg 8 queues it with a DeprecationWarning, pg 9 refuses it).
import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ambientTransaction } from '../../../src/core/db/ambient.js';
import { connect, type DbHandle } from '../../../src/core/db/connect.js';
import { TEST_DB } from '../../helpers/library.js';
import { postgresUrl } from '../../helpers/test-databases.js';

const raw = (text: string) => CompiledQuery.raw(text);

describe(`ambient transactions on ${TEST_DB}`, () => {
  let handle: DbHandle<unknown>;
  let db: Kysely<unknown>;
  beforeAll(() => {
    handle = TEST_DB === 'postgres' ? connect<unknown>({ kind: 'postgres', dsn: postgresUrl(), maxConnections: 3 }) : connect<unknown>({ kind: 'sqlite', dsn: ':memory:' });
    db = handle.db;
  });
  afterAll(async () => handle?.close());

  it('runs statements issued side by side one at a time on the block connection, all inside the block', async () => {
    // pg's Client.query returns a promise per statement; count those still open per client.
    const original = pg.Client.prototype.query;
    const running = new WeakMap<object, number>();
    let overlapping = 0;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (!(result instanceof Promise)) return result as never;
      const open = running.get(this) ?? 0;
      if (open > 0) overlapping++;
      running.set(this, open + 1);
      const settle = () => running.set(this, (running.get(this) ?? 1) - 1);
      result.then(settle, settle);
      return result as never;
    });
    try {
      const counts = await ambientTransaction(db, async () => {
        // A temporary table lives on one connection: every statement below must be on the block's.
        await db.executeQuery(raw('CREATE TEMPORARY TABLE ambient_probe (n integer)'));
        await Promise.all([1, 2, 3, 4, 5, 6].map((n) => db.executeQuery(raw(`INSERT INTO ambient_probe (n) VALUES (${n})`))));
        // A service's own transaction inside the block (a savepoint) beside plain statements.
        const [inner, plain] = await Promise.all([
          db.transaction().execute((trx) => trx.executeQuery<{ c: number }>(raw('SELECT count(*) AS c FROM ambient_probe'))),
          db.executeQuery<{ c: number }>(raw('SELECT count(*) AS c FROM ambient_probe')),
          db.executeQuery(raw('INSERT INTO ambient_probe (n) VALUES (7)')),
        ]);
        return [Number(inner.rows[0].c), Number(plain.rows[0].c)];
      });
      expect(counts.every((c) => c === 6 || c === 7)).toBe(true);
      expect(overlapping).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});
