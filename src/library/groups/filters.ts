// Every filter of GET /v1/groups (contract: Groups). GroupRepository applies them in SQL, for
// the list, its timeline, the list page and mass edit's Target=filter alike.
import { Type, type Static } from '@sinclair/typebox';
import { commonListFields } from '../common/list.js';

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
