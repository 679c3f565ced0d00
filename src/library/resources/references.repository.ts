// The vocabularies a resource write refers to: resource categories (existence, MetaSchema,
// AutoDetectRules, the fallback category, the form options) and, for remote imports that name
// their owner group, the group categories and groups found or created by name.
import type { Insertable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { CategoryTable, Database, GroupTable } from '../schema/database.js';

export interface CategoryRef {
  id: number;
  name: string;
  description: string;
}

export class ResourceReferenceRepository extends Repository<Database> {
  /** A resource category's name and MetaSchema. */
  async category(id: number): Promise<{ id: number; name: string; meta_schema: string } | undefined> {
    return this.db.selectFrom('resource_categories').select(['id', 'name', 'meta_schema']).where('id', '=', id).executeTakeFirst();
  }

  /** Resource categories by id, as lists show them. */
  async categories(ids: readonly number[]): Promise<CategoryRef[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('resource_categories').select(['id', 'name', 'description']).where('id', 'in', [...ids]).execute();
  }

  /** Every resource category, by name (form options). */
  async categoryOptions(): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('resource_categories').select(['id', 'name']).orderBy('name').execute();
  }

  /** Resource categories that have AutoDetectRules. */
  async detectable(): Promise<{ id: number; name: string; auto_detect_rules: string }[]> {
    return this.db.selectFrom('resource_categories').select(['id', 'name', 'auto_detect_rules']).where('auto_detect_rules', '<>', '').execute();
  }

  /** The category new resources fall back to: the one named Default, else the oldest. */
  async fallbackCategory(): Promise<number> {
    const def = await this.db.selectFrom('resource_categories').select('id').where('name', '=', 'Default').executeTakeFirst();
    if (def) return def.id;
    return (await this.db.selectFrom('resource_categories').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  }

  /** A group category by name. */
  async groupCategoryNamed(name: string): Promise<number | undefined> {
    return (await this.db.selectFrom('categories').select('id').where('name', '=', name).executeTakeFirst())?.id;
  }

  /** A group category with its template columns at their defaults. */
  async insertGroupCategory(row: Pick<Insertable<CategoryTable>, 'name' | 'created_at' | 'updated_at' | 'created_by_user_id' | 'guid'>): Promise<number> {
    const values = { ...row, section_config: '{}' } as Insertable<CategoryTable>;
    return (await this.db.insertInto('categories').values(values).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** The oldest group of this name (within the category when one is given). */
  async groupNamed(name: string, categoryId: number | null): Promise<number | undefined> {
    let q = this.db.selectFrom('groups').select('id').where('name', '=', name);
    if (categoryId !== null) q = q.where('category_id', '=', categoryId);
    return (await q.orderBy('id').executeTakeFirst())?.id;
  }

  async insertGroup(row: Insertable<GroupTable>): Promise<number> {
    return (await this.db.insertInto('groups').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }
}
