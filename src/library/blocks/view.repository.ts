// What showing blocks reads besides the blocks themselves: the resources of gallery blocks, the
// groups of reference blocks (with their category's name) and the stored file of a calendar
// block's resource source. One statement per kind for a whole note.
import { sql, type Selectable, type SqlBool } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Visibility } from '../auth/visibility.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Database, ResourceTable } from '../schema/database.js';

export type StoredFileRow = Pick<Selectable<ResourceTable>, 'id' | 'hash' | 'location' | 'storage_location'>;

const ALWAYS = sql<SqlBool>`1 = 1`;

// Block content may name entities the viewer cannot see (another account filled the block):
// every lookup answers only what `vis` may see, and the rest shows as missing.
export class BlockViewRepository extends Repository<Database> {
  async galleryResources(ids: readonly number[], vis: Visibility): Promise<Pick<Selectable<ResourceTable>, 'id' | 'name' | 'hash' | 'content_type'>[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('resources')
      .select(['id', 'name', 'hash', 'content_type'])
      .where('id', 'in', [...ids])
      .where(insideScope(vis, 'resources.owner_id') ?? ALWAYS)
      .execute();
  }

  async referencedGroups(ids: readonly number[], vis: Visibility): Promise<{ id: number; name: string; description: string; category: string | null }[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('groups')
      .leftJoin('categories', 'categories.id', 'groups.category_id')
      .select(['groups.id', 'groups.name', 'groups.description', 'categories.name as category'])
      .where('groups.id', 'in', [...ids])
      .where(insideScope(vis, 'groups.id') ?? ALWAYS)
      .execute();
  }

  /** Where a resource's file is stored (calendar blocks reading an .ics resource). */
  async storedFile(resourceId: number, vis: Visibility): Promise<StoredFileRow | undefined> {
    return this.db
      .selectFrom('resources')
      .select(['id', 'hash', 'location', 'storage_location'])
      .where('id', '=', resourceId)
      .where(insideScope(vis, 'resources.owner_id') ?? ALWAYS)
      .executeTakeFirst();
  }
}
