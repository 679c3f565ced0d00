// Note rules: create and the partial update of the contract (omitted fields keep values, an
// absent association array keeps links, an explicit empty array clears them, an explicit empty
// value clears Description, StartDate or EndDate), meta checked against the note type's
// MetaSchema, the description mirrored into the first text block, and the bulk operations.
import { sql, type Kysely, type Transaction } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange } from '../common/crud.js';
import { applySort, pageOf, sortTerms } from '../common/list.js';
import { jsonObjectText, validName } from '../common/names.js';
import { checkMeta } from '../meta/schema.js';
import type { Database } from '../schema/database.js';
import { NOTE_TYPE } from '../categories/kinds.js';
import { CarrierService } from '../categories/service.js';
import type { Row } from '../common/crud.js';
import { groupRecord } from '../groups/records.js';
import { tagRecord } from '../tags/service.js';
import { writeDescriptionToFirstTextBlock } from '../blocks/description.js';
import { NOTE_SORT, applyNoteFilters, type NoteListQuery } from './filters.js';
import { mrqlListFilter } from '../mrql/filter.js';
import { groupsByNote, noteTypesById, resourcesByNote, tagsByNote } from './loaders.js';
import { noteRecord, type NoteRow } from './records.js';
import { parseNoteDate } from './dates.js';

type Trx = Transaction<Database>;
type Db = Kysely<Database>;

export interface NoteWrite {
  ID?: number;
  Name?: string;
  Description?: string;
  OwnerId?: number;
  NoteTypeId?: number;
  Groups?: number[];
  Tags?: number[];
  Resources?: number[];
  Meta?: string;
  StartDate?: string;
  EndDate?: string;
}

type LinkTable = 'tags' | 'groups' | 'resources';

const LINKS = {
  tags: { join: 'note_tags', col: 'tag_id', label: 'tag' },
  groups: { join: 'groups_related_notes', col: 'group_id', label: 'group' },
  resources: { join: 'resource_notes', col: 'resource_id', label: 'resource' },
} as const;

/** Every id must exist; the first missing one is named in a 404. */
export async function requireIds(db: Db, table: LinkTable | 'notes', ids: number[], label: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  if (found.length !== ids.length) {
    const have = new Set(found.map((r) => r.id));
    throw notFound(`${label} ${ids.find((i) => !have.has(i))} not found`);
  }
}

function checkDateOrder(start: string | null, end: string | null): void {
  if (start && end && end < start) throw badRequest('EndDate must not be before StartDate');
}

