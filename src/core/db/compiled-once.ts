// A hot statement built and compiled once. Kysely builds an operation tree and compiles it to
// SQL on every call, which for a small indexed query costs more than running it (bench/README.md,
// "Clip service"). The statement is built the first time with stand-ins for its parameters; each
// run reuses the SQL and puts the call's values where the stand-ins ended up.
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

  run(db: Executor<DB>, ...args: Args): Promise<QueryResult<R>> {
    if (this.compiled === null) {
      const slots = Array.from({ length: this.arity }, (_, i) => new Slot(i)) as unknown as Args;
      const compiled = this.build(db, ...slots).compile();
      const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
      // Every argument must have reached the SQL, or a run would silently ignore it.
      for (let i = 0; i < this.arity; i++) if (!sources.includes(i)) throw new Error(`argument ${i} does not reach the statement`);
      this.compiled = compiled;
      this.sources = sources;
    }
    const compiled = this.compiled;
    const parameters = this.sources.map((source, i) => (source >= 0 ? args[source] : compiled.parameters[i]));
    return db.executeQuery<R>({ ...compiled, parameters });
  }
}
