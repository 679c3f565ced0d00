// Note rows: the list with every filter of GET /v1/notes (the MRQL predicate AND-ed in), the
// note's links to tags, groups and resources, and the rows a note read embeds (related groups,
// attached resources, its owner group and note type). One statement per association for a whole
// page of notes, never one per note.
import { sql, type Insertable, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText } from '../../core/db/fragments.js';
import type { Executor } from '../../core/db/repository.js';
import { applyDateBounds } from '../common/list.repository.js';
import { entityVisible, insideScope, kindOfTable } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import { NamedRepository, type NamedQuery } from '../common/named.repository.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { Database, GroupTable, NoteTable, NoteTypeTable, ResourceTable } from '../schema/database.js';
import { NOTE_SORT, type NoteListQuery } from './filters.js';

/** The WHERE predicate of an MRQL list filter over `notes` (null when there is none). */
export type MrqlFilter = (text: string | undefined) => RawBuilder<SqlBool> | null;

export type NoteLink = 'tags' | 'groups' | 'resources';
export type ResourceStubRow = Pick<Selectable<ResourceTable>, 'id' | 'name' | 'content_type' | 'file_size' | 'hash' | 'width' | 'height' | 'created_at'>;

const LINKS = {
  tags: { join: 'note_tags', col: 'tag_id' },
  groups: { join: 'groups_related_notes', col: 'group_id' },
  resources: { join: 'resource_notes', col: 'resource_id' },
} as const;

function byNote<V extends { note_id: number }>(rows: V[]): Map<number, Omit<V, 'note_id'>[]> {
  const out = new Map<number, Omit<V, 'note_id'>[]>();
  for (const { note_id, ...rest } of rows) {
    const list = out.get(note_id);
    if (list) list.push(rest);
    else out.set(note_id, [rest]);
  }
  return out;
}

export class NoteRepository extends NamedRepository<'notes', NoteListQuery, [vis: Visibility]> {
  protected readonly table = 'notes';

  protected override readonly plansSubtree = true;
  protected override readonly ownerColumn = 'notes.owner_id';

  /** Confined by its owner (companion §10.10). */
  protected override visibleWhere(vis?: Visibility): RawBuilder<SqlBool> | null {
    return vis ? insideScope(vis, 'notes.owner_id', this.dialect) : null;
  }
  protected readonly sort = NOTE_SORT;

  constructor(
    db: Executor<Database>,
    dialect: Dialect,
    private readonly mrql: MrqlFilter,
  ) {
    super(db, dialect);
  }

  protected override filtered(f: NoteListQuery): NamedQuery {
    return this.notes(f) as unknown as NamedQuery;
  }

  private notes(f: NoteListQuery) {
    const mrql = this.mrql(f.MRQL);
    let q = this.db.selectFrom('notes');
    if (mrql) q = q.where(mrql);
    if (f.Name) q = q.where(containsText(this.dialect, 'notes.name', f.Name));
    if (f.Description) q = q.where(containsText(this.dialect, 'notes.description', f.Description));
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
      const cond = metaQueryCondition(this.dialect, 'notes', f.MetaQuery);
      if (cond) q = q.where(cond);
    }
    return q;
  }

  /** Ids matching a filter, in id order, at most `limit` (mass edit Target=filter). */
  async matchingIds(f: NoteListQuery, limit: number, vis: Visibility): Promise<number[]> {
    const rows = await this.seenBy(this.notes(f), [vis]).select('notes.id').orderBy('notes.id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async insert(row: Insertable<NoteTable>): Promise<number> {
    const r = await this.db.insertInto('notes').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** The ids among `ids` that have a row in the linked table and that `vis` may see. */
  async existing(link: NoteLink, ids: readonly number[], vis: Visibility): Promise<number[]> {
    if (ids.length === 0) return [];
    let q = this.db.selectFrom(link).select(`${link}.id`).where(`${link}.id`, 'in', [...ids]);
    const seen = entityVisible(vis, kindOfTable(link), `${link}.id`);
    if (seen) q = q.where(seen);
    const rows = await q.execute();
    return rows.map((r) => r.id);
  }

  /**
   * Replaces the note's links of one kind with `ids`. Links to entities `vis` cannot see stay
   * (a confined caller neither sees nor breaks them); dangling links go.
   */
  async setLinks(noteId: number, link: NoteLink, ids: readonly number[], vis: Visibility): Promise<void> {
    const { join, col } = LINKS[link];
    const visible = entityVisible(vis, kindOfTable(link), `${join}.${col}`);
    let del = this.db.deleteFrom(join).where('note_id', '=', noteId);
    if (visible) del = del.where(sql<SqlBool>`(${visible} OR NOT EXISTS (SELECT 1 FROM ${sql.table(link)} far WHERE far.id = ${sql.ref(`${join}.${col}`)}))`);
    await del.execute();
    const kept = visible ? new Set((await this.db.selectFrom(join).select(sql.ref<number>(col).as('id')).where('note_id', '=', noteId).execute()).map((r) => r.id)) : new Set<number>();
    const add = ids.filter((id) => !kept.has(id));
    if (add.length === 0) return;
    await this.db
      .insertInto(join)
      .values(add.map((id) => ({ note_id: noteId, [col]: id })) as never)
      .execute();
  }

  /** Related groups of a page of notes, by note id, each list by name. */
  async groupsOf(noteIds: readonly number[], vis: Visibility): Promise<Map<number, Selectable<GroupTable>[]>> {
    if (noteIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('groups_related_notes as rn')
      .innerJoin('groups', 'groups.id', 'rn.group_id')
      .selectAll('groups')
      .select('rn.note_id')
      .where('rn.note_id', 'in', [...noteIds])
      .where(insideScope(vis, 'groups.id') ?? sql<SqlBool>`1 = 1`)
      .orderBy('groups.name')
      .execute();
    return byNote(rows);
  }

  /** Attached resources of a page of notes, by note id, each list by name then id. */
  async resourcesOf(noteIds: readonly number[], vis: Visibility): Promise<Map<number, ResourceStubRow[]>> {
    if (noteIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('resource_notes as rn')
      .innerJoin('resources as r', 'r.id', 'rn.resource_id')
      .select(['rn.note_id', 'r.id', 'r.name', 'r.content_type', 'r.file_size', 'r.hash', 'r.width', 'r.height', 'r.created_at'])
      .where('rn.note_id', 'in', [...noteIds])
      .where(insideScope(vis, 'r.owner_id') ?? sql<SqlBool>`1 = 1`)
      .orderBy('r.name')
      .orderBy('r.id')
      .execute();
    return byNote(rows);
  }

  /** A group (the note's owner). */
  async group(id: number, vis: Visibility): Promise<Selectable<GroupTable> | undefined> {
    return this.db.selectFrom('groups').selectAll().where('groups.id', '=', id).where(insideScope(vis, 'groups.id') ?? sql<SqlBool>`1 = 1`).executeTakeFirst();
  }

  /** Note types by id (a page of notes names few). */
  async noteTypes(ids: readonly number[]): Promise<Map<number, Selectable<NoteTypeTable>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('note_types').selectAll().where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Every note type as a choice for forms and filters, by name. */
  async noteTypeChoices(): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('note_types').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  }
}
