// Group rows: the list with every filter of GET /v1/groups, the ownership tree (recursive
// statements using UNION, so even a corrupted cycle in old data terminates), the links a group
// write sets, and the small related records a group read embeds.
import { sql, type Insertable, type RawBuilder, type SqlBool } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import type { Dialect } from '../../core/db/dialect/index.js';
import type { GroupTable } from '../schema/database.js';
import { applyDateBounds } from '../common/list.repository.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import { NamedRepository, type NamedQuery, type NamedRow } from '../common/named.repository.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { GroupListQuery } from './filters.js';

export type GroupRow = NamedRow<'groups'>;

/** The list filters plus the MRQL predicate the service compiled from `MRQL` (AND-ed in). */
export type GroupFilter = GroupListQuery & { mrqlWhere?: RawBuilder<SqlBool> | null };

export interface TreeChild {
  id: number;
  name: string;
  categoryName: string | null;
  childCount: number;
  ownerId: number | null;
}

const GROUP_SORT = {
  columns: ['id', 'name', 'description', 'url', 'created_at', 'updated_at', 'owner_id', 'category_id'],
  meta: true,
};

/** Name condition on one alias: a "quoted" value is an exact match, anything else a substring. */
function nameMatches(dialect: Dialect, column: string, name: string): RawBuilder<SqlBool> {
  const exact = /^".*"$/.test(name) && name.length >= 2;
  return exact ? sql<SqlBool>`${sql.ref(column)} = ${name.slice(1, -1)}` : containsText(dialect, column, name);
}

function nameCondition(dialect: Dialect, f: GroupListQuery, name: string): RawBuilder<SqlBool> {
  const ors = [nameMatches(dialect, 'groups.name', name)];
  if (f.SearchParentsForName) {
    ors.push(sql<SqlBool>`EXISTS (SELECT 1 FROM "groups" np WHERE np.id = "groups".owner_id AND ${nameMatches(dialect, 'np.name', name)})`);
  }
  if (f.SearchChildrenForName) {
    ors.push(sql<SqlBool>`EXISTS (SELECT 1 FROM "groups" nc WHERE nc.owner_id = "groups".id AND ${nameMatches(dialect, 'nc.name', name)})`);
  }
  return sql<SqlBool>`(${sql.join(ors, sql` OR `)})`;
}

/** Each listed tag sits on the group (or, when widened, on its parent or one of its children). */
function tagCondition(f: GroupListQuery, tag: number): RawBuilder<SqlBool> {
  const ors = [sql<SqlBool>`EXISTS (SELECT 1 FROM group_tags gt WHERE gt.group_id = "groups".id AND gt.tag_id = ${tag})`];
  if (f.SearchParentsForTags) {
    ors.push(sql<SqlBool>`EXISTS (SELECT 1 FROM group_tags gt WHERE gt.group_id = "groups".owner_id AND gt.tag_id = ${tag})`);
  }
  if (f.SearchChildrenForTags) {
    ors.push(sql<SqlBool>`EXISTS (SELECT 1 FROM group_tags gt JOIN "groups" c ON c.id = gt.group_id WHERE c.owner_id = "groups".id AND gt.tag_id = ${tag})`);
  }
  return sql<SqlBool>`(${sql.join(ors, sql` OR `)})`;
}

export class GroupRepository extends NamedRepository<'groups', GroupFilter, [vis: Visibility]> {
  protected readonly table = 'groups';

  protected override readonly plansSubtree = true;

  /** Confined by its id (companion §10.10). */
  protected override visibleWhere(vis?: Visibility): RawBuilder<SqlBool> | null {
    return vis ? insideScope(vis, 'groups.id', this.dialect) : null;
  }
  protected readonly sort = GROUP_SORT;

