// Kysely's SQLite driver prepares every statement again on every call; preparing costs about as
// much as running a small indexed query. This hands Kysely a connection whose statements are
// prepared once per SQL text and kept (least recently used first out).
import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LruMap } from '../lru.js';

export const STATEMENT_CACHE_SIZE = 500;

export function cachingStatements(conn: Database.Database, max = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new LruMap<string, Database.Statement>(max);
  return {
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      // A statement still being iterated (a streamed query) cannot run again until it is done.
      if (cached && !cached.busy) return cached as unknown as SqliteStatement;
      const fresh = conn.prepare(sql);
      if (!cached) cache.set(sql, fresh);
      return fresh as unknown as SqliteStatement;
    },
    close: () => {
      cache.clear();
      conn.close();
    },
  };
}
