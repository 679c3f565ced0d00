// Apply phase "creating notes": notes with their blocks in order. Block content that names
// other entities (gallery resources, referenced groups, calendar files, a table's saved query)
// is rewritten to the local ids through the archive's block refs; a name that has no local
// counterpart is dropped with a warning, and every block is checked by its type like any block
// write. The note description then follows the first text block (companion §12.3). GUID
// matches follow the GUID policy (merge adds blocks only to a note without any).
import type { Tx } from '../../../core/db/repository.js';
import { nowIso } from '../../../core/db/values.js';
import { validName } from '../../common/names.js';
import { firstMissing } from '../../common/named.js';
import type { Database } from '../../schema/database.js';
import { evenlySpaced, isValidPosition } from '../../blocks/positions.js';
import { blockType, type RefChecker } from '../../blocks/types.js';
import { slices } from '../../archive/batches.js';
import type { NoteEntry } from '../archive-index.js';
import { isObj, obj, str, strList, strOrNull, timestamp, type Obj } from '../fields.js';
import type { ImportApplyRepository } from './repository.js';
import { checkImportedMeta, mergedMeta } from './rows.js';
import type { ApplyRun } from './run.js';

const BATCH = 50;
const NOTE_CARRIER = { table: 'note_types', column: 'note_type_id', label: 'note type' } as const;

function refChecker(repo: ImportApplyRepository): RefChecker {
  return {
    async firstMissing(table, ids) {
      if (ids.length === 0) return undefined;
      return firstMissing(ids, await repo.existing(table, ids));
    },
  };
}

/** Local ids for a list of archive refs; the ones that did not come over are dropped. */
function mapped(ids: unknown, map: Map<string, { id: number }>): number[] {
  return (Array.isArray(ids) ? ids : []).map((ref) => (typeof ref === 'string' ? map.get(ref)?.id : undefined)).filter((id): id is number => id !== undefined);
}

class BlockImporter {
  private readonly queries = new Map<string, number | null>();

  constructor(private readonly run: ApplyRun) {}

  private async queryId(repo: ImportApplyRepository, name: string | null): Promise<number | null> {
    if (name === null) return null;
    if (!this.queries.has(name)) this.queries.set(name, (await repo.queryIdByName(name)) ?? null);
    return this.queries.get(name)!;
  }

  /** The block's content with entity ids translated, or null when nothing sensible is left. */
  private async remap(repo: ImportApplyRepository, type: string, content: Obj, refs: Obj, where: string): Promise<Obj> {
    const run = this.run;
    if (type === 'gallery') {
      const ids = mapped(refs.resourceIds, run.resources);
      if (ids.length < (Array.isArray(content.resourceIds) ? content.resourceIds.length : 0)) run.warn(`${where}: gallery images that were not imported were left out`);
      return { ...content, resourceIds: ids };
    }
    if (type === 'references') {
      const ids = mapped(refs.groupIds, run.groups);
      if (ids.length < (Array.isArray(content.groupIds) ? content.groupIds.length : 0)) run.warn(`${where}: referenced groups that were not imported were left out`);
      return { ...content, groupIds: ids };
    }
    if (type === 'calendar' && Array.isArray(content.calendars)) {
      const files = obj(refs.calendars);
      const calendars = content.calendars.filter(isObj).flatMap((cal) => {
        const source = obj(cal.source);
        if (source.type !== 'resource') return [cal];
        const ref = files[str(cal.id)];
        const local = typeof ref === 'string' ? run.resources.get(ref) : undefined;
        if (!local) {
          run.warn(`${where}: calendar "${str(cal.name).slice(0, 80)}" reads a file that was not imported; it was left out`);
          return [];
        }
        return [{ ...cal, source: { type: 'resource', resourceId: local.id } }];
      });
      return { ...content, calendars };
    }
    if (type === 'table' && content.queryId !== undefined && content.queryId !== null) {
      const name = strOrNull(refs.query_name);
      const id = await this.queryId(repo, name);
      if (id === null) {
        run.warn(`${where}: the table's saved query ${name ? `"${name.slice(0, 80)}" ` : ''}does not exist here; the table was imported empty`);
        return { columns: [], rows: [] };
      }
      return { ...content, queryId: id };
    }
    return content;
  }

  async insert(repo: ImportApplyRepository, noteId: number, blocks: unknown, where: string): Promise<void> {
    const list = (Array.isArray(blocks) ? blocks : []).filter(isObj);
    const rows: { type: string; position: string; content: Obj; state: Obj }[] = [];
    for (const [i, b] of list.entries()) {
      const label = `${where}, block ${i + 1}`;
      let type;
      try {
        type = blockType(str(b.type));
      } catch {
        this.run.warn(`${label}: unknown block type "${str(b.type).slice(0, 40)}"; it was left out`);
        continue;
      }
      try {
        const content = await type.content(await this.remap(repo, type.type, obj(b.content), obj(b.refs), label), refChecker(repo));
        let state: Obj;
        try {
          state = type.state(obj(b.state), content);
        } catch {
          state = type.defaultState();
        }
        rows.push({ type: type.type, position: str(b.position), content, state });
      } catch (e) {
        this.run.warn(`${label}: ${(e as Error).message}; it was left out`);
      }
    }
    if (rows.length === 0) return;
    const ordered = rows.every((r, i) => isValidPosition(r.position) && (i === 0 || rows[i - 1].position < r.position));
    const positions = ordered ? rows.map((r) => r.position) : evenlySpaced(rows.length);
    const now = nowIso();
    await repo.insertBlocks(
      rows.map((r, i) => ({
        created_at: now,
        updated_at: now,
        created_by_user_id: this.run.actor.principal.userId,
        note_id: noteId,
        type: r.type,
        position: positions[i],
        content: JSON.stringify(r.content),
        state: JSON.stringify(r.state),
      })),
    );
  }
}

