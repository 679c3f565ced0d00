// One PostgreSQL statement preceded by a setup statement in a single round trip. Every round
// trip on loopback costs a write and a read on both sides (~0.3 ms of wall time, ~0.1 ms of
// Node CPU here), more than many short statements take to run; a statement bounded by
// BEGIN / SET LOCAL / COMMIT took three.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlRow } from './dialect/types.js';

/**
 * Statements kept per connection at most. A kept statement lives until its connection closes
 * (the pool closes idle ones), so the names a connection may hold are bounded; past the bound a
 * statement runs unnamed, as every other one does.
 */
export const MAX_KEPT_STATEMENTS = 32;
const kept = new WeakMap<pg.PoolClient, Set<string>>();

/** The name to keep `sql` under on `client`, or undefined once the client holds its bound. */
function keptName(client: pg.PoolClient, sql: string): string | undefined {
  // The name is the text's digest: pg refuses one name for two texts, and the same text on
  // another render must find the statement it left.
  const name = `stacks_${createHash('sha1').update(sql).digest('hex')}`;
  let names = kept.get(client);
  if (!names) kept.set(client, (names = new Set()));
  if (!names.has(name)) {
    if (names.size >= MAX_KEPT_STATEMENTS) return undefined;
    names.add(name);
  }
  return name;
}

/** The pg connection methods a query writes its extended-protocol messages through. */
interface Wire {
  parse(m: { text: string }): void;
  bind(m: object): void;
  describe(m: { type: 'P'; name: string }): void;
  execute(m: object): void;
}

/**
 * pg's own extended-protocol query, with `setup` (no parameters) written before it in the same
 * corked batch and under the same Sync. The server runs both in one implicit transaction, so a
 * `set_config(…, true)` in `setup` holds for the statement and ends with it, also on error.
 * `setup` must return one row (its Describe, which pg needs to read the row, is sent).
 */
class PrefixedQuery extends pg.Query {
  constructor(
    private readonly setup: string,
    config: pg.QueryConfig,
  ) {
    super(config);
  }

  // Called by Query.submit inside its cork, before the statement's Parse/Bind/Describe/Execute/Sync.
  prepare(wire: Wire): void {
    wire.parse({ text: this.setup });
    wire.bind({});
    wire.describe({ type: 'P', name: '' });
    wire.execute({});
    (pg.Query.prototype as unknown as { prepare(w: Wire): void }).prepare.call(this, wire);
  }
}

/**
 * Runs `setup` then the statement on one pooled connection in one round trip; the statement's rows.
 * `keep`: the statement is kept on the connection under a name (parsed once; its plan reused when
 * `setup` asks for it), within MAX_KEPT_STATEMENTS per connection.
 */
export async function prefixedRows(pool: pg.Pool, setup: string, sql: string, params: readonly unknown[], keep = false): Promise<SqlRow[]> {
  const client = await pool.connect();
  const name = keep ? keptName(client, sql) : undefined;
  let broken: Error | undefined;
  try {
    const results = await new Promise<unknown>((resolve, reject) => {
      client.query(
        new PrefixedQuery(setup, { name, text: sql, values: [...params], queryMode: 'extended', callback: (e: Error | undefined, r: unknown) => (e ? reject(e) : resolve(r)) } as pg.QueryConfig),
      );
    }).catch((e: unknown) => {
      // pg records a name as parsed on the first ParseComplete of the batch, which is the
      // setup's: after a failure it cannot be known whether the kept statement exists, so the
      // connection is closed rather than left to bind a statement it may not have.
      if (name) broken = e as Error;
      throw e;
    });
    // Two results (the setup's, the statement's) in order.
    if (!Array.isArray(results) || results.length !== 2) {
      broken = new Error('prefixed statement: expected two results');
      throw broken;
    }
    return (results[1] as pg.QueryResult<SqlRow>).rows;
  } finally {
    client.release(broken);
  }
}
