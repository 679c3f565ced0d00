// Every filter of GET /v1/resources (contract: Resources; companion §3.9, §12.1), applied in SQL.
// The same function serves the list, the list pages, /v1/resource/view by filter and the
// timeline.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText } from '../../core/db/fragments.js';
import { applyDateBounds, commonListFields } from '../common/list.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { Database } from '../schema/database.js';

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));
const flag = (description: string) => Type.Optional(Type.Boolean({ description }));
const int = (description: string) => Type.Optional(Type.Integer({ description }));

export const ResourceListInput = Type.Object({
  ...commonListFields,
  ContentType: Type.Optional(Type.String({ description: 'partial MIME match' })),
  ContentTypes: Type.Optional(Type.Array(Type.String(), { description: 'exact MIME match, repeatable' })),
  OwnerId: int('owner group'),
  IncludeSubgroups: flag('widens OwnerId to the group and all its descendants'),
  Groups: ids('group ids; each is a related group or the owner'),
  Tags: ids('tag ids; the resource has all of them'),
  Notes: ids('note ids the resource is attached to'),
  Ids: ids('specific resource ids'),
  UpdatedBefore: Type.Optional(Type.String()),
  UpdatedAfter: Type.Optional(Type.String()),
  OriginalName: Type.Optional(Type.String()),
  OriginalLocation: Type.Optional(Type.String()),
  Hash: Type.Optional(Type.String()),
  ShowWithoutOwner: flag('only resources without an owner'),
  ShowWithSimilar: flag('only resources that have a similar image'),
  ShowDhashZero: flag('only images whose difference hash is zero (solid colour)'),
  Untagged: flag('only resources without tags'),
  MinWidth: int('pixels'),
  MaxWidth: int('pixels'),
  MinHeight: int('pixels'),
  MaxHeight: int('pixels'),
  ResourceCategoryId: int('resource category'),
  SeriesId: int('series'),
  MetaQuery: Type.Optional(Type.Array(Type.String(), { description: 'key:value or key:OP:value' })),
  MRQL: Type.Optional(Type.String({ description: 'MRQL filter (type resource implied)' })),
  MaxResults: Type.Optional(Type.Integer({ minimum: 1, description: 'limits results and overrides the page size' })),
});
export type ResourceListQuery = Static<typeof ResourceListInput>;

type ResourceQuery = SelectQueryBuilder<Database, 'resources', object>;

/** Similar-pair thresholds as read at query time (companion §3.9). */
export interface SimilarityThresholds {
  similarity: number;
  ahash: number;
}

/** SQL for "pair row `p` counts as similar" under the thresholds. */
export function similarPair(t: SimilarityThresholds, alias = 'p') {
  const a = sql.raw(alias);
  const ahash = t.ahash > 0 ? sql`AND (${a}.a_distance IS NULL OR ${a}.a_distance <= ${t.ahash})` : sql``;
  return sql<SqlBool>`COALESCE(${a}.p_distance, ${a}.hamming_distance) <= ${t.similarity} ${ahash}`;
}