  /** Every filter of the list, its timeline, its page and mass edit's Target=filter. */
  protected override filtered(f: GroupFilter): NamedQuery {
    let q = this.db.selectFrom('groups');
    if (f.mrqlWhere) q = q.where(f.mrqlWhere);
    if (f.Name) q = q.where(nameCondition(this.dialect, f, f.Name));
    if (f.Description) q = q.where(containsText(this.dialect, 'groups.description', f.Description));
    if (f.URL) q = q.where(containsText(this.dialect, 'groups.url', f.URL));
    q = applyDateBounds(q, 'groups', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
    q = applyDateBounds(q, 'groups', 'updated_at', f.UpdatedBefore, f.UpdatedAfter, 'Updated');
    for (const tag of new Set(f.Tags ?? [])) q = q.where(tagCondition(f, tag));
    for (const g of new Set(f.Groups ?? [])) {
      q = q.where(sql<SqlBool>`("groups".owner_id = ${g} OR EXISTS (SELECT 1 FROM group_related_groups rg WHERE rg.group_id = "groups".id AND rg.related_group_id = ${g}))`);
    }
    for (const n of new Set(f.Notes ?? [])) {
      q = q.where(
        sql<SqlBool>`(EXISTS (SELECT 1 FROM groups_related_notes rn WHERE rn.group_id = "groups".id AND rn.note_id = ${n}) OR EXISTS (SELECT 1 FROM notes o WHERE o.id = ${n} AND o.owner_id = "groups".id))`,
      );
    }
    for (const r of new Set(f.Resources ?? [])) {
      q = q.where(
        sql<SqlBool>`(EXISTS (SELECT 1 FROM groups_related_resources rr WHERE rr.group_id = "groups".id AND rr.resource_id = ${r}) OR EXISTS (SELECT 1 FROM resources o WHERE o.id = ${r} AND o.owner_id = "groups".id))`,
      );
    }
    if (f.Categories?.length) q = q.where('groups.category_id', 'in', f.Categories);
    if (f.CategoryId !== undefined) q = q.where('groups.category_id', '=', f.CategoryId);
    if (f.OwnerId !== undefined) q = q.where('groups.owner_id', '=', f.OwnerId);
    if (f.Ids?.length) q = q.where('groups.id', 'in', f.Ids);
    if (f.RelationTypeId !== undefined) {
      const side = f.RelationSide ? sql.ref('rt.to_category_id') : sql.ref('rt.from_category_id');
      q = q.where(sql<SqlBool>`"groups".category_id = (SELECT ${side} FROM group_relation_types rt WHERE rt.id = ${f.RelationTypeId})`);
    }
    if (f.MetaQuery?.length) {
      const cond = metaQueryCondition(this.dialect, 'groups', f.MetaQuery, true);
      if (cond) q = q.where(cond);
    }
    return q as unknown as NamedQuery;
  }

  /** Ids of the groups a filter selects, in id order, at most `limit`. */
  async matchingIds(f: GroupFilter, limit: number, vis: Visibility): Promise<number[]> {
    const id = sql.ref<number>('groups.id');
    const rows = await this.seenBy(this.filtered(f), [vis]).select(id.as('id')).orderBy(id).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async insert(row: Insertable<GroupTable>): Promise<number> {
    return (await this.db.insertInto('groups').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** The group's direct children by name, at most `limit`. */
  async children(id: number, limit: number, vis: Visibility): Promise<GroupRow[]> {
    return (await this.seenBy(this.db.selectFrom('groups').selectAll().where('owner_id', '=', id), [vis]).orderBy('name').limit(limit).execute()) as GroupRow[];
  }

  /** The groups this one relates to, by name, at most `limit`. */
  async relatedGroups(id: number, limit: number, vis: Visibility): Promise<GroupRow[]> {
    const q = this.db
      .selectFrom('group_related_groups as rg')
      .innerJoin('groups', 'groups.id', 'rg.related_group_id')
      .selectAll('groups')
      .where('rg.group_id', '=', id);
    return (await this.seenBy(q, [vis])
      .orderBy('groups.name')
      .limit(limit)
      .execute()) as GroupRow[];
  }

  /** Ancestors of a group, most distant first, the group itself last (unconfined: see `visibleAncestors`). */
  async ancestors(id: number): Promise<GroupRow[]> {
    const r = await sql<GroupRow & { depth: number }>`
      WITH RECURSIVE chain(id, owner_id, depth) AS (
        SELECT id, owner_id, 0 FROM "groups" WHERE id = ${id}
        UNION
        SELECT g.id, g.owner_id, chain.depth + 1 FROM "groups" g JOIN chain ON g.id = chain.owner_id WHERE chain.depth < 10000
      )
      SELECT g.*, chain.depth FROM chain JOIN "groups" g ON g.id = chain.id ORDER BY chain.depth DESC`.execute(this.db);
    return r.rows;
  }

  /** The ids among `ids` that `vis` may see. */
  async visibleAmong(ids: readonly number[], vis: Visibility): Promise<number[]> {
    if (ids.length === 0) return [];
    if (vis.kind === 'all') return [...ids];
    const rows = await this.seenBy(this.db.selectFrom('groups').select('groups.id').where('groups.id', 'in', [...ids]), [vis]).execute();
    return rows.map((r) => r.id);
  }

  /** True when making `ownerId` the parent of `groupId` would close a loop (incl. self-ownership). */
  async wouldCreateCycle(groupId: number, ownerId: number): Promise<boolean> {
    if (groupId === ownerId) return true;
    const r = await sql<{ hit: number }>`
      WITH RECURSIVE chain(id, owner_id) AS (
        SELECT id, owner_id FROM "groups" WHERE id = ${ownerId}
        UNION
        SELECT g.id, g.owner_id FROM "groups" g JOIN chain ON g.id = chain.owner_id
      )
      SELECT 1 AS hit FROM chain WHERE id = ${groupId} LIMIT 1`.execute(this.db);
    return r.rows.length > 0;
  }

  /** One page of a parent's children (parentId 0 = root groups) with their own child counts. */
  async treeChildren(parentId: number, limit: number, vis: Visibility): Promise<TreeChild[]> {
    // A confined caller's roots are its scope group (what is above it does not exist for it).
    const parent =
      parentId !== 0 ? sql`g.owner_id = ${parentId}` : vis.kind === 'subtree' && vis.rootId !== null ? sql`g.id = ${vis.rootId}` : sql`g.owner_id IS NULL`;
    const seen = insideScope(vis, 'g.id') ?? sql`1 = 1`;
    const r = await sql<TreeChild>`
      SELECT g.id, g.name, c.name AS "categoryName", g.owner_id AS "ownerId",
        (SELECT count(*) FROM "groups" k WHERE k.owner_id = g.id) AS "childCount"
      FROM "groups" g LEFT JOIN categories c ON c.id = g.category_id
      WHERE ${parent} AND ${seen}
      ORDER BY lower(g.name), g.id
      LIMIT ${limit}`.execute(this.db);
    return r.rows;
  }

  /** Replaces the group's tags. */
  async setTags(groupId: number, tagIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('group_tags').where('group_id', '=', groupId).execute();
    if (tagIds.length) await this.db.insertInto('group_tags').values(tagIds.map((tag_id) => ({ group_id: groupId, tag_id }))).execute();
  }

  /** Replaces the groups this one relates to. */
  async setRelatedGroups(groupId: number, relatedIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('group_related_groups').where('group_id', '=', groupId).execute();
    if (relatedIds.length) {
      await this.db
        .insertInto('group_related_groups')
        .values(relatedIds.map((related_group_id) => ({ group_id: groupId, related_group_id })))
        .execute();
    }
  }

  /** Whether any user has one of these groups as its scope. */
  async isUserScope(ids: readonly number[]): Promise<boolean> {
    if (ids.length === 0) return false;
    return (await this.db.selectFrom('users').select('id').where('scope_group_id', 'in', [...ids]).limit(1).executeTakeFirst()) !== undefined;
  }

  /** The meta of `ids`, in id order. */
  async metas(ids: readonly number[]): Promise<string[]> {
    return (await this.db.selectFrom('groups').select('meta').where('id', 'in', [...ids]).orderBy('id').execute()).map((r) => r.meta);
  }

  /** Owned (`ownerId`) or related (`relatedTo`) resources, newest first, as the small shape a group read embeds. */
  async resourceStubs(where: { ownerId: number } | { relatedTo: number }, limit: number, vis: Visibility) {
    let q = this.db.selectFrom('resources').select(['resources.id', 'resources.name', 'resources.content_type', 'resources.file_size', 'resources.created_at']);
    const seen = insideScope(vis, 'resources.owner_id');
    if (seen) q = q.where(seen);
    if ('ownerId' in where) q = q.where('resources.owner_id', '=', where.ownerId);
    else q = q.innerJoin('groups_related_resources as rr', 'rr.resource_id', 'resources.id').where('rr.group_id', '=', where.relatedTo);
    return q.orderBy('resources.created_at', 'desc').orderBy('resources.id', 'desc').limit(limit).execute();
  }

  /** Owned (`ownerId`) or related (`relatedTo`) notes, newest first. */
  async noteStubs(where: { ownerId: number } | { relatedTo: number }, limit: number, vis: Visibility) {
    let q = this.db.selectFrom('notes').select(['notes.id', 'notes.name', 'notes.description', 'notes.created_at']);
    const seen = insideScope(vis, 'notes.owner_id');
    if (seen) q = q.where(seen);
    if ('ownerId' in where) q = q.where('notes.owner_id', '=', where.ownerId);
    else q = q.innerJoin('groups_related_notes as rn', 'rn.note_id', 'notes.id').where('rn.group_id', '=', where.relatedTo);
    return q.orderBy('notes.created_at', 'desc').orderBy('notes.id', 'desc').limit(limit).execute();
  }
}
