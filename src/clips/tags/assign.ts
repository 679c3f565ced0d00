// Clip–tag links with same-root-tree exclusivity (companion §4.4): a clip holds at most one tag
// per root tree, so adding work/client2 removes work/client1. Runs inside the caller's
// transaction and returns the events to emit once it has committed.
import { sql, type Kysely } from 'kysely';
import type { ClipEvents } from '../events.js';
import type { ClipDatabase } from '../schema/database.js';
import { descendantRange, rootOf } from './names.js';
import { idList, type TagRef } from './sql.js';

export type LinkChange = { kind: 'added' | 'removed'; clip_id: number; tag_id: number };

type Db = Kysely<ClipDatabase>;

/** Adds `tag` to every listed (existing) clip; clips that already carry it are left alone. */
export async function addTagToClips(db: Db, clipIds: readonly number[], tag: TagRef, now: string): Promise<LinkChange[]> {
  if (clipIds.length === 0) return [];
  const carrying = await db
    .selectFrom('clip_tags')
    .select('clip_id')
    .where('tag_id', '=', tag.id)
    .where(sql<boolean>`clip_id IN ${idList(clipIds)}`)
    .execute();
  const already = new Set(carrying.map((r) => r.clip_id));
  const targets = [...new Set(clipIds)].filter((id) => !already.has(id));
  if (targets.length === 0) return [];

  const root = rootOf(tag.name);
  const [low, high] = descendantRange(root);
  const sameTree = sql`(SELECT id FROM tags WHERE id <> ${tag.id} AND (name = ${root} OR (name >= ${low} AND name < ${high})))`;
  const removed = await sql<{ clip_id: number; tag_id: number }>`
    SELECT clip_id, tag_id FROM clip_tags
    WHERE clip_id IN ${idList(targets)} AND tag_id IN ${sameTree}
    ORDER BY clip_id, tag_id`.execute(db);
  if (removed.rows.length > 0) {
    await sql`DELETE FROM clip_tags WHERE clip_id IN ${idList(targets)} AND tag_id IN ${sameTree}`.execute(db);
  }
  await sql`INSERT INTO clip_tags (clip_id, tag_id, added_at)
    SELECT value, ${tag.id}, ${now} FROM json_each(${JSON.stringify(targets)})`.execute(db);

  const changes: LinkChange[] = [];
  const removedByClip = new Map<number, number[]>();
  for (const r of removed.rows) removedByClip.set(r.clip_id, [...(removedByClip.get(r.clip_id) ?? []), r.tag_id]);
  for (const clipId of targets) {
    for (const tagId of removedByClip.get(clipId) ?? []) changes.push({ kind: 'removed', clip_id: clipId, tag_id: tagId });
    changes.push({ kind: 'added', clip_id: clipId, tag_id: tag.id });
  }
  return changes;
}

export async function removeTagFromClips(db: Db, clipIds: readonly number[], tagId: number): Promise<LinkChange[]> {
  if (clipIds.length === 0) return [];
  const rows = await db
    .deleteFrom('clip_tags')
    .where('tag_id', '=', tagId)
    .where(sql<boolean>`clip_id IN ${idList(clipIds)}`)
    .returning('clip_id')
    .execute();
  return rows.map((r) => ({ kind: 'removed' as const, clip_id: r.clip_id, tag_id: tagId }));
}

export function emitLinkChanges(events: ClipEvents, changes: readonly LinkChange[]): void {
  for (const c of changes) {
    events.emit(c.kind === 'added' ? 'tag:added_to_clip' : 'tag:removed_from_clip', { tag_id: c.tag_id, clip_id: c.clip_id });
  }
}
