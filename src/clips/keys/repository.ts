// API key rows; no rules here.
import type Database from 'better-sqlite3';
import { CompiledOnce } from '../../core/db/compiled-once.js';
import type { Executor } from '../../core/db/repository.js';
import type { ClipDatabase } from '../schema/database.js';
import { ClipStoreRepository } from '../schema/base-repository.js';

export interface KeyRow {
  id: number;
  name: string;
  key_prefix: string;
  role: string;
  scoped_tag_id: number | null;
  scoped_tag_name: string | null;
  is_revoked: number;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function selectInfo(db: Executor<ClipDatabase>) {
  return db
    .selectFrom('api_keys as k')
    .leftJoin('tags as t', 't.id', 'k.scoped_tag_id')
    .select([
      'k.id',
      'k.name',
      'k.key_prefix',
      'k.role',
      'k.scoped_tag_id',
      't.name as scoped_tag_name',
      'k.is_revoked',
      'k.created_at',
      'k.last_used_at',
      'k.revoked_at',
    ]);
}

// The two statements of every authenticated request, compiled once.
const activeByHash = new CompiledOnce(1, (db: Executor<ClipDatabase>, hash: string) => selectInfo(db).where('k.key_hash', '=', hash).where('k.is_revoked', '=', 0));
const touchKey = new CompiledOnce(2, (db: Executor<ClipDatabase>, id: number, at: string) => db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id));

export class KeyRepository extends ClipStoreRepository {
  private selectInfo() {
    return selectInfo(this.db);
  }

  async insert(row: { name: string; key_hash: string; key_prefix: string; role: string; scoped_tag_id: number | null; created_at: string }): Promise<number> {
    const r = await this.db.insertInto('api_keys').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  find(id: number): Promise<KeyRow | undefined> {
    return this.selectInfo().where('k.id', '=', id).executeTakeFirst();
  }

  /** Newest first, active and revoked. */
  list(): Promise<KeyRow[]> {
    return this.selectInfo().orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
  }

  /** The active key with this hash, with its scope tag's current name. */
  async findActiveByHash(hash: string): Promise<KeyRow | undefined> {
    return (await activeByHash.run(this.db, hash)).rows[0];
  }

  async touch(id: number, at: string): Promise<void> {
    await touchKey.run(this.db, id, at);
  }

  /** Revokes an active key; false when it is unknown or already revoked. */
  async revoke(id: number, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('api_keys')
      .set({ is_revoked: 1, revoked_at: at })
      .where('id', '=', id)
      .where('is_revoked', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Revokes the active keys scoped to a tag (the tag is being deleted). */
  async revokeScopedTo(tagId: number, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ is_revoked: 1, revoked_at: at }).where('scoped_tag_id', '=', tagId).where('is_revoked', '=', 0).execute();
  }

  /** Deletes revoked rows whose revocation is at or before `cutoff`. */
  async purgeRevoked(cutoff: string): Promise<number> {
    const r = await this.db
      .deleteFrom('api_keys')
      .where('is_revoked', '=', 1)
      .where('revoked_at', 'is not', null)
      .where('revoked_at', '<=', cutoff)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }
}

// What can change an authenticated principal: a key's hash, role, scope or revocation (not its
// last_used_at stamp), and any tag (a scope's name is its tag's current name).
const PRINCIPAL_WRITES = [
  'AFTER INSERT ON api_keys',
  'AFTER DELETE ON api_keys',
  'AFTER UPDATE OF key_hash, role, scoped_tag_id, is_revoked, revoked_at ON api_keys',
  'AFTER INSERT ON tags',
  'AFTER DELETE ON tags',
  'AFTER UPDATE ON tags',
];

/**
 * Calls `onWrite` during every statement of this connection that changes a key or a tag
 * (temporary triggers: this connection only, whatever code path writes), and returns a reader
 * of `PRAGMA data_version`, which changes when another connection commits.
 */
export function watchPrincipalWrites(sqlite: Database.Database, onWrite: () => void): () => number {
  const fn = 'stacks_principal_written';
  sqlite.function(fn, { deterministic: false }, () => {
    onWrite();
    return null;
  });
  PRINCIPAL_WRITES.forEach((when, i) => sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS stacks_principal_written_${i} ${when} BEGIN SELECT ${fn}(); END`));
  const version = sqlite.prepare('PRAGMA data_version').pluck();
  return () => version.get() as number;
}
