import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CompiledOnce } from './compiled-once.js';

interface DB {
  t: { x: number; label: string };
}

describe('CompiledOnce', () => {
  const connection = () => {
    const conn = new Database(':memory:');
    conn.exec("CREATE TABLE t (x INTEGER, label TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'a')");
    return conn;
  };
  const open = (conn = connection()) => new Kysely<DB>({ dialect: new SqliteDialect({ database: conn }) });

  it('runs the statement compiled on the first call with each call’s own values, constants kept', async () => {
    const db = open();
    let builds = 0;
    const above = new CompiledOnce(2, (d: Kysely<DB>, min: number, label: string) => {
      builds++;
      return d.selectFrom('t').select('x').where('x', '>', min).where('label', '=', label).where('x', '<', 10).orderBy('x');
    });
    expect((await above.run(db, 0, 'a')).rows).toEqual([{ x: 1 }, { x: 3 }]);
    expect((await above.run(db, 1, 'a')).rows).toEqual([{ x: 3 }]);
    expect((await above.run(db, 0, 'b')).rows).toEqual([{ x: 2 }]);
    expect(builds).toBe(1);
    await db.destroy();
  });

  it('refuses a statement that drops an argument', async () => {
    const db = open();
    const dropped = new CompiledOnce(2, (d: Kysely<DB>, min: number, _label: string) => d.selectFrom('t').select('x').where('x', '>', min));
    expect(() => dropped.run(db, 0, 'ignored')).toThrow('argument 1 does not reach the statement');
    await db.destroy();
  });

  it('runs the same statement synchronously on the raw connection: rows of a reader, none of a write', async () => {
    const conn = connection();
    const db = open(conn);
    const above = new CompiledOnce(2, (d: Kysely<DB>, min: number, label: string) => d.selectFrom('t').select('x').where('x', '>', min).where('label', '=', label).orderBy('x'));
    expect(above.runSync(conn, db, 0, 'a')).toEqual([{ x: 1 }, { x: 3 }]);
    expect((await above.run(db, 1, 'a')).rows).toEqual([{ x: 3 }]);
    const insert = new CompiledOnce(2, (d: Kysely<DB>, x: number, label: string) => d.insertInto('t').values({ x, label }));
    expect(insert.runSync(conn, db, 4, 'a')).toEqual([]);
    const returning = new CompiledOnce(2, (d: Kysely<DB>, x: number, label: string) => d.insertInto('t').values({ x, label }).returning('x'));
    expect(returning.runSync(conn, db, 5, 'b')).toEqual([{ x: 5 }]);
    expect(above.runSync(conn, db, 0, 'a')).toEqual([{ x: 1 }, { x: 3 }, { x: 4 }]);
    await db.destroy();
  });
});
