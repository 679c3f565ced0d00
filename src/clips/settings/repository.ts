// The settings table (companion §2.6): one string value per key; no rules here.
import type { Kysely } from 'kysely';
import type { ClipDatabase } from '../schema/database.js';

type Db = Kysely<ClipDatabase>;

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
