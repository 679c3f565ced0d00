// Every filter of GET /v1/groups (contract: Groups), applied in SQL. The same function serves
// the list, its timeline, the list page and mass edit's Target=filter.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText } from '../../core/db/fragments.js';
import { applyDateBounds, commonListFields } from '../common/list.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { Database } from '../schema/database.js';

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));
const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const GroupListInput = Type.Object({
  ...commonListFields,
  Tags: ids('tag ids; the group has all of them'),
  Groups: ids('group ids; each is a related group or the owner'),
  Notes: ids('related or owned note ids'),
  Resources: ids('related or owned resource ids'),
  Categories: ids('category ids (any of them)'),
  CategoryId: Type.Optional(Type.Integer()),
  OwnerId: Type.Optional(Type.Integer()),
  Ids: ids('specific group ids'),
  URL: Type.Optional(Type.String({ description: 'partial match on the URL' })),
  UpdatedBefore: Type.Optional(Type.String()),
  UpdatedAfter: Type.Optional(Type.String()),
  RelationTypeId: Type.Optional(Type.Integer({ description: 'groups whose category fits the relation type' })),
  RelationSide: Type.Optional(Type.Integer({ description: '0 = from side, other = to side' })),
  MetaQuery: Type.Optional(Type.Array(Type.String(), { description: 'key:value or key:OP:value; parent. and child. prefixes' })),
  MRQL: Type.Optional(Type.String()),
  SearchParentsForName: flag('Name also matches the direct parent'),
  SearchChildrenForName: flag('Name also matches a direct child'),
  SearchParentsForTags: flag('Tags may sit on the direct parent'),
  SearchChildrenForTags: flag('Tags may sit on a direct child'),
});
export type GroupListQuery = Static<typeof GroupListInput>;

type GroupQuery = SelectQueryBuilder<Database, 'groups', object>;

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

/** `mrql` is the MRQL filter predicate (mrqlListFilter), AND-ed with every other filter. */
export function applyGroupFilters(q0: GroupQuery, dialect: Dialect, f: GroupListQuery, mrql?: RawBuilder<SqlBool> | null): GroupQuery {
  let q = q0;
  if (mrql) q = q.where(mrql);
  if (f.Name) q = q.where(nameCondition(dialect, f, f.Name));
  if (f.Description) q = q.where(containsText(dialect, 'groups.description', f.Description));
  if (f.URL) q = q.where(containsText(dialect, 'groups.url', f.URL));
  q = applyDateBounds(q, 'groups', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
  q = applyDateBounds(q, 'groups', 'updated_at', f.UpdatedBefore, f.UpdatedAfter, 'Updated');
  for (const tag of new Set(f.Tags ?? [])) q = q.where(tagCondition(f, tag));
  for (const g of new Set(f.Groups ?? [])) {
    q = q.where(
      sql<SqlBool>`("groups".owner_id = ${g} OR EXISTS (SELECT 1 FROM group_related_groups rg WHERE rg.group_id = "groups".id AND rg.related_group_id = ${g}))`,
    );
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
    const cond = metaQueryCondition(dialect, 'groups', f.MetaQuery, true);
    if (cond) q = q.where(cond);
  }
  return q;
}

export const GROUP_SORT = {
  columns: ['id', 'name', 'description', 'url', 'created_at', 'updated_at', 'owner_id', 'category_id'],
  meta: true,
};
