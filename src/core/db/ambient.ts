// Ambient transactions: a block of code (a plugin's mah.db.transaction) whose every statement —
// including those of services that open their own transactions — runs on one connection inside
// one transaction, without passing a transaction handle through them. The driver wrapper hands
// the block's connection to every statement issued in its async context and turns the services'
// own BEGIN/COMMIT/ROLLBACK into savepoints, so a nested block rolls back alone.
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult, type TransactionSettings } from 'kysely';

interface AmbientState {
  /** Set by the first statement of the block. */
  connection?: DatabaseConnection;
  driver?: AmbientDriver;
  /** True once the outer BEGIN ran; later BEGINs become savepoints. */
  began: boolean;
  depth: number;
  closed: boolean;
}

const ambient = new AsyncLocalStorage<AmbientState>();

function open(): AmbientState | undefined {
  const s = ambient.getStore();
  return s && !s.closed ? s : undefined;
}

/** True while the current async context is inside an ambient transaction. */
export function inAmbientTransaction(): boolean {
  return open() !== undefined;
}

/**
 * The block's connection, shared by every statement of its async context: code in the block may
 * run statements side by side (a service's Promise.all of lookups), and a connection runs one at a
 * time. Kysely serialises the statements of one Transaction object, but the block's statements
 * come from the root instance and from several transactions, so they queue here instead. Left to
 * pg, they queued on its busy client, which pg 8 deprecates (a DeprecationWarning) and pg 9 removes.
 */
class SerialConnection implements DatabaseConnection {
  private tail: Promise<void> = Promise.resolve();
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const previous = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      done();
    }
  }

  // Not queued: a stream holds the connection until it is consumed, so a statement run while
  // consuming it would wait forever. Nothing streams inside a block today.
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class AmbientDriver implements Driver {
  /** `singleConnection`: the engine has one connection (SQLite), which an open block holds. */
  constructor(
    private readonly inner: Driver,
    readonly singleConnection: boolean,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  private mine(connection: DatabaseConnection): AmbientState | undefined {
    const s = open();
    return s && s.driver === this && s.connection === connection ? s : undefined;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const s = open();
    if (s && s.driver === this && s.connection) return s.connection;
    if (s && !s.connection && !s.began) {
      s.connection = new SerialConnection(await this.inner.acquireConnection());
      s.driver = this;
      return s.connection;
    }
    return this.inner.acquireConnection();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const s = this.mine(connection);
    if (!s) return this.inner.beginTransaction(connection, settings);
    if (!s.began) {
      s.began = true;
      return this.inner.beginTransaction(connection, settings);
    }
    s.depth++;
    await connection.executeQuery(CompiledQuery.raw(`savepoint ambient_${s.depth}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const s = this.mine(connection);
    if (!s) return this.inner.commitTransaction(connection);
    if (s.depth === 0) {
      s.closed = true;
      return this.inner.commitTransaction(connection);
    }
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ambient_${s.depth}`));
    s.depth--;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const s = this.mine(connection);
    if (!s) return this.inner.rollbackTransaction(connection);
    if (s.depth === 0) {
      s.closed = true;
      return this.inner.rollbackTransaction(connection);
    }
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ambient_${s.depth}`));
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ambient_${s.depth}`));
    s.depth--;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // The block keeps its connection until its outer COMMIT or ROLLBACK.
    const s = ambient.getStore();
    if (s && s.driver === this && s.connection === connection && !s.closed) return;
    return this.inner.releaseConnection(connection instanceof SerialConnection ? connection.inner : connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * A dialect whose driver supports ambient transactions. `singleConnection` says the engine has
 * only the one connection an open block holds (SQLite), so nothing can read beside the block.
 */
export function withAmbientTransactions(dialect: Dialect, singleConnection = false): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new AmbientDriver(dialect.createDriver(), singleConnection),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/**
 * Runs `work` in one transaction on `db` that every statement of its async context joins. Inside
 * another such block it is a savepoint: its failure rolls back only its own work.
 */
export async function ambientTransaction<DB, R>(db: Kysely<DB>, work: () => Promise<R>): Promise<R> {
  if (open()) return db.transaction().execute(() => work());
  const state: AmbientState = { began: false, depth: 0, closed: false };
  return ambient.run(state, () => db.transaction().execute(() => work()));
}

/**
 * Runs `work` outside the open ambient block, on another connection, so it reads only committed
 * data (library-plugins.md §11.6: mrql_query does not see the block's uncommitted writes). On a
 * single-connection engine (SQLite) the block holds the only connection until it ends, and the
 * block is waiting for `work`: reading beside it would wait forever, so `work` runs on the
 * block's connection there and sees its writes. A block that has not run a statement yet holds
 * no connection and has written nothing, so stepping out of it is safe on every engine.
 */
export function outsideAmbientTransaction<R>(work: () => Promise<R>): Promise<R> {
  const s = open();
  if (!s || s.driver?.singleConnection) return work();
  return ambient.exit(work);
}
