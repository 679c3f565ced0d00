// Batch loaders for a note's associations: one statement per association for a whole page of
// notes, never one per note.
import type { Kysely, Selectable } from 'kysely';
import type { Database, GroupTable, NoteTypeTable } from '../schema/database.js';
import type { TagRow } from '../tags/service.js';
import { resourceStub, type ResourceStub } from './records.js';

type Db = Kysely<Database>;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export async function tagsByNote(db: Db, noteIds: number[]): Promise<Map<number, TagRow[]>> {
  const out = new Map<number, TagRow[]>();
  if (noteIds.length === 0) return out;
  const rows = await db
    .selectFrom('note_tags')
    .innerJoin('tags', 'tags.id', 'note_tags.tag_id')
    .selectAll('tags')
    .select('note_tags.note_id')
    .where('note_tags.note_id', 'in', noteIds)
    .orderBy('tags.name')
    .execute();
  for (const { note_id, ...tag } of rows) push(out, note_id, tag as TagRow);
  return out;
}

export async function groupsByNote(db: Db, noteIds: number[]): Promise<Map<number, Selectable<GroupTable>[]>> {
  const out = new Map<number, Selectable<GroupTable>[]>();
  if (noteIds.length === 0) return out;
  const rows = await db
    .selectFrom('groups_related_notes as rn')
    .innerJoin('groups', 'groups.id', 'rn.group_id')
    .selectAll('groups')
    .select('rn.note_id')
    .where('rn.note_id', 'in', noteIds)
    .orderBy('groups.name')
    .execute();
  for (const { note_id, ...group } of rows) push(out, note_id, group as Selectable<GroupTable>);
  return out;
}

export async function resourcesByNote(db: Db, noteIds: number[]): Promise<Map<number, ResourceStub[]>> {
  const out = new Map<number, ResourceStub[]>();
  if (noteIds.length === 0) return out;
  const rows = await db
    .selectFrom('resource_notes as rn')
    .innerJoin('resources as r', 'r.id', 'rn.resource_id')
    .select(['rn.note_id', 'r.id', 'r.name', 'r.content_type', 'r.file_size', 'r.hash', 'r.width', 'r.height', 'r.created_at'])
    .where('rn.note_id', 'in', noteIds)
    .orderBy('r.name')
    .orderBy('r.id')
    .execute();
  for (const r of rows) push(out, r.note_id, resourceStub(r));
  return out;
}

export async function noteTypesById(db: Db, ids: (number | null)[]): Promise<Map<number, Selectable<NoteTypeTable>>> {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  const out = new Map<number, Selectable<NoteTypeTable>>();
  if (wanted.length === 0) return out;
  const rows = await db.selectFrom('note_types').selectAll().where('id', 'in', wanted).execute();
  for (const r of rows) out.set(r.id, r);
  return out;
}
