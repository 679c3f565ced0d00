// Account rows (companion §2.5 users): lookups, the username-ordered list, the administrator
// counts behind the last-admin rule and the root bootstrap, and the clean-up a deletion needs.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, UserTable } from '../schema/database.js';

export type UserRow = Selectable<UserTable>;

/** Tables whose rows remember who created them; a deleted account's references become null. */
const AUTHORED = [
  'tags',
  'categories',
  'resource_categories',
  'note_types',
  'template_partials',
  'queries',
  'series',
  'groups',
  'notes',
  'resources',
  'group_relation_types',
  'group_relations',
  'resource_versions',
  'note_blocks',
  'saved_mrql_queries',
  'download_history_entries',
] as const;

export class UserRepository extends Repository<Database> {
  async find(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  /** Ordered by username; `limit` 0 returns every account. */
  async list(offset: number, limit: number): Promise<UserRow[]> {
    let q = this.db.selectFrom('users').selectAll().orderBy('username').orderBy('id').offset(offset);
    // SQLite needs a LIMIT before OFFSET; -1 means "no limit" there and is refused by PostgreSQL,
    // so "all" is a limit no table reaches.
    q = q.limit(limit > 0 ? limit : Number.MAX_SAFE_INTEGER);
    return q.execute();
  }

  async insert(row: Insertable<UserTable>): Promise<UserRow> {
    return this.db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: Updateable<UserTable>): Promise<void> {
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  /** Enabled administrators other than `exceptId`. */
  async countEnabledAdmins(exceptId: number | null): Promise<number> {
    let q = this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '=', 'admin').where('disabled', '=', false);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** Enabled administrators whose password someone chose (not generated at bootstrap). */
  async countAdminsWithKnownPassword(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('disabled', '=', false)
      .where('password_auto_generated', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The root administrator: the oldest enabled admin (companion §10.2). */
  async oldestEnabledAdmin(): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('role', '=', 'admin')
      .where('disabled', '=', false)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  /** Usernames among `candidates` that are taken. */
  async takenUsernames(candidates: readonly string[]): Promise<Set<string>> {
    if (candidates.length === 0) return new Set();
    const rows = await this.db.selectFrom('users').select('username').where('username', 'in', [...candidates]).execute();
    return new Set(rows.map((r) => r.username));
  }

  async scopeGroupExists(groupId: number): Promise<boolean> {
    return (await this.db.selectFrom('groups').select('id').where('id', '=', groupId).executeTakeFirst()) !== undefined;
  }

  /** Names of scope groups by id, for pages (one statement). */
  async scopeGroupNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Rows created by the account keep existing with no author (its sessions and tokens cascade). */
  async clearAuthorship(userId: number): Promise<void> {
    for (const table of AUTHORED) {
      await this.db
        .updateTable(table as 'tags')
        .set({ created_by_user_id: null })
        .where('created_by_user_id', '=', userId)
        .execute();
    }
  }
}
