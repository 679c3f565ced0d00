// Every filter of GET /v1/notes (contract: Notes) and what SortBy may name. The repository
// applies them in SQL; the same filters serve the list, its timeline, the list page and mass edit.
import { Type, type Static } from '@sinclair/typebox';
import { commonListFields, type SortSpec } from '../common/list.js';

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));
const date = (description: string) => Type.Optional(Type.String({ description: `${description}; YYYY-MM-DD or RFC 3339, inclusive` }));

export const NoteListInput = Type.Object({
  ...commonListFields,
  OwnerId: Type.Optional(Type.Integer({ description: 'owner group' })),
  Groups: ids('group ids; each is a related group or the owner'),
  Tags: ids('tag ids; the note has all of them'),
  Ids: ids('specific note ids'),
  NoteTypeId: Type.Optional(Type.Integer({ description: 'one note type' })),
  NoteTypeIds: ids('note type ids (any of them)'),
  UpdatedBefore: date('updated at or before'),
  UpdatedAfter: date('updated at or after'),
  StartDateBefore: date('start date at or before'),
  StartDateAfter: date('start date at or after'),
  EndDateBefore: date('end date at or before'),
  EndDateAfter: date('end date at or after'),
  Shared: Type.Optional(Type.Boolean({ description: 'omitted: all; true: only shared notes; false: only unshared notes' })),
  MetaQuery: Type.Optional(Type.Array(Type.String(), { description: 'key:value or key:OP:value' })),
  MRQL: Type.Optional(Type.String({ description: 'MRQL expression (type note implied)' })),
});
export type NoteListQuery = Static<typeof NoteListInput>;

export const NOTE_SORT: SortSpec = {
  columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'owner_id', 'note_type_id', 'start_date', 'end_date', 'share_created_at'],
  meta: true,
};
