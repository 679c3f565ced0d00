// Account UI settings (companion §2.5 user_settings): one JSON document per (account, key).
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';

export class UserSettingRepository extends Repository<Database> {
  async all(userId: number): Promise<{ key: string; value: string }[]> {
    return this.db.selectFrom('user_settings').select(['key', 'value']).where('user_id', '=', userId).orderBy('key').execute();
  }

  async count(userId: number): Promise<number> {
    const row = await this.db.selectFrom('user_settings').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async exists(userId: number, key: string): Promise<boolean> {
    return (await this.db.selectFrom('user_settings').select('id').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst()) !== undefined;
  }

  async upsert(userId: number, key: string, value: string, now: string): Promise<void> {
    await this.db
      .insertInto('user_settings')
      .values({ user_id: userId, key, value, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({ value, updated_at: now }))
      .execute();
  }

  async remove(userId: number, key: string): Promise<void> {
    await this.db.deleteFrom('user_settings').where('user_id', '=', userId).where('key', '=', key).execute();
  }
}
