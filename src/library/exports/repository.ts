// Every statement of group export (companion §7.4): what a principal may see, the group tree and
// related groups, the notes and resources the groups own, series, versions and the vocabulary
// they use, the links between them, and the full rows the archive payloads are made of. These
// are the transfer feature's own reads of groups, notes and resources. Id lists of any length
// are read in slices (archive/batches.ts), so no statement carries an unbounded IN list.
import { sql, type Selectable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type {
  CategoryTable,
  Database,
  GroupTable,
  NoteBlockTable,
  NoteTable,
  NoteTypeTable,
  RelationTypeTable,
  ResourceCategoryTable,
  ResourceTable,
  ResourceVersionTable,
  SeriesTable,
  TagTable,
} from '../schema/database.js';
import { batched } from '../archive/batches.js';

export type Vocabulary = 'categories' | 'note_types' | 'resource_categories' | 'tags';
export type Tagged = 'group' | 'note' | 'resource';
export type NamedRow = { id: number; name: string; guid: string | null };
export type CarrierRow = Selectable<CategoryTable> | Selectable<NoteTypeTable> | Selectable<ResourceCategoryTable>;

const TAG_LINKS = {
  group: ['group_tags', 'group_id'],
  note: ['note_tags', 'note_id'],
  resource: ['resource_tags', 'resource_id'],
} as const;

export class ExportRepository extends Repository<Database> {
  // ---- discovery

  /** The scope group and every group below it (group-limited principals see only those). */
  async scopeTree(scopeGroupId: number): Promise<number[]> {
    const r = await sql<{ id: number }>`
      WITH RECURSIVE tree(id) AS (SELECT id FROM "groups" WHERE id = ${scopeGroupId}
        UNION SELECT g.id FROM "groups" g JOIN tree ON g.owner_id = tree.id)
      SELECT id FROM tree`.execute(this.db);
    return r.rows.map((x) => x.id);
  }

  /** The roots and every group below them, with the depth each was first reached at. */
  async subtree(roots: readonly number[]): Promise<{ id: number; depth: number }[]> {
    const r = await sql<{ id: number; depth: number }>`
      WITH RECURSIVE tree(id, depth) AS (
        SELECT id, 0 FROM "groups" WHERE id IN (${sql.join([...roots])})
        UNION
        SELECT g.id, tree.depth + 1 FROM "groups" g JOIN tree ON g.owner_id = tree.id WHERE tree.depth < 1000
      )
      SELECT id, MIN(depth) AS depth FROM tree GROUP BY id ORDER BY MIN(depth), id`.execute(this.db);
    return r.rows.map((x) => ({ id: x.id, depth: Number(x.depth) }));
  }

  async groupItems(ids: readonly number[]): Promise<Pick<Selectable<GroupTable>, 'id' | 'name' | 'guid' | 'owner_id' | 'category_id'>[]> {
    return batched([...ids], (s) => this.db.selectFrom('groups').select(['id', 'name', 'guid', 'owner_id', 'category_id']).where('id', 'in', s).execute());
  }

  /** Id and name of groups (the export page's chosen roots). */
  async groupNames(ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    return batched([...ids], (s) => this.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', s).execute());
  }

  async ownedNotes(ownerIds: readonly number[]): Promise<Pick<Selectable<NoteTable>, 'id' | 'name' | 'guid' | 'owner_id' | 'note_type_id'>[]> {
    return batched([...ownerIds], (s) => this.db.selectFrom('notes').select(['id', 'name', 'guid', 'owner_id', 'note_type_id']).where('owner_id', 'in', s).execute());
  }

  async ownedResources(ownerIds: readonly number[]) {
    return batched([...ownerIds], (s) =>
      this.db
        .selectFrom('resources')
        .select(['id', 'name', 'guid', 'owner_id', 'hash', 'file_size', 'location', 'storage_location', 'series_id', 'resource_category_id'])
        .where('owner_id', 'in', s)
        .execute(),
    );
  }

  async seriesItems(ids: readonly number[]): Promise<Pick<Selectable<SeriesTable>, 'id' | 'name' | 'slug'>[]> {
    return batched([...ids], (s) => this.db.selectFrom('series').select(['id', 'name', 'slug']).where('id', 'in', s).execute());
  }

  /** Members of the series, by id (series siblings outside the export are dangling). */
  async seriesMembers(seriesIds: readonly number[]): Promise<{ id: number; series_id: number | null }[]> {
    return batched([...seriesIds], (s) => this.db.selectFrom('resources').select(['id', 'series_id']).where('series_id', 'in', s).orderBy('id').execute());
  }

  async versions(resourceIds: readonly number[]): Promise<Selectable<ResourceVersionTable>[]> {
    return batched([...resourceIds], (s) => this.db.selectFrom('resource_versions').selectAll().where('resource_id', 'in', s).orderBy('resource_id').orderBy('version_number').execute());
  }

  /** Relation types used by relations starting at the groups. */
  async relationTypesFrom(groupIds: readonly number[]): Promise<number[]> {
    const rows = await batched([...groupIds], (s) => this.db.selectFrom('group_relations').select('relation_type_id').distinct().where('from_group_id', 'in', s).execute());
    return rows.map((r) => r.relation_type_id);
  }

  async backRelations(typeIds: readonly number[]): Promise<(number | null)[]> {
    const rows = await batched([...typeIds], (s) => this.db.selectFrom('group_relation_types').select('back_relation_id').where('id', 'in', s).execute());
    return rows.map((r) => r.back_relation_id);
  }

  async relationTypeItems(ids: readonly number[]): Promise<Pick<Selectable<RelationTypeTable>, 'id' | 'name' | 'guid' | 'from_category_id' | 'to_category_id'>[]> {
    return batched([...ids], (s) => this.db.selectFrom('group_relation_types').select(['id', 'name', 'guid', 'from_category_id', 'to_category_id']).where('id', 'in', s).orderBy('id').execute());
  }

  async vocabularyItems(table: Vocabulary, ids: readonly number[]): Promise<NamedRow[]> {
    return batched([...ids], (s) => this.db.selectFrom(table).select(['id', 'name', 'guid']).where('id', 'in', s).orderBy('id').execute());
  }

  /** The tags the entities carry (ids, once each). */
  async tagIdsOf(entity: Tagged, ids: readonly number[]): Promise<number[]> {
    const [table, col] = TAG_LINKS[entity];
    const rows = await batched([...ids], (s) =>
      this.db
        .selectFrom(table as 'group_tags')
        .select('tag_id')
        .distinct()
        .where(sql.ref(col), 'in', s)
        .execute(),
    );
    return rows.map((r) => r.tag_id);
  }

  /** Names and owners of the notes or resources dangling references point at. */
  async ownedStubs(table: 'notes' | 'resources', ids: readonly number[]): Promise<{ id: number; name: string; owner_id: number | null }[]> {
    return batched([...ids], (s) => this.db.selectFrom(table).select(['id', 'name', 'owner_id']).where('id', 'in', s).execute());
  }

  // ---- links (each read in owner order, then the other end's id)

  async relatedGroupsOf(groupIds: readonly number[]): Promise<{ group_id: number; related_group_id: number }[]> {
    return batched([...groupIds], (s) => this.db.selectFrom('group_related_groups').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('related_group_id').execute());
  }

  async groupResourcesOf(groupIds: readonly number[]): Promise<{ group_id: number; resource_id: number }[]> {
    return batched([...groupIds], (s) => this.db.selectFrom('groups_related_resources').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('resource_id').execute());
  }

  async groupNotesOf(groupIds: readonly number[]): Promise<{ group_id: number; note_id: number }[]> {
    return batched([...groupIds], (s) => this.db.selectFrom('groups_related_notes').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('note_id').execute());
  }

  async noteResourcesOf(noteIds: readonly number[]): Promise<{ note_id: number; resource_id: number }[]> {
    return batched([...noteIds], (s) => this.db.selectFrom('resource_notes').selectAll().where('note_id', 'in', s).orderBy('note_id').orderBy('resource_id').execute());
  }

  async noteGroupsOf(noteIds: readonly number[]): Promise<{ group_id: number; note_id: number }[]> {
    return batched([...noteIds], (s) => this.db.selectFrom('groups_related_notes').selectAll().where('note_id', 'in', s).orderBy('note_id').orderBy('group_id').execute());
  }

  async resourceGroupsOf(resourceIds: readonly number[]): Promise<{ group_id: number; resource_id: number }[]> {
    return batched([...resourceIds], (s) => this.db.selectFrom('groups_related_resources').selectAll().where('resource_id', 'in', s).orderBy('resource_id').orderBy('group_id').execute());
  }

  async resourceNotesOf(resourceIds: readonly number[]): Promise<{ note_id: number; resource_id: number }[]> {
    return batched([...resourceIds], (s) => this.db.selectFrom('resource_notes').selectAll().where('resource_id', 'in', s).orderBy('resource_id').orderBy('note_id').execute());
  }

  /** Typed relations starting at the groups, with their type's name and categories. */
  async relationsFrom(groupIds: readonly number[]) {
    return batched([...groupIds], (s) =>
      this.db
        .selectFrom('group_relations as r')
        .innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id')
        .select(['r.id', 'r.from_group_id', 'r.to_group_id', 'r.name', 'r.description', 'r.relation_type_id', 't.name as type_name', 't.from_category_id', 't.to_category_id'])
        .where('r.from_group_id', 'in', s)
        .orderBy('r.from_group_id')
        .orderBy('r.id')
        .execute(),
    );
  }

  /** Tag id and name of each entity's tags, by name. */
  async tagsOf(entity: Tagged, ids: readonly number[]): Promise<{ owner: number; id: number; name: string }[]> {
    const [table, col] = TAG_LINKS[entity];
    return batched([...ids], (s) =>
      this.db
        .selectFrom(`${table} as j` as 'group_tags as j')
        .innerJoin('tags', 'tags.id', 'j.tag_id')
        .select([sql.ref<number>(`j.${col}`).as('owner'), 'tags.id', 'tags.name'])
        .where(sql.ref(`j.${col}`), 'in', s)
        .orderBy('tags.name')
        .execute(),
    );
  }

  // ---- full rows for the payloads

  async groups(ids: readonly number[]): Promise<Selectable<GroupTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('groups').selectAll().where('id', 'in', s).execute());
  }

  async notes(ids: readonly number[]): Promise<Selectable<NoteTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('notes').selectAll().where('id', 'in', s).execute());
  }

  /** The blocks of the notes, each note's in order. */
  async blocks(noteIds: readonly number[]): Promise<Selectable<NoteBlockTable>[]> {
    return batched([...noteIds], (s) => this.db.selectFrom('note_blocks').selectAll().where('note_id', 'in', s).orderBy('note_id').orderBy('position').orderBy('id').execute());
  }

  async resources(ids: readonly number[]): Promise<Selectable<ResourceTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('resources').selectAll().where('id', 'in', s).execute());
  }

  async series(ids: readonly number[]): Promise<Selectable<SeriesTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('series').selectAll().where('id', 'in', s).execute());
  }

  async tags(ids: readonly number[]): Promise<Selectable<TagTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('tags').selectAll().where('id', 'in', s).execute());
  }

  async relationTypes(ids: readonly number[]): Promise<Selectable<RelationTypeTable>[]> {
    return batched([...ids], (s) => this.db.selectFrom('group_relation_types').selectAll().where('id', 'in', s).execute());
  }

  async carriers(table: 'categories' | 'note_types' | 'resource_categories', ids: readonly number[]): Promise<CarrierRow[]> {
    return batched([...ids], (s) => this.db.selectFrom(table).selectAll().where('id', 'in', s).execute());
  }

  /** Id and name of vocabulary rows and saved queries (the payloads name them). */
  async names(table: Vocabulary | 'queries', ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    return batched([...ids], (s) => this.db.selectFrom(table).select(['id', 'name']).where('id', 'in', s).execute());
  }
}
