// The settings table (companion §2.6): one string value per key; no rules here.
import { ClipStoreRepository } from '../schema/base-repository.js';

export class SettingsRepository extends ClipStoreRepository {
  async get(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
