// Validates a group's meta against its category's MetaSchema (companion §4.3, Decision 3).
import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import { checkMeta } from '../meta/schema.js';

export async function checkGroupMeta(db: Kysely<Database>, categoryId: number | null, metaText: string): Promise<void> {
  if (categoryId === null) return;
  const cat = await db.selectFrom('categories').select(['name', 'meta_schema']).where('id', '=', categoryId).executeTakeFirst();
  if (cat) checkMeta(cat.meta_schema, JSON.parse(metaText), 'category', cat.name);
}
