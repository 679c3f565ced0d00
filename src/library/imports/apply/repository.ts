// The writes of an import apply, and the few reads they depend on (companion §7.5 step 4):
// vocabulary created from the archive, groups and notes matched by GUID or created, their tags,
// note blocks, and the links and typed relations made in the last phase. These are the transfer
// feature's own statements over groups, notes and their links. Resources and series are in
// resources.repository.ts.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { Repository } from '../../../core/db/repository.js';
import type { Database, GroupTable, NoteBlockTable, NoteTable, RelationTable, RelationTypeTable, TagTable } from '../../schema/database.js';
import { batched, slices } from '../../archive/batches.js';

export type GuidTable = 'groups' | 'notes' | 'resources' | 'tags' | 'categories' | 'note_types' | 'resource_categories' | 'group_relation_types';
export type UniqueNameTable = 'categories' | 'resource_categories' | 'tags';
export type CarrierTable = 'categories' | 'note_types' | 'resource_categories';
export type Tagged = 'group' | 'note' | 'resource';
export type LinkTable = 'group_related_groups' | 'groups_related_resources' | 'groups_related_notes' | 'resource_notes';

const TAG_LINKS = {
  group: ['group_tags', 'group_id'],
  note: ['note_tags', 'note_id'],
  resource: ['resource_tags', 'resource_id'],
} as const;

/** The two columns of each link table, in the order links are given. */
const LINK_COLUMNS: Record<LinkTable, [string, string]> = {
  group_related_groups: ['group_id', 'related_group_id'],
  groups_related_resources: ['group_id', 'resource_id'],
  groups_related_notes: ['group_id', 'note_id'],
  resource_notes: ['note_id', 'resource_id'],
};

export class ImportApplyRepository extends Repository<Database> {
  // ---- vocabulary

  async guidTaken(table: GuidTable, guid: string): Promise<boolean> {
    return (await this.db.selectFrom(table).select('id').where('guid', '=', guid).executeTakeFirst()) !== undefined;
  }

  async nameTaken(table: UniqueNameTable, name: string): Promise<boolean> {
    return (await this.db.selectFrom(table).select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async insertTag(row: Insertable<TagTable>): Promise<number> {
    return (await this.db.insertInto('tags').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** A relation type of that name between exactly these categories. */
  async relationTypeBetween(name: string, fromCategoryId: number, toCategoryId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('group_relation_types').select('id').where('name', '=', name).where('from_category_id', '=', fromCategoryId).where('to_category_id', '=', toCategoryId).executeTakeFirst();
    return row?.id;
  }

  async insertRelationType(row: Insertable<RelationTypeTable>): Promise<number> {
    return (await this.db.insertInto('group_relation_types').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  /** A category, note type or resource category from its archive columns. */
  async insertCarrier(table: CarrierTable, row: Record<string, unknown>): Promise<number> {
    return (
      await this.db
        .insertInto(table as 'categories')
        .values(row as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async setBackRelation(id: number, backId: number): Promise<void> {
    await this.db.updateTable('group_relation_types').set({ back_relation_id: backId }).where('id', '=', id).execute();
  }

  // ---- groups and notes

  /** Local ids of the rows carrying these GUIDs. */
  async idsByGuid(table: 'groups' | 'notes' | 'resources', guids: readonly string[]): Promise<{ id: number; guid: string | null }[]> {
    return batched([...guids], (s) => this.db.selectFrom(table).select(['id', 'guid']).where('guid', 'in', s).execute());
  }

  async group(id: number): Promise<Selectable<GroupTable>> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async insertGroup(row: Insertable<GroupTable>): Promise<number> {
    return (await this.db.insertInto('groups').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateGroup(id: number, patch: Updateable<GroupTable>): Promise<void> {
    await this.db.updateTable('groups').set(patch).where('id', '=', id).execute();
  }

  async note(id: number): Promise<Selectable<NoteTable>> {
    return this.db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async insertNote(row: Insertable<NoteTable>): Promise<number> {
    return (await this.db.insertInto('notes').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateNote(id: number, patch: Updateable<NoteTable>): Promise<void> {
    await this.db.updateTable('notes').set(patch).where('id', '=', id).execute();
  }

  /** Adds tags the entity lacks; `replace` first removes the others. */
  async setTags(entity: Tagged, id: number, tagIds: readonly number[], replace = false): Promise<void> {
    const [table, col] = TAG_LINKS[entity];
    if (replace) await this.db.deleteFrom(table as 'group_tags').where(sql.ref(col), '=', id).execute();
    if (tagIds.length === 0) return;
    await this.db
      .insertInto(table as 'group_tags')
      .values(tagIds.map((tag_id) => ({ [col]: id, tag_id }) as { group_id: number; tag_id: number }))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  // ---- note blocks

  async hasBlocks(noteId: number): Promise<boolean> {
    return (await this.db.selectFrom('note_blocks').select('id').where('note_id', '=', noteId).limit(1).executeTakeFirst()) !== undefined;
  }

  async deleteBlocks(noteId: number): Promise<void> {
    await this.db.deleteFrom('note_blocks').where('note_id', '=', noteId).execute();
  }

  async insertBlocks(rows: Insertable<NoteBlockTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('note_blocks').values(rows).execute();
  }

  async queryIdByName(name: string): Promise<number | undefined> {
    return (await this.db.selectFrom('queries').select('id').where('name', '=', name).executeTakeFirst())?.id;
  }

  /** The ids among `ids` that have a row in `table` (block content references). */
  async existing(table: 'resources' | 'groups' | 'queries', ids: readonly number[]): Promise<number[]> {
    return (await batched([...ids], (s) => this.db.selectFrom(table).select('id').where('id', 'in', s).execute())).map((r) => r.id);
  }

  // ---- links and relations

  /** Links as [first, second] column pairs (see LINK_COLUMNS); existing ones are kept. */
  async insertLinks(table: LinkTable, pairs: readonly [number, number][]): Promise<void> {
    const [a, b] = LINK_COLUMNS[table];
    for (const slice of slices([...pairs])) {
      await this.db
        .insertInto(table as 'group_related_groups')
        .values(slice.map(([x, y]) => ({ [a]: x, [b]: y }) as { group_id: number; related_group_id: number }))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  async groupCategories(ids: readonly number[]): Promise<{ id: number; category_id: number | null }[]> {
    return batched([...ids], (s) => this.db.selectFrom('groups').select(['id', 'category_id']).where('id', 'in', s).execute());
  }

  async relationTypeCategories(ids: readonly number[]): Promise<{ id: number; from_category_id: number | null; to_category_id: number | null }[]> {
    return batched([...ids], (s) => this.db.selectFrom('group_relation_types').select(['id', 'from_category_id', 'to_category_id']).where('id', 'in', s).execute());
  }

  /** Typed relations; one that already exists (same ends and type) is kept. */
  async insertRelations(rows: Insertable<RelationTable>[]): Promise<void> {
    for (const slice of slices(rows)) {
      await this.db
        .insertInto('group_relations')
        .values(slice)
        .onConflict((oc) => oc.columns(['from_group_id', 'to_group_id', 'relation_type_id']).doNothing())
        .execute();
    }
  }
}
