// A resource's links: its tags, related groups and notes (join tables), the rows those links
// and its owner point at, and the existence checks of ids a write refers to.
import { sql, type Selectable, type SqlBool } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, GroupTable } from '../schema/database.js';
import { entityVisible, insideScope, kindOfTable } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';

/** The join tables of a resource, with the column naming the linked row. */
export const RESOURCE_LINKS = {
  tags: { table: 'resource_tags', column: 'tag_id' },
  groups: { table: 'groups_related_resources', column: 'group_id' },
  notes: { table: 'resource_notes', column: 'note_id' },
} as const;
export type ResourceLink = keyof typeof RESOURCE_LINKS;

/** Tables whose ids a resource write may name. */
export type ReferencedTable = 'tags' | 'groups' | 'notes' | 'resources';

const BATCH = 500;

export class ResourceLinkRepository extends Repository<Database> {
  /** The rows among `ids` that exist and that `vis` may see (only their ids). */
  async existing(table: ReferencedTable, ids: readonly number[], vis: Visibility): Promise<{ id: number }[]> {
    if (ids.length === 0) return [];
    let q = this.db.selectFrom(table).select(`${table}.id`).where(`${table}.id`, 'in', [...ids]);
    const seen = entityVisible(vis, kindOfTable(table), `${table}.id`);
    if (seen) q = q.where(seen);
    return q.execute();
  }

  /**
   * Replaces one link set of a resource with `targetIds`. Links to entities `vis` cannot see
   * stay (a confined caller neither sees nor breaks them); dangling links go.
   */
  async replace(link: ResourceLink, resourceId: number, targetIds: readonly number[], vis: Visibility): Promise<void> {
    const { table, column } = RESOURCE_LINKS[link];
    const far = link === 'tags' ? 'tags' : link;
    const visible = entityVisible(vis, kindOfTable(far), `${table}.${column}`);
    let del = this.db.deleteFrom(table).where('resource_id', '=', resourceId);
    if (visible) del = del.where(sql<SqlBool>`(${visible} OR NOT EXISTS (SELECT 1 FROM ${sql.table(far)} far WHERE far.id = ${sql.ref(`${table}.${column}`)}))`);
    await del.execute();
    const kept = visible
      ? new Set((await this.db.selectFrom(table).select(sql.ref<number>(column).as('id')).where('resource_id', '=', resourceId).execute()).map((r) => r.id))
      : new Set<number>();
    const unique = [...new Set(targetIds)].filter((t) => !kept.has(t));
    if (unique.length) await this.db.insertInto(table).values(unique.map((t) => ({ resource_id: resourceId, [column]: t })) as never).execute();
  }

  /** Links every resource to every target, keeping each pair once. */
  async add(link: ResourceLink, resourceIds: readonly number[], targetIds: readonly number[]): Promise<void> {
    const { table, column } = RESOURCE_LINKS[link];
    if (resourceIds.length === 0 || targetIds.length === 0) return;
    await this.db
      .deleteFrom(table)
      .where('resource_id', 'in', [...resourceIds])
      .where(column as 'tag_id', 'in', [...targetIds])
      .execute();
    const rows = resourceIds.flatMap((resource_id) => targetIds.map((t) => ({ resource_id, [column]: t })));
    for (let i = 0; i < rows.length; i += BATCH) await this.db.insertInto(table).values(rows.slice(i, i + BATCH) as never).execute();
  }

  /** The distinct targets the resources link to. */
  async targetsOf(link: ResourceLink, resourceIds: readonly number[]): Promise<number[]> {
    const { table, column } = RESOURCE_LINKS[link];
    if (resourceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom(`${table} as l` as 'resource_tags as l')
      .select(sql.ref<number>(`l.${column}`).as('target'))
      .distinct()
      .where('l.resource_id', 'in', [...resourceIds])
      .execute();
    return rows.map((r) => r.target);
  }

  /** The notes a resource is attached to, by name. */
  async notesOf(resourceId: number, vis: Visibility): Promise<{ id: number; name: string }[]> {
    return this.db
      .selectFrom('resource_notes')
      .innerJoin('notes', 'notes.id', 'resource_notes.note_id')
      .select(['notes.id', 'notes.name'])
      .where('resource_notes.resource_id', '=', resourceId)
      .where(insideScope(vis, 'notes.owner_id') ?? sql<SqlBool>`1 = 1`)
      .orderBy('notes.name')
      .execute();
  }

  /** The groups a resource is related to, by name. */
  async relatedGroupsOf(resourceId: number, vis: Visibility): Promise<Selectable<GroupTable>[]> {
    return this.db
      .selectFrom('groups_related_resources as rr')
      .innerJoin('groups', 'groups.id', 'rr.group_id')
      .selectAll('groups')
      .where('rr.resource_id', '=', resourceId)
      .where(insideScope(vis, 'groups.id') ?? sql<SqlBool>`1 = 1`)
      .orderBy('groups.name')
      .execute();
  }

  /** Owner groups by id. */
  async groups(ids: readonly number[]): Promise<Selectable<GroupTable>[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('groups').selectAll().where('id', 'in', [...ids]).execute();
  }
}
