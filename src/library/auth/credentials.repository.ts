// Session and API-token rows (companion §2.5). Lookups go by the SHA-256 of the presented
// secret and bring the account's columns along, so authenticating a request is one statement.
import type { Insertable, Selectable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { ApiTokenTable, Database, SessionTable } from '../schema/database.js';

export type SessionRow = Selectable<SessionTable>;
export type ApiTokenRow = Selectable<ApiTokenTable>;

/** The account columns authentication needs. */
export interface CredentialOwner {
  username: string;
  role: string;
  scope_group_id: number | null;
  user_disabled: number | boolean;
}

const OWNER = ['users.username', 'users.role', 'users.scope_group_id', 'users.disabled as user_disabled'] as const;

export class SessionRepository extends Repository<Database> {
  async insert(row: Insertable<SessionTable>): Promise<number> {
    const out = await this.db.insertInto('sessions').values(row).returning('id').executeTakeFirstOrThrow();
    return out.id;
  }

  async findByHash(tokenHash: string): Promise<(SessionRow & CredentialOwner) | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('sessions')
      .select(OWNER)
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** Records activity unless it was recorded after `staleBefore` (at most once a minute). */
  async touch(id: number, at: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', staleBefore)]))
      .execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Every session of the account except `keepId` (the caller's own, on a password change). */
  async removeForUser(userId: number, keepId: number | null = null): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepId !== null) q = q.where('id', '!=', keepId);
    await q.execute();
  }

  async removeExpired(now: string): Promise<number> {
    const res = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

export class ApiTokenRepository extends Repository<Database> {
  async insert(row: Insertable<ApiTokenTable>): Promise<ApiTokenRow> {
    return this.db.insertInto('api_tokens').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async findByHash(tokenHash: string): Promise<(ApiTokenRow & CredentialOwner) | undefined> {
    return this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .selectAll('api_tokens')
      .select(OWNER)
      .where('api_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /** The account's tokens, newest first. */
  async listForUser(userId: number): Promise<ApiTokenRow[]> {
    return this.db.selectFrom('api_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async countForUser(userId: number): Promise<number> {
    const row = await this.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Records use unless it was recorded after `staleBefore` (at most once a minute). */
  async touch(id: number, at: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }

  /** Removes one of the account's tokens; false when it has no such token. */
  async removeOwned(id: number, userId: number): Promise<boolean> {
    const res = await this.db.deleteFrom('api_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async removeForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  }
}
