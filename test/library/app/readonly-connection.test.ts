// connect({ readonly: true }) on PostgreSQL: the read-only default travels in the connection's
// startup options, so it holds from the first query, and options the DSN already carries survive.
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect, pgConfig, READ_ONLY_SESSION, withStartupOption } from '../../../src/core/db/connect.js';
import { postgresUrl } from '../../helpers/test-databases.js';

describe('startup options', () => {
  it('appends to the options of a key/value DSN and of a URL, where the URL keeps them', () => {
    expect(withStartupOption(pgConfig('host=h dbname=d'), READ_ONLY_SESSION).options).toBe(READ_ONLY_SESSION);
    expect(withStartupOption(pgConfig("host=h options='-c work_mem=8MB'"), READ_ONLY_SESSION).options).toBe(`-c work_mem=8MB ${READ_ONLY_SESSION}`);
    const url = withStartupOption(pgConfig('postgres://u@h:5433/d?options=-c%20work_mem%3D8MB&sslmode=disable'), READ_ONLY_SESSION).connectionString!;
    expect(new URL(url).searchParams.get('options')).toBe(`-c work_mem=8MB ${READ_ONLY_SESSION}`);
    expect(new URL(url).searchParams.get('sslmode')).toBe('disable');
    expect(url.startsWith('postgres://u@h:5433/d?')).toBe(true);
  });
});

describe.skipIf(process.env.TEST_DB !== 'postgres')('a read-only PostgreSQL connection', () => {
  for (const [form, dsn] of [
    ['URL', () => `${postgresUrl()}${postgresUrl().includes('?') ? '&' : '?'}options=${encodeURIComponent('-c statement_timeout=7s')}`],
    ['key/value', () => `${kv(postgresUrl())} options='-c statement_timeout=7s'`],
  ] as const) {
    it(`refuses writes from its first query on (${form} DSN) and keeps the DSN's own options`, async () => {
      const handle = connect<unknown>({ kind: 'postgres', dsn: dsn(), readonly: true, maxConnections: 2 });
      try {
        const db = handle.db;
        // Both clients of the pool, fresh, answer at once: no SET can be in flight before them.
        const settings = CompiledQuery.raw("SELECT current_setting('default_transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout");
        const [a, b] = await Promise.all([db.executeQuery(settings), db.executeQuery(settings)]);
        expect([...a.rows, ...b.rows]).toEqual([{ ro: 'on', timeout: '7s' }, { ro: 'on', timeout: '7s' }]);
        await expect(db.executeQuery(CompiledQuery.raw('CREATE TEMPORARY TABLE tidy_readonly_probe (x int)'))).rejects.toThrow(/read-only transaction/);
      } finally {
        await handle.close();
      }
    });
  }
});

/** A postgres:// URL as a libpq key/value string. */
function kv(url: string): string {
  const u = new URL(url);
  const parts = [`host=${u.hostname}`, `port=${u.port || '5432'}`, `dbname=${u.pathname.slice(1) || 'postgres'}`];
  if (u.username) parts.push(`user=${decodeURIComponent(u.username)}`);
  if (u.password) parts.push(`password=${decodeURIComponent(u.password)}`);
  return parts.join(' ');
}
