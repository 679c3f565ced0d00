// Compiles repository statements without a database: a Kysely instance per dialect whose driver
// records every compiled query and answers with no rows. Repository methods run against it with
// the representative arguments of test/sql/cases, so their SQL can be snapshotted for both engines.
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { format } from 'sql-formatter';
import type { DbKind } from '../../src/core/db/connect.js';
import { sqlitePlugins } from '../../src/core/db/connect.js';
import { dialectFor, type Dialect } from '../../src/core/db/dialect/index.js';
import type { Repository } from '../../src/core/db/repository.js';

export interface Captured {
  sql: string;
  params: readonly unknown[];
}

class RecordingConnection implements DatabaseConnection {
  constructor(private readonly out: Captured[]) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    this.out.push({ sql: q.sql, params: q.parameters });
    return { rows: [] };
  }
  // eslint-disable-next-line require-yield -- no rows to stream
  async *streamQuery<R>(q: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    this.out.push({ sql: q.sql, params: q.parameters });
  }
}

class RecordingDriver implements Driver {
  constructor(private readonly out: Captured[]) {}
  async init() {}
  async acquireConnection() {
    return new RecordingConnection(this.out);
  }
  async beginTransaction() {}
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

/** The rows a recording better-sqlite3 connection answers a statement with. */
export type NativeAnswers = (sql: string) => unknown[];

/**
 * A stand-in for a better-sqlite3 connection (the clip backup's synchronous statements): it
 * records every statement into `out`, as the Kysely driver does, and answers from `answers`.
 */
function nativeConnection(out: Captured[], answers: NativeAnswers): BetterSqlite3.Database {
  const record = (sql: string, params: unknown[]) => {
    out.push({ sql, params });
    return answers(sql);
  };
  const statement = (sql: string) => {
    const st = {
      // better-sqlite3's own test: the statement returns rows.
      reader: /^\s*(select|with|pragma)\b|\breturning\b/i.test(sql),
      run: (...params: unknown[]) => (record(sql, params), { changes: 0, lastInsertRowid: 0 }),
      get: (...params: unknown[]) => record(sql, params)[0],
      all: (...params: unknown[]) => record(sql, params),
      iterate: (...params: unknown[]) => record(sql, params)[Symbol.iterator](),
      pluck: () => st,
      raw: () => st,
      safeIntegers: () => st,
    };
    return st;
  };
  const db = {
    open: true,
    inTransaction: false,
    prepare: statement,
    exec: (sql: string) => (record(sql, []), db),
    // Recorded as better-sqlite3 runs a transaction function: BEGIN, the body, COMMIT (or ROLLBACK).
    transaction:
      <A extends unknown[], R>(fn: (...args: A) => R) =>
      (...args: A): R => {
        record('BEGIN', []);
        try {
          const result = fn(...args);
          record('COMMIT', []);
          return result;
        } catch (e) {
          record('ROLLBACK', []);
          throw e;
        }
      },
    pragma: (text: string) => record(`PRAGMA ${text}`, []),
    close: () => undefined,
  };
  return db as unknown as BetterSqlite3.Database;
}

export interface Recorder {
  db: Kysely<never>;
  dialect: Dialect;
  /** A recording better-sqlite3 connection, answering nothing unless told. */
  native(answers?: NativeAnswers): BetterSqlite3.Database;
  take(): Captured[];
}

export function recorder(kind: DbKind): Recorder {
  const out: Captured[] = [];
  const sqlite = kind === 'sqlite';
  const db = new Kysely<never>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new RecordingDriver(out),
      createIntrospector: (k) => (sqlite ? new SqliteIntrospector(k) : new PostgresIntrospector(k)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
    plugins: sqlite ? sqlitePlugins() : [],
  });
  return { db, dialect: dialectFor(kind), native: (answers = () => []) => nativeConnection(out, answers), take: () => out.splice(0, out.length) };
}

/** One representative call: `label` starts with the method's name ("list", "list (by tag)"). */
export type SqlCase<R> = [label: string, run: (repo: R) => Promise<unknown>];

export interface SqlCaseSet<R = unknown> {
  repository: abstract new (...args: never[]) => R;
  build: (db: Kysely<never>, dialect: Dialect, native: Recorder['native']) => R;
  cases: SqlCase<R>[];
}

/** Cases of one repository class, built the usual way (database, dialect). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any repository's database type
export function sqlCases<R extends Repository<any>>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- constructed over the recorder
  repository: new (db: any, dialect: Dialect) => R,
  cases: SqlCase<R>[],
  build: (db: Kysely<never>, dialect: Dialect, native: Recorder['native']) => R = (db, dialect) => new repository(db as never, dialect),
): SqlCaseSet<R> {
  return { repository, build, cases };
}

/** Readable SQL for review; statements the formatter cannot read stay as compiled. */
export function pretty(kind: DbKind, text: string): string {
  try {
    return format(text, { language: kind === 'sqlite' ? 'sqlite' : 'postgresql', keywordCase: 'upper', expressionWidth: 100, paramTypes: { positional: true, numbered: ['$'] } });
  } catch {
    return text;
  }
}
