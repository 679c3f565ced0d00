// JSON shapes of groups and of the small related records a group read embeds
// (companion §2.1: capitalised names; unloaded associations serialise as null).
import type { Selectable } from 'kysely';
import { parseJson } from '../../core/db/values.js';
import type { CategoryTable, GroupTable } from '../schema/database.js';
import { tagRecord, type TagRow } from '../tags/service.js';

export type GroupRow = Selectable<GroupTable>;

export function categoryStub(row: Pick<Selectable<CategoryTable>, 'id' | 'name' | 'description'> | undefined | null) {
  return row ? { ID: row.id, Name: row.name, Description: row.description } : null;
}

/** The group's own columns; associations are filled in by the caller. */
export function groupRecord(row: GroupRow) {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Name: row.name,
    Description: row.description,
    URL: row.url,
    Meta: parseJson<Record<string, unknown>>(row.meta, {}),
    OwnerId: row.owner_id,
    CategoryId: row.category_id,
    createdByUserId: row.created_by_user_id,
    guid: row.guid,
  };
}

export type GroupRecord = ReturnType<typeof groupRecord>;

/** A group as listed: preloads only Tags and Category (contract). */
export function listedGroup(row: GroupRow, tags: TagRow[], category: ReturnType<typeof categoryStub>) {
  // Object.assign, not a spread into a literal: V8 spreads a fresh record ~15× slower, per row.
  return Object.assign(groupRecord(row), { Tags: tags.map(tagRecord), Category: category, Owner: null, RelatedGroups: null });
}
