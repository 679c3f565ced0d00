// The active keys the service has seen, by key hash, so that an authenticated request does not
// run the key lookup through Kysely every time (bench/README.md, "Clip service"). The cache stays
// exact, so a revocation still takes effect on the very next request (companion §6):
// - writes on this connection to api_keys (other than the last_used_at stamp) or to tags fire
//   temporary triggers that empty it — whatever code path made them (routes, restore, plugins,
//   foreign-key actions);
// - writes by any other connection (the `stacks clips key` CLI, another process) change
//   `PRAGMA data_version`, which is read before every use;
// - while the connection is inside a transaction the cache is not used at all: that
//   transaction may hold uncommitted key changes, or a snapshot older than the last commit.
import type Database from 'better-sqlite3';
import { watchPrincipalWrites, type KeyRow } from './repository.js';

const MAX_ENTRIES = 1000;

export class KeyCache {
  private static readonly byConnection = new WeakMap<Database.Database, KeyCache>();

  /** One cache per connection: its triggers and function are registered once. */
  static for(sqlite: Database.Database): KeyCache {
    let cache = KeyCache.byConnection.get(sqlite);
    if (!cache) {
      cache = new KeyCache(sqlite);
      KeyCache.byConnection.set(sqlite, cache);
    }
    return cache;
  }

  private readonly entries = new Map<string, KeyRow>();
  /** Bumped by every invalidation: a lookup that overlapped one does not fill the cache. */
  private generation = 0;
  private dataVersion: number;
  private readonly readDataVersion: () => number;

  private constructor(private readonly sqlite: Database.Database) {
    this.readDataVersion = watchPrincipalWrites(sqlite, () => this.invalidate());
    this.dataVersion = this.readDataVersion();
  }

  invalidate(): void {
    this.entries.clear();
    this.generation++;
  }

  /**
   * A token for a lookup about to run, or null when the cache cannot be trusted now (inside a
   * transaction). Reading data_version also drops the entries when another connection committed.
   */
  private check(): number | null {
    if (this.sqlite.inTransaction) return null;
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.invalidate();
    }
    return this.generation;
  }

  /** The cached active key row for this hash, if the cache is usable and holds it. */
  get(hash: string): { row: KeyRow | undefined; token: number | null } {
    const token = this.check();
    return { row: token === null ? undefined : this.entries.get(hash), token };
  }

  /** Stores a row read from the database, unless anything could have changed since `token`. */
  put(hash: string, row: KeyRow, token: number | null): void {
    if (token === null || this.check() !== token) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, row);
  }
}