/** `mrql` is the MRQL filter predicate (mrqlListFilter), AND-ed with every other filter. */
export function applyResourceFilters(q0: ResourceQuery, dialect: Dialect, f: ResourceListQuery, t: SimilarityThresholds, mrql: RawBuilder<SqlBool> | null = null): ResourceQuery {
  let q = mrql ? q0.where(mrql) : q0;
  if (f.Name) q = q.where(containsText(dialect, 'resources.name', f.Name));
  if (f.Description) q = q.where(containsText(dialect, 'resources.description', f.Description));
  if (f.ContentType) q = q.where(containsText(dialect, 'resources.content_type', f.ContentType));
  const types = (f.ContentTypes ?? []).filter((x) => x.trim() !== '');
  if (types.length) q = q.where('resources.content_type', 'in', types);
  q = applyDateBounds(q, 'resources', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
  q = applyDateBounds(q, 'resources', 'updated_at', f.UpdatedBefore, f.UpdatedAfter, 'Updated');
  if (f.OwnerId !== undefined) {
    if (f.IncludeSubgroups) {
      q = q.where(sql<SqlBool>`resources.owner_id IN (
        WITH RECURSIVE sub(id) AS (SELECT id FROM "groups" WHERE id = ${f.OwnerId} UNION SELECT g.id FROM "groups" g JOIN sub ON g.owner_id = sub.id)
        SELECT id FROM sub)`);
    } else {
      q = q.where('resources.owner_id', '=', f.OwnerId);
    }
  }
  if (f.ShowWithoutOwner) q = q.where('resources.owner_id', 'is', null);
  for (const tag of new Set(f.Tags ?? [])) {
    q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM resource_tags rt WHERE rt.resource_id = resources.id AND rt.tag_id = ${tag})`);
  }
  if (f.Untagged) q = q.where(sql<SqlBool>`NOT EXISTS (SELECT 1 FROM resource_tags rt WHERE rt.resource_id = resources.id)`);
  for (const g of new Set(f.Groups ?? [])) {
    q = q.where(sql<SqlBool>`(resources.owner_id = ${g} OR EXISTS (SELECT 1 FROM groups_related_resources rr WHERE rr.resource_id = resources.id AND rr.group_id = ${g}))`);
  }
  for (const n of new Set(f.Notes ?? [])) {
    q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM resource_notes rn WHERE rn.resource_id = resources.id AND rn.note_id = ${n})`);
  }
  if (f.Ids?.length) q = q.where('resources.id', 'in', f.Ids);
  if (f.OriginalName) q = q.where('resources.original_name', '=', f.OriginalName);
  if (f.OriginalLocation) q = q.where('resources.original_location', '=', f.OriginalLocation);
  if (f.Hash) q = q.where('resources.hash', '=', f.Hash.trim().toLowerCase());
  if (f.MinWidth !== undefined) q = q.where('resources.width', '>=', f.MinWidth);
  if (f.MaxWidth !== undefined) q = q.where('resources.width', '<=', f.MaxWidth);
  if (f.MinHeight !== undefined) q = q.where('resources.height', '>=', f.MinHeight);
  if (f.MaxHeight !== undefined) q = q.where('resources.height', '<=', f.MaxHeight);
  if (f.ResourceCategoryId !== undefined) q = q.where('resources.resource_category_id', '=', f.ResourceCategoryId);
  if (f.SeriesId !== undefined) q = q.where('resources.series_id', '=', f.SeriesId);
  if (f.ShowWithSimilar) {
    // A stored similar pair within the thresholds, or an identical legacy difference hash.
    q = q.where(sql<SqlBool>`(
      EXISTS (SELECT 1 FROM resource_similarities p WHERE (p.resource_id1 = resources.id OR p.resource_id2 = resources.id) AND ${similarPair(t)})
      OR EXISTS (SELECT 1 FROM image_hashes h1 JOIN image_hashes h2 ON h2.d_hash = h1.d_hash AND h2.resource_id <> h1.resource_id
                 WHERE h1.resource_id = resources.id AND h1.d_hash <> '' AND h1.status = 'ok' AND h2.status = 'ok'))`);
  }
  if (f.ShowDhashZero) {
    q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM image_hashes h WHERE h.resource_id = resources.id AND (h.d_hash_int = 0 OR h.d_hash = '0000000000000000'))`);
  }
  if (f.MetaQuery?.length) {
    const cond = metaQueryCondition(dialect, 'resources', f.MetaQuery);
    if (cond) q = q.where(cond);
  }
  return q;
}

export const RESOURCE_SORT = {
  columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'original_name', 'original_location', 'hash', 'file_size', 'width', 'height', 'content_type', 'category', 'content_category', 'owner_id', 'resource_category_id', 'series_id'],
  meta: true,
};
