// Note rules: create and the partial update of the contract (omitted fields keep values, an
// absent association array keeps links, an explicit empty array clears them, an explicit empty
// value clears Description, StartDate or EndDate), meta checked against the note type's
// MetaSchema, the description mirrored into the first text block, and the bulk operations.
import type { Selectable } from 'kysely';
import type { Tx } from '../../core/db/repository.js';
import { badRequest, forbidden, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { OUTSIDE_SCOPE, SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import type { BlockService } from '../blocks/service.js';
import { changedText, newRowStamp, withChange, type ChangeData } from '../common/changes.js';
import { NamedEntities, requireIdsFound, type NamedDeps } from '../common/named.js';
import { jsonObjectText, validName } from '../common/names.js';
import { groupRecord } from '../groups/records.js';
import { checkMeta } from '../meta/schema.js';
import type { Database, NoteTypeTable } from '../schema/database.js';
import type { TagService } from '../tags/service.js';
import { tagRecord } from '../tags/service.js';
import { parseNoteDate } from './dates.js';
import type { NoteListQuery } from './filters.js';
import { noteRecord, resourceStub, type NoteRow } from './records.js';
import type { NoteLink, NoteRepository } from './repository.js';

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

/** The note type as the note records embed it (the note types feature shapes it). */
export interface NoteTypeRecords {
  record(row: Selectable<NoteTypeTable>): Record<string, unknown>;
}

export interface NoteDeps extends NamedDeps {
  tags: Pick<TagService, 'tagsOf'>;
  noteTypes: NoteTypeRecords;
  /** Keeps the first text block in step with a saved description. */
  blocks: Pick<BlockService, 'descriptionSaved'>;
}

const LINK_LABEL: Record<NoteLink, string> = { tags: 'tag', groups: 'group', resources: 'resource' };

function checkDateOrder(start: string | null, end: string | null): void {
  if (start && end && end < start) throw badRequest('EndDate must not be before StartDate');
}

export class NoteService {
  readonly named: NamedEntities<'notes', NoteListQuery, [vis: Visibility]>;

  constructor(
    private readonly repo: NoteRepository,
    private readonly deps: NoteDeps,
  ) {
    this.named = new NamedEntities<'notes', NoteListQuery, [vis: Visibility]>(repo, { entityType: 'note', label: 'note', uniqueName: false }, deps);
  }

  /** One page of the list with Tags and NoteType preloaded (two extra statements per page). */
  async list(vis: Visibility, f: NoteListQuery, perPage?: number) {
    const { rows, page, perPage: size } = await this.named.list(f, perPage, vis);
    return { rows: await this.present(rows), page, perPage: size };
  }

  count(vis: Visibility, f: NoteListQuery): Promise<number> {
    return this.named.count(f, vis);
  }

  /** Ids matching a filter, for mass edit (bounded by the caller), inside its transaction. */
  matchingIds(vis: Visibility, f: NoteListQuery, limit: number, tx?: Tx<Database>): Promise<number[]> {
    return (tx ? this.repo.in(tx) : this.repo).matchingIds(f, limit, vis);
  }

  /** Note types to choose from (forms and filters). */
  noteTypeChoices(): Promise<{ id: number; name: string }[]> {
    return this.repo.noteTypeChoices();
  }

  private noteTypeOf(row: NoteRow, types: Map<number, Selectable<NoteTypeTable>>) {
    const type = row.note_type_id === null ? undefined : types.get(row.note_type_id);
    return type ? this.deps.noteTypes.record(type) : null;
  }

  /** Notes as listed: Tags and NoteType loaded; Groups, Resources and Owner are null. */
  async present(rows: NoteRow[]) {
    const ids = rows.map((r) => r.id);
    const [tags, types] = await Promise.all([this.deps.tags.tagsOf('note', ids), this.repo.noteTypes(typeIds(rows))]);
    return rows.map((r) => ({
      ...noteRecord(r),
      Tags: (tags.get(r.id) ?? []).map(tagRecord),
      NoteType: this.noteTypeOf(r, types),
      Groups: null,
      Resources: null,
      Owner: null,
    }));
  }

  /** The single-note read with every association. */
  async read(vis: Visibility, id: number | undefined) {
    const row = await this.named.require(id, vis);
    const [tags, groups, resources, types, owner] = await Promise.all([
      this.deps.tags.tagsOf('note', [row.id]),
      this.repo.groupsOf([row.id], vis),
      this.repo.resourcesOf([row.id], vis),
      this.repo.noteTypes(typeIds([row])),
      row.owner_id === null ? undefined : this.repo.group(row.owner_id, vis),
    ]);
    return {
      ...noteRecord(row),
      Tags: (tags.get(row.id) ?? []).map(tagRecord),
      Groups: (groups.get(row.id) ?? []).map(groupRecord),
      Resources: (resources.get(row.id) ?? []).map(resourceStub),
      Owner: owner ? groupRecord(owner) : null,
      NoteType: this.noteTypeOf(row, types),
    };
  }

  /** The owner must exist; a confined caller must name one inside its subtree (403 otherwise). */
  private async checkOwner(notes: NoteRepository, ownerId: number | null, vis: Visibility): Promise<void> {
    if (ownerId === null) {
      if (vis.kind === 'subtree') throw forbidden('a group-limited account cannot clear an owner: choose an owner group inside your scope');
      return;
    }
    if (!(await notes.group(ownerId, SEE_ALL))) throw notFound(`owner group ${ownerId} not found`);
    if (!(await notes.group(ownerId, vis))) throw forbidden(`owner group ${ownerId} is ${OUTSIDE_SCOPE}`);
  }

  /** The note type must exist; the meta must fit its MetaSchema (Decision 3). */
  private async checkTypeAndMeta(notes: NoteRepository, noteTypeId: number | null, metaText: string, checkMetaNow: boolean): Promise<void> {
    if (noteTypeId === null) return;
    const type = (await notes.noteTypes([noteTypeId])).get(noteTypeId);
    if (!type) throw notFound(`note type ${noteTypeId} not found`);
    if (checkMetaNow) checkMeta(type.meta_schema, JSON.parse(metaText), 'note type', type.name);
  }

  /** Every linked id must exist (404 naming the first that does not); absent lists keep links. */
  private async setLinks(notes: NoteRepository, noteId: number, input: Pick<NoteWrite, 'Tags' | 'Groups' | 'Resources'>, vis: Visibility): Promise<void> {
    const wanted: [NoteLink, number[] | undefined][] = [
      ['tags', input.Tags],
      ['groups', input.Groups],
      ['resources', input.Resources],
    ];
    for (const [link, list] of wanted) {
      if (list === undefined) continue;
      const unique = [...new Set(list)];
      requireIdsFound(LINK_LABEL[link], unique, await notes.existing(link, unique, vis));
      await notes.setLinks(noteId, link, unique, vis);
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
    const vis = visibilityOf(actor.principal);
    const data: ChangeData = { id: 0, name, description: input.Description ?? '', meta };
    const id = await withChange(this.deps.bus, actor, 'create', 'note', async () => {
      const finalName = validName(changedText(data, 'name', name));
      const finalMeta = data.meta === meta ? meta : jsonObjectText(changedText(data, 'meta', meta) || '{}', 'Meta');
      const newId = await this.deps.transactor.run(async (tx) => {
        const notes = this.repo.in(tx);
        await this.checkOwner(notes, ownerId, vis);
        await this.checkTypeAndMeta(notes, noteTypeId, finalMeta, true);
        const noteId = await notes.insert({
          ...newRowStamp(actor),
          name: finalName,
          description: changedText(data, 'description', ''),
          meta: finalMeta,
          owner_id: ownerId,
          note_type_id: noteTypeId,
          start_date: start,
          end_date: end,
        });
        await this.setLinks(notes, noteId, input, vis);
        return noteId;
      });
      return { id: newId, name: finalName, result: newId };
    }, { data });
    return this.read(vis, id);
  }

  /** Partial update (see the file comment). */
  async update(actor: Actor, id: number, input: NoteWrite) {
    const vis = visibilityOf(actor.principal);
    const before = await this.named.require(id, vis);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    const ownerId = input.OwnerId === undefined ? before.owner_id : input.OwnerId || null;
    const noteTypeId = input.NoteTypeId === undefined ? before.note_type_id : input.NoteTypeId || null;
    const startIn = parseNoteDate(input.StartDate, 'StartDate');
    const endIn = parseNoteDate(input.EndDate, 'EndDate');
    const start = startIn === undefined ? before.start_date : startIn;
    const end = endIn === undefined ? before.end_date : endIn;
    checkDateOrder(start, end);
    const data: ChangeData = { id, name, description: input.Description ?? before.description, meta };
    await withChange(this.deps.bus, actor, 'update', 'note', async () => {
      const finalName = validName(changedText(data, 'name', name));
      const finalMeta = data.meta === meta ? meta : jsonObjectText(changedText(data, 'meta', meta) || '{}', 'Meta');
      await this.deps.transactor.run(async (tx) => {
        const notes = this.repo.in(tx);
        if (ownerId !== before.owner_id) await this.checkOwner(notes, ownerId, vis);
        await this.checkTypeAndMeta(notes, noteTypeId, finalMeta, finalMeta !== before.meta || noteTypeId !== before.note_type_id);
        await notes.update(id, {
          name: finalName,
          description: changedText(data, 'description', before.description),
          meta: finalMeta,
          owner_id: ownerId,
          note_type_id: noteTypeId,
          start_date: start,
          end_date: end,
        }, vis);
        if (input.Description !== undefined) await this.deps.blocks.descriptionSaved(tx, id, changedText(data, 'description', input.Description));
        await this.setLinks(notes, id, input, vis);
      });
      return { id, name: finalName, before, result: undefined };
    }, { data });
    return this.read(vis, id);
  }

  /** Inline description edit: also rewrites the first text block. */
  async editDescription(actor: Actor, id: number | undefined, description: string): Promise<void> {
    const vis = visibilityOf(actor.principal);
    const row = await this.named.require(id, vis);
    await withChange(this.deps.bus, actor, 'update', 'note', async () => {
      await this.deps.transactor.run(async (tx) => {
        await this.repo.in(tx).update(row.id, { description }, vis);
        await this.deps.blocks.descriptionSaved(tx, row.id, description);
      });
      return { id: row.id, name: row.name, before: row, result: undefined };
    });
  }

  delete(actor: Actor, id: number | undefined) {
    return this.named.delete(actor, id);
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const notes = [...new Set(ids)];
    if (notes.length === 0) throw badRequest('ID must list at least one note');
    const vis = visibilityOf(actor.principal);
    await this.named.requireAll(notes, vis);
    await withChange(this.deps.bus, actor, 'delete', 'note', async () => {
      await this.repo.remove(notes, vis);
      return { message: `Deleted ${notes.length} notes (${notes.join(', ')})`, result: undefined };
    }, { ids: notes });
  }
}

function typeIds(rows: NoteRow[]): number[] {
  return [...new Set(rows.map((r) => r.note_type_id).filter((i): i is number => i !== null))];
}
