// The user rows start-up needs: the oldest enabled administrator, and the insert of a new one.
import type { Insertable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, UserTable } from '../schema/database.js';

export class RootAdminRepository extends Repository<Database> {
  /** The oldest enabled administrator. */
  async oldestAdmin(): Promise<{ id: number; username: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('role', '=', 'admin')
      .where('disabled', '=', false as never)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  async usernameTaken(username: string): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
  }

  async insert(row: Insertable<UserTable>): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }
}
