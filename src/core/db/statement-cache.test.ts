import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachingStatements } from './statement-cache.js';

describe('cachingStatements', () => {
  const open = () => {
    const conn = new Database(':memory:');
    conn.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    return conn;
  };

  it('prepares a SQL text once and runs it again with new parameters', () => {
    const db = cachingStatements(open());
    const a = db.prepare('SELECT x FROM t WHERE x > ?');
    const b = db.prepare('SELECT x FROM t WHERE x > ?');
    expect(b).toBe(a);
    expect(b.all([1])).toEqual([{ x: 2 }, { x: 3 }]);
    expect(a.all([2])).toEqual([{ x: 3 }]);
    db.close();
  });

  it('hands out a fresh statement while the cached one is still being iterated', () => {
    const db = cachingStatements(open());
    const sql = 'SELECT x FROM t ORDER BY x';
    const iter = db.prepare(sql).iterate([]);
    expect(iter.next().value).toEqual({ x: 1 });
    const other = db.prepare(sql);
    expect(other.all([])).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect([...iter]).toEqual([{ x: 2 }, { x: 3 }]);
    db.close();
  });

  it('keeps at most the given number of statements, dropping the least recently used', () => {
    const db = cachingStatements(open(), 2);
    const one = db.prepare('SELECT 1 AS v');
    const two = db.prepare('SELECT 2 AS v');
    expect(db.prepare('SELECT 1 AS v')).toBe(one); // 1 is now the most recent
    db.prepare('SELECT 3 AS v'); // evicts 2
    expect(db.prepare('SELECT 1 AS v')).toBe(one);
    expect(db.prepare('SELECT 2 AS v')).not.toBe(two);
    db.close();
  });

  it('a kept statement follows a later schema change', () => {
    const conn = open();
    const db = cachingStatements(conn);
    expect(db.prepare('SELECT * FROM t WHERE x = ?').all([1])).toEqual([{ x: 1 }]);
    conn.exec("ALTER TABLE t ADD COLUMN y TEXT DEFAULT 'new'");
    expect(db.prepare('SELECT * FROM t WHERE x = ?').all([1])).toEqual([{ x: 1, y: 'new' }]);
    db.close();
  });
});
