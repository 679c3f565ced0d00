// A hot statement built and compiled once. Kysely builds an operation tree and compiles it to
// SQL on every call, which for a small indexed query costs more than running it (bench/README.md,
// "Clip service"). The statement is built the first time with stand-ins for its parameters; each
// run reuses the SQL and puts the call's values where the stand-ins ended up.
import type Database from 'better-sqlite3';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './repository.js';

/** Stands in for the n-th argument while the statement is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

export class CompiledOnce<DB, Args extends unknown[], R> {
  private compiled: CompiledQuery<R> | null = null;
  /** For each compiled parameter, the argument it takes (-1: a constant of the statement). */
  private sources: number[] = [];

  /**
   * `build` must pass each argument to the builder as a value (never inspect or branch on it):
   * it runs once, with stand-ins. The compiled SQL is the same for every executor of one dialect.
   */
  constructor(
    private readonly arity: Args['length'],
    private readonly build: (db: Executor<DB>, ...args: Args) => Compilable<R>,
  ) {}

  /** Prepared statements of `runSync`, per raw SQLite connection. */
  private readonly prepared = new WeakMap<Database.Database, Database.Statement>();

  run(db: Executor<DB>, ...args: Args): Promise<QueryResult<R>> {
    const compiled = this.compile(db);
    return db.executeQuery<R>({ ...compiled, parameters: this.parameters(compiled, args) });
  }

  /**
   * The same statement run synchronously on the raw SQLite connection behind `db` (its rows, as
   * Kysely's SQLite driver returns them). Only for a caller that already holds that connection
   * exclusively (see ClipService's synchronous upload transaction): Kysely's lock is not taken.
   */
  runSync(conn: Database.Database, db: Executor<DB>, ...args: Args): R[] {
    const compiled = this.compile(db);
    let statement = this.prepared.get(conn);
    if (statement === undefined) {
      statement = conn.prepare(compiled.sql);
      this.prepared.set(conn, statement);
    }
    const parameters = this.parameters(compiled, args);
    if (statement.reader) return statement.all(...parameters) as R[];
    statement.run(...parameters);
    return [];
  }

  private compile(db: Executor<DB>): CompiledQuery<R> {
    if (this.compiled === null) {
      const slots = Array.from({ length: this.arity }, (_, i) => new Slot(i)) as unknown as Args;
      const compiled = this.build(db, ...slots).compile();
      const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
      // Every argument must have reached the SQL, or a run would silently ignore it.
      for (let i = 0; i < this.arity; i++) if (!sources.includes(i)) throw new Error(`argument ${i} does not reach the statement`);
      this.compiled = compiled;
      this.sources = sources;
    }
    return this.compiled;
  }

  private parameters(compiled: CompiledQuery<R>, args: Args): unknown[] {
    return this.sources.map((source, i) => (source >= 0 ? args[source] : compiled.parameters[i]));
  }
}