function noteName(run: ApplyRun, raw: string): string {
  try {
    return validName(raw);
  } catch {
    run.warn(`note "${raw.slice(0, 80)}" has an invalid name; it was imported as "Unnamed note"`);
    return 'Unnamed note';
  }
}

async function applyOne(run: ApplyRun, tx: Tx<Database>, blocks: BlockImporter, n: NoteEntry, guids: Map<string, number>): Promise<void> {
  const repo = run.repo.in(tx);
  if (run.excluded.has(n.id)) return;
  const owner = run.ownerOf(n.owner);
  if (owner.excluded) return;
  const p = await run.payload(n.file);
  const typeId = run.vocabId('note_types', n.typeRef, n.typeName);
  const tags = run.tagIds(n.tags);
  const meta = obj(p.meta);
  const start = timestamp(p.start_date);
  let end = timestamp(p.end_date);
  if (start && end && end < start) end = null;
  const label = `note "${n.name.slice(0, 80)}"`;
  const match = n.guid ? guids.get(n.guid) : undefined;
  let noteId: number;
  if (match !== undefined) {
    run.result.linked_by_guid_notes++;
    noteId = match;
    if (run.d.guidPolicy === 'skip') {
      run.result.skipped_by_policy_notes++;
      run.notes.set(n.id, { id: match, touched: false });
      queueLinks(run, n.id, p);
      return;
    }
    const row = await repo.note(match);
    if (run.d.guidPolicy === 'merge') {
      await repo.updateNote(match, {
        description: row.description || str(p.description),
        meta: JSON.stringify(mergedMeta(row.meta, meta)),
        note_type_id: row.note_type_id ?? typeId,
        start_date: row.start_date ?? start,
        end_date: row.end_date ?? (row.start_date === null ? end : row.end_date),
        updated_at: nowIso(),
      });
      await repo.setTags('note', match, tags);
      if (!(await repo.hasBlocks(match))) await blocks.insert(repo, match, p.blocks, label);
      run.result.merged_notes++;
    } else {
      await checkImportedMeta(run, tx, NOTE_CARRIER, typeId, meta, label);
      await repo.updateNote(match, { name: noteName(run, n.name), description: str(p.description), meta: JSON.stringify(meta), note_type_id: typeId, start_date: start, end_date: end, updated_at: nowIso() });
      await repo.setTags('note', match, tags, true);
      await repo.deleteBlocks(match);
      await blocks.insert(repo, match, p.blocks, label);
    }
  } else {
    await checkImportedMeta(run, tx, NOTE_CARRIER, typeId, meta, label);
    noteId = await repo.insertNote({
      ...run.stamp(p),
      guid: await run.guidFor(repo, 'notes', p.guid),
      name: noteName(run, n.name),
      description: str(p.description),
      meta: JSON.stringify(meta),
      owner_id: owner.id,
      note_type_id: typeId,
      start_date: start,
      end_date: end,
    });
    await repo.setTags('note', noteId, tags);
    await blocks.insert(repo, noteId, p.blocks, label);
    run.result.created_notes++;
    run.result.created_note_ids.push(noteId);
  }
  await run.deps.blocks.mirrorDescription(tx, noteId);
  run.notes.set(n.id, { id: noteId, touched: true });
  queueLinks(run, n.id, p);
}

function queueLinks(run: ApplyRun, id: string, p: Obj): void {
  for (const resource of strList(p.resources)) run.links.push({ table: 'resource_notes', group: id, other: resource });
  for (const group of strList(p.groups)) run.links.push({ table: 'groups_related_notes', group, other: id });
}

export async function applyNotes(run: ApplyRun): Promise<void> {
  const list = run.index.notes;
  const guids = new Map<string, number>();
  const wanted = [...new Set(list.map((n) => n.guid).filter((g): g is string => g !== null))];
  for (const row of await run.repo.idsByGuid('notes', wanted)) guids.set(row.guid!, row.id);
  const blocks = new BlockImporter(run);
  let done = 0;
  for (const batch of slices(list, BATCH)) {
    run.checkCancelled();
    await run.transactor.run(async (tx) => {
      for (const n of batch) await applyOne(run, tx, blocks, n, guids);
    });
    done += batch.length;
    run.advance(batch.length);
    run.job.phase('creating notes', done, list.length);
  }
}
