// Every filter of GET /v1/notes (contract: Notes), applied in SQL. The same function serves the
// list, its timeline and the list page.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText } from '../../core/db/fragments.js';
import { applyDateBounds, commonListFields } from '../common/list.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { Database } from '../schema/database.js';

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

type NoteQuery = SelectQueryBuilder<Database, 'notes', object>;

/** `mrql` is the MRQL filter predicate (mrqlListFilter), AND-ed with every other filter. */
export function applyNoteFilters(q0: NoteQuery, dialect: Dialect, f: NoteListQuery, mrql: RawBuilder<SqlBool> | null = null): NoteQuery {
  let q = mrql ? q0.where(mrql) : q0;
  if (f.Name) q = q.where(containsText(dialect, 'notes.name', f.Name));
  if (f.Description) q = q.where(containsText(dialect, 'notes.description', f.Description));
  q = applyDateBounds(q, 'notes', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
  q = applyDateBounds(q, 'notes', 'updated_at', f.UpdatedBefore, f.UpdatedAfter, 'Updated');
  q = applyDateBounds(q, 'notes', 'start_date', f.StartDateBefore, f.StartDateAfter, 'StartDate');
  q = applyDateBounds(q, 'notes', 'end_date', f.EndDateBefore, f.EndDateAfter, 'EndDate');
  if (f.OwnerId !== undefined) q = q.where('notes.owner_id', '=', f.OwnerId);
  for (const tag of new Set(f.Tags ?? [])) {
    q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM note_tags nt WHERE nt.note_id = notes.id AND nt.tag_id = ${tag})`);
  }
  for (const g of new Set(f.Groups ?? [])) {
    q = q.where(sql<SqlBool>`(notes.owner_id = ${g} OR EXISTS (SELECT 1 FROM groups_related_notes rn WHERE rn.note_id = notes.id AND rn.group_id = ${g}))`);
  }
  if (f.Ids?.length) q = q.where('notes.id', 'in', f.Ids);
  if (f.NoteTypeId !== undefined) q = q.where('notes.note_type_id', '=', f.NoteTypeId);
  if (f.NoteTypeIds?.length) q = q.where('notes.note_type_id', 'in', f.NoteTypeIds);
  if (f.Shared === true) q = q.where('notes.share_token', 'is not', null);
  if (f.Shared === false) q = q.where('notes.share_token', 'is', null);
  if (f.MetaQuery?.length) {
    const cond = metaQueryCondition(dialect, 'notes', f.MetaQuery);
    if (cond) q = q.where(cond);
  }
  return q;
}

export const NOTE_SORT = {
  columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'owner_id', 'note_type_id', 'start_date', 'end_date', 'share_created_at'],
  meta: true,
};