export class NoteService {
  readonly crud: Crud<'notes'>;
  readonly noteTypes: CarrierService;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, { table: 'notes', entityType: 'note', label: 'note', sort: NOTE_SORT });
    this.noteTypes = new CarrierService(lib, NOTE_TYPE);
  }

  /** The list's filtered query, before select, sort and paging. */
  filtered(f: NoteListQuery, db: Db = this.lib.db) {
    return applyNoteFilters(db.selectFrom('notes'), this.lib.dialect, f, mrqlListFilter(this.lib, 'note', f.MRQL, 'notes'));
  }

  /** One page of the list with Tags and NoteType preloaded (two extra statements per page). */
  async list(f: NoteListQuery, perPage?: number) {
    const { page, perPage: size, offset } = pageOf(f.page, perPage);
    const terms = sortTerms(this.lib.dialect, 'notes', f.SortBy, NOTE_SORT);
    const rows = await applySort(this.filtered(f).selectAll('notes'), terms).limit(size).offset(offset).execute();
    return { rows: await this.present(rows), page, perPage: size };
  }

  async count(f: NoteListQuery): Promise<number> {
    const r = await this.filtered(f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Ids matching a filter, for mass edit (bounded by the caller). */
  async matchingIds(f: NoteListQuery, limit: number, db: Db = this.lib.db): Promise<number[]> {
    const rows = await this.filtered(f, db).select('notes.id').orderBy('notes.id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  noteTypeRecord(row: Parameters<CarrierService['record']>[0] | undefined | null) {
    return row ? this.noteTypes.record(row as Row<'note_types'>) : null;
  }

  /** Notes as listed: Tags and NoteType loaded; Groups, Resources and Owner are null. */
  async present(rows: NoteRow[]) {
    const db = this.lib.db;
    const [tags, types] = await Promise.all([tagsByNote(db, rows.map((r) => r.id)), noteTypesById(db, rows.map((r) => r.note_type_id))]);
    return rows.map((r) => ({
      ...noteRecord(r),
      Tags: (tags.get(r.id) ?? []).map(tagRecord),
      NoteType: r.note_type_id === null ? null : this.noteTypeRecord(types.get(r.note_type_id) as never),
      Groups: null,
      Resources: null,
      Owner: null,
    }));
  }

  /** The single-note read with every association. */
  async read(id: number | undefined) {
    const row = await this.crud.require(id);
    const db = this.lib.db;
    const [tags, groups, resources, types, owner] = await Promise.all([
      tagsByNote(db, [row.id]),
      groupsByNote(db, [row.id]),
      resourcesByNote(db, [row.id]),
      noteTypesById(db, [row.note_type_id]),
      row.owner_id === null ? undefined : db.selectFrom('groups').selectAll().where('id', '=', row.owner_id).executeTakeFirst(),
    ]);
    return {
      ...noteRecord(row),
      Tags: (tags.get(row.id) ?? []).map(tagRecord),
      Groups: (groups.get(row.id) ?? []).map(groupRecord),
      Resources: resources.get(row.id) ?? [],
      Owner: owner ? groupRecord(owner) : null,
      NoteType: row.note_type_id === null ? null : this.noteTypeRecord(types.get(row.note_type_id) as never),
    };
  }

  private async checkOwner(db: Db, ownerId: number | null): Promise<void> {
    if (ownerId === null) return;
    const owner = await db.selectFrom('groups').select('id').where('id', '=', ownerId).executeTakeFirst();
    if (!owner) throw notFound(`owner group ${ownerId} not found`);
  }

  /** The note type must exist; the meta must fit its MetaSchema (Decision 3). */
  private async checkTypeAndMeta(db: Db, noteTypeId: number | null, metaText: string, checkMetaNow: boolean): Promise<void> {
    if (noteTypeId === null) return;
    const type = await db.selectFrom('note_types').select(['name', 'meta_schema']).where('id', '=', noteTypeId).executeTakeFirst();
    if (!type) throw notFound(`note type ${noteTypeId} not found`);
    if (checkMetaNow) checkMeta(type.meta_schema, JSON.parse(metaText), 'note type', type.name);
  }

  private async setLinks(trx: Trx, noteId: number, input: Pick<NoteWrite, 'Tags' | 'Groups' | 'Resources'>): Promise<void> {
    const wanted: [LinkTable, number[] | undefined][] = [
      ['tags', input.Tags],
      ['groups', input.Groups],
      ['resources', input.Resources],
    ];
    for (const [table, list] of wanted) {
      if (list === undefined) continue;
      const { join, col, label } = LINKS[table];
      const unique = [...new Set(list)];
      await requireIds(trx, table, unique, label);
      await trx.deleteFrom(join).where('note_id', '=', noteId).execute();
      if (unique.length) {
        await trx
          .insertInto(join)
          .values(unique.map((id) => ({ note_id: noteId, [col]: id })) as never)
          .execute();
      }
    }
  }

  async create(actor: Actor, input: NoteWrite) {
    const name = validName(input.Name);
    const meta = jsonObjectText(input.Meta, 'Meta');
    const start = parseNoteDate(input.StartDate, 'StartDate') ?? null;
    const end = parseNoteDate(input.EndDate, 'EndDate') ?? null;
    checkDateOrder(start, end);
    const ownerId = input.OwnerId || null;
    const noteTypeId = input.NoteTypeId || null;
    const id = await withChange(this.lib, actor, 'create', 'note', async () => {
      const newId = await this.lib.db.transaction().execute(async (trx) => {
        await this.checkOwner(trx, ownerId);
        await this.checkTypeAndMeta(trx, noteTypeId, meta, true);
        const row = await trx
          .insertInto('notes')
          .values({
            ...newRowStamp(actor),
            name,
            description: input.Description ?? '',
            meta,
            owner_id: ownerId,
            note_type_id: noteTypeId,
            start_date: start,
            end_date: end,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.setLinks(trx, row.id, input);
        return row.id;
      });
      return { id: newId, name, result: newId };
    });
    return this.read(id);
  }

  /** Partial update (see the file comment). */
  async update(actor: Actor, id: number, input: NoteWrite) {
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    const ownerId = input.OwnerId === undefined ? before.owner_id : input.OwnerId || null;
    const noteTypeId = input.NoteTypeId === undefined ? before.note_type_id : input.NoteTypeId || null;
    const startIn = parseNoteDate(input.StartDate, 'StartDate');
    const endIn = parseNoteDate(input.EndDate, 'EndDate');
    const start = startIn === undefined ? before.start_date : startIn;
    const end = endIn === undefined ? before.end_date : endIn;
    checkDateOrder(start, end);
    await withChange(this.lib, actor, 'update', 'note', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        if (ownerId !== before.owner_id) await this.checkOwner(trx, ownerId);
        await this.checkTypeAndMeta(trx, noteTypeId, meta, input.Meta !== undefined || noteTypeId !== before.note_type_id);
        await trx
          .updateTable('notes')
          .set({
            name,
            description: input.Description ?? before.description,
            meta,
            owner_id: ownerId,
            note_type_id: noteTypeId,
            start_date: start,
            end_date: end,
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .execute();
        if (input.Description !== undefined) await writeDescriptionToFirstTextBlock(trx, id, input.Description);
        await this.setLinks(trx, id, input);
      });
      return { id, name, before, result: undefined };
    });
    return this.read(id);
  }

  /** Inline description edit: also rewrites the first text block. */
  async editDescription(actor: Actor, id: number | undefined, description: string): Promise<void> {
    const row = await this.crud.require(id);
    await withChange(this.lib, actor, 'update', 'note', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await trx.updateTable('notes').set({ description, updated_at: nowIso() }).where('id', '=', row.id).execute();
        await writeDescriptionToFirstTextBlock(trx, row.id, description);
      });
      return { id: row.id, name: row.name, before: row, result: undefined };
    });
  }

  async delete(actor: Actor, id: number | undefined) {
    return this.crud.delete(actor, id);
  }

  private uniqueIds(ids: number[], what = 'ID must list at least one note'): number[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest(what);
    return unique;
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const notes = this.uniqueIds(ids);
    await withChange(this.lib, actor, 'delete', 'note', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await requireIds(trx, 'notes', notes, 'note');
        await trx.deleteFrom('notes').where('id', 'in', notes).execute();
      });
      return { message: `Deleted ${notes.length} notes (${notes.join(', ')})`, result: undefined };
    });
  }
}
