// Repositories hold every SQL statement of a feature. A repository is built over the database
// and can be re-bound to a transaction (`in(tx)`), so a service composes several repositories
// inside one transaction without ever touching a query builder itself.
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from './dialect/index.js';

export type Executor<DB> = Kysely<DB> | Transaction<DB>;

/** An open transaction as services see it: a handle to pass to `repository.in(tx)`. */
export type Tx<DB> = Transaction<DB>;

export abstract class Repository<DB> {
  constructor(
    protected readonly db: Executor<DB>,
    protected readonly dialect: Dialect,
  ) {}

  /** This repository running its statements inside `tx`. */
  in(tx: Tx<DB>): this {
    const bound = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(bound, this, { db: tx });
    return bound;
  }
}

/** Runs work in one transaction; repositories join it through `in(tx)`. */
export class Transactor<DB> {
  constructor(private readonly db: Kysely<DB>) {}

  run<R>(work: (tx: Tx<DB>) => Promise<R>): Promise<R> {
    return this.db.transaction().execute(work);
  }
}
