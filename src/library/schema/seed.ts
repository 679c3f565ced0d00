// Initial data on an empty database (companion §1.10 step 5): the Default resource category,
// group categories Person, Location and Business, and relation types Address and Employer.
import { randomUUID } from 'node:crypto';
import { nowIso } from '../../core/db/values.js';
import type { LibraryDb } from './database.js';

export async function ensureDefaultResourceCategory(db: LibraryDb): Promise<void> {
  const existing = await db.selectFrom('resource_categories').select('id').where('name', '=', 'Default').executeTakeFirst();
  if (existing) return;
  const now = nowIso();
  await db
    .insertInto('resource_categories')
    .values({ created_at: now, updated_at: now, guid: randomUUID(), name: 'Default', description: 'Resources without a more specific category', section_config: '{}' } as never)
    .execute();
}

export async function seedEmptyLibrary(db: LibraryDb): Promise<void> {
  await ensureDefaultResourceCategory(db);
  const anyCategory = await db.selectFrom('categories').select('id').limit(1).executeTakeFirst();
  const anyGroup = await db.selectFrom('groups').select('id').limit(1).executeTakeFirst();
  if (anyCategory || anyGroup) return;
  const now = nowIso();
  const ids: Record<string, number> = {};
  for (const name of ['Person', 'Location', 'Business']) {
    const row = await db
      .insertInto('categories')
      .values({ created_at: now, updated_at: now, guid: randomUUID(), name, section_config: '{}' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }
  for (const [name, from, to] of [
    ['Address', 'Person', 'Location'],
    ['Employer', 'Person', 'Business'],
  ]) {
    await db
      .insertInto('group_relation_types')
      .values({ created_at: now, updated_at: now, guid: randomUUID(), name, from_category_id: ids[from], to_category_id: ids[to] } as never)
      .execute();
  }
}
