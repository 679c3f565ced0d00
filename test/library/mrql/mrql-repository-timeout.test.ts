// The PostgreSQL statement timeout of MRQL statements (MrqlRepository.rows): each statement runs
// in its own implicit transaction, bounded by a set_config sent with it in one round trip
// (src/core/db/pg-prefixed.ts). A timed-out statement must fail with the engine's timeout code,
// a failing one with its own error, and neither a transaction nor the timeout may stay on the
// pooled connection.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, pgPoolOf, type DbHandle } from '../../../src/core/db/connect.js';
import { MAX_KEPT_STATEMENTS } from '../../../src/core/db/pg-prefixed.js';
import { MrqlRepository } from '../../../src/library/mrql/repository.js';
import type { Database } from '../../../src/library/schema/database.js';
import { TEST_DB } from '../../helpers/library.js';

const PG_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const st = (sql: string, params: unknown[] = [], reusePlan = false) => ({ label: 'test', sql, params, reusePlan });

describe.skipIf(TEST_DB !== 'postgres')('MRQL statements on PostgreSQL under a statement timeout', () => {
  let handle: DbHandle<Database>;
  let repo: MrqlRepository;

  beforeAll(() => {
    // One connection: every statement below reuses the connection the earlier ones left behind.
    handle = connect<Database>({ kind: 'postgres', dsn: PG_URL, maxConnections: 1 });
    repo = new MrqlRepository(handle.db, handle.dialect);
  });
  afterAll(() => handle.close());

  it('returns the rows of a statement with bound values', async () => {
    const rows = await repo.rows(st('SELECT CAST($1 AS integer) + 1 AS n', [41]), 5000);
    expect(rows).toEqual([{ n: 42 }]);
  });

  it('sends the timeout and the statement as one query (one round trip)', async () => {
    // maxConnections 1: the pool hands out this same client to the repository.
    const client = await pgPoolOf(handle.db)!.connect();
    const sent = vi.spyOn(client, 'query');
    client.release();
    try {
      expect(await repo.rows(st('SELECT 7 AS seven'), 1000)).toEqual([{ seven: 7 }]);
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
    }
  });

  it('bounds the statement by the timeout', async () => {
    const failure = await repo.rows(st('SELECT pg_sleep(2)'), 50).then(
      () => null,
      (e: unknown) => e,
    );
    expect(handle.dialect.isTimeout(failure)).toBe(true);
  });

  it("reports the statement's own error, and the connection serves the next statement", async () => {
    const failure = await repo.rows(st('SELECT 1 / (CAST($1 AS integer) - 1) AS n', [1]), 5000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(String((failure as Error | null)?.message)).toMatch(/division by zero/);
    expect(handle.dialect.isTimeout(failure)).toBe(false);
    expect(await repo.rows(st('SELECT CAST($1 AS text) AS s', ['next']), 5000)).toEqual([{ s: 'next' }]);
  });

  it('leaves the connection outside any transaction and without the timeout afterwards', async () => {
    await repo.rows(st('SELECT pg_sleep(2)'), 50).catch(() => undefined);
    await repo.rows(st('SELECT 1 / 0 AS n'), 4321).catch(() => undefined);
    await repo.rows(st('SELECT 1 AS one'), 1234);
    const [state] = (await handle.db.executeQuery<{ timeout: string; stale: boolean }>(
      // Outside a transaction block now() is the statement's own start; inside one it is older.
      CompiledQuery.raw("SELECT current_setting('statement_timeout') AS timeout, now() <> statement_timestamp() AS stale"),
    )).rows;
    expect(state.timeout).toBe('0');
    expect(state.timeout).not.toBe('50ms');
    expect(state.stale).toBe(false);
  });

  it('keeps a reusePlan statement on the connection and runs it with one generic plan', async () => {
    const text = 'SELECT CAST($1 AS integer) * 2 AS kept_twice';
    for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(await repo.rows(st(text, [n], true), 5000)).toEqual([{ kept_twice: 2 * n }]);
    const [kept] = (await handle.db.executeQuery<{ generic: string; custom: string }>(
      CompiledQuery.raw('SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE statement = $1', [text]),
    )).rows;
    // Parsed once, planned generically for every run (auto would make custom plans first).
    expect(Number(kept.generic)).toBe(7);
    expect(Number(kept.custom)).toBe(0);
    const [after] = (await handle.db.executeQuery<{ mode: string; timeout: string }>(
      CompiledQuery.raw("SELECT current_setting('plan_cache_mode') AS mode, current_setting('statement_timeout') AS timeout"),
    )).rows;
    expect(after).toEqual({ mode: 'auto', timeout: '0' });
  });

  it('keeps at most MAX_KEPT_STATEMENTS statements per connection; the rest run unnamed', async () => {
    for (let i = 0; i < MAX_KEPT_STATEMENTS + 8; i++) {
      expect(await repo.rows(st(`SELECT CAST($1 AS integer) + ${i} AS bounded`, [1], true), 5000)).toEqual([{ bounded: 1 + i }]);
    }
    const [count] = (await handle.db.executeQuery<{ n: string }>(CompiledQuery.raw("SELECT count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'stacks\\_%'"))).rows;
    expect(Number(count.n)).toBe(MAX_KEPT_STATEMENTS);
  });

  it('drops the connection after a kept statement fails, and the next one runs', async () => {
    const failing = 'SELECT 1 / (CAST($1 AS integer) - 1) AS kept_failing';
    await expect(repo.rows(st(failing, [1], true), 5000)).rejects.toThrow(/division by zero/);
    expect(await repo.rows(st(failing, [3], true), 5000)).toEqual([{ kept_failing: 0 }]);
  });
});
