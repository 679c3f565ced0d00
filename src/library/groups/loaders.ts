// Batch loaders for the associations a group read shows: one statement per association for a
// whole page of groups, never one per group.
import type { Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import type { TagRow } from '../tags/service.js';
import { categoryStub } from './records.js';

type Db = Kysely<Database>;

export async function tagsByGroup(db: Db, groupIds: number[]): Promise<Map<number, TagRow[]>> {
  const out = new Map<number, TagRow[]>();
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom('group_tags')
    .innerJoin('tags', 'tags.id', 'group_tags.tag_id')
    .selectAll('tags')
    .select('group_tags.group_id')
    .where('group_tags.group_id', 'in', groupIds)
    .orderBy('tags.name')
    .execute();
  for (const { group_id, ...tag } of rows) out.set(group_id, [...(out.get(group_id) ?? []), tag as TagRow]);
  return out;
}

export async function categoriesById(db: Db, ids: (number | null)[]): Promise<Map<number, ReturnType<typeof categoryStub>>> {
  const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
  const out = new Map<number, ReturnType<typeof categoryStub>>();
  if (wanted.length === 0) return out;
  const rows = await db.selectFrom('categories').select(['id', 'name', 'description']).where('id', 'in', wanted).execute();
  for (const r of rows) out.set(r.id, categoryStub(r));
  return out;
}

/** Small resource and note shapes embedded in a group read (their full records come with their issues). */
export async function resourceStubs(db: Db, where: { ownerId?: number; relatedTo?: number }, limit: number) {
  let q = db.selectFrom('resources').select(['resources.id', 'resources.name', 'resources.content_type', 'resources.file_size', 'resources.created_at']);
  if (where.ownerId !== undefined) q = q.where('resources.owner_id', '=', where.ownerId);
  if (where.relatedTo !== undefined) {
    q = q.innerJoin('groups_related_resources as rr', 'rr.resource_id', 'resources.id').where('rr.group_id', '=', where.relatedTo);
  }
  const rows = await q.orderBy('resources.created_at', 'desc').orderBy('resources.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ID: r.id, Name: r.name, ContentType: r.content_type, FileSize: Number(r.file_size), CreatedAt: r.created_at }));
}

export async function noteStubs(db: Db, where: { ownerId?: number; relatedTo?: number }, limit: number) {
  let q = db.selectFrom('notes').select(['notes.id', 'notes.name', 'notes.description', 'notes.created_at']);
  if (where.ownerId !== undefined) q = q.where('notes.owner_id', '=', where.ownerId);
  if (where.relatedTo !== undefined) {
    q = q.innerJoin('groups_related_notes as rn', 'rn.note_id', 'notes.id').where('rn.group_id', '=', where.relatedTo);
  }
  const rows = await q.orderBy('notes.created_at', 'desc').orderBy('notes.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ID: r.id, Name: r.name, Description: r.description, CreatedAt: r.created_at }));
}
