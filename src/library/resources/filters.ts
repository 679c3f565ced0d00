// Every filter of GET /v1/resources (contract: Resources; companion §3.9, §12.1). The
// repository applies them in SQL; the same filters serve the list, the list pages,
// /v1/resource/view by filter, mass edit by filter and the timeline.
import { Type, type Static } from '@sinclair/typebox';
import type { SortSpec } from '../common/list.js';
import { commonListFields } from '../common/list.js';

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

/** Similar-pair thresholds as read at query time (companion §3.9). */
export interface SimilarityThresholds {
  similarity: number;
  ahash: number;
}

export const RESOURCE_SORT: SortSpec = {
  columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'original_name', 'original_location', 'hash', 'file_size', 'width', 'height', 'content_type', 'category', 'content_category', 'owner_id', 'resource_category_id', 'series_id'],
  meta: true,
};
