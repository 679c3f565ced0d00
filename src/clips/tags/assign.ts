// Clip–tag links with same-root-tree exclusivity (companion §4.4): a clip holds at most one tag
// per root tree, so adding work/client2 removes work/client1. Runs inside the caller's
// transaction and returns the events to emit once it has committed.
import type { Kysely } from 'kysely';
import type { ClipEvents } from '../events.js';
import type { ClipDatabase } from '../schema/database.js';
import { ClipTagRepository } from './links.repository.js';
import type { TagRef } from './names.js';

export type LinkChange = { kind: 'added' | 'removed'; clip_id: number; tag_id: number };

type Db = Kysely<ClipDatabase>;

/** Adds `tag` to every listed (existing) clip; clips that already carry it are left alone. */
export async function addTagToClips(db: Db, clipIds: readonly number[], tag: TagRef, now: string): Promise<LinkChange[]> {
  if (clipIds.length === 0) return [];
  const links = new ClipTagRepository(db);
  const already = await links.carrying(tag.id, clipIds);
  const targets = [...new Set(clipIds)].filter((id) => !already.has(id));
  if (targets.length === 0) return [];

  const removed = await links.sameTreeLinks(targets, tag);
  if (removed.length > 0) await links.removeSameTree(targets, tag);
  await links.insert(targets, tag.id, now);

  const changes: LinkChange[] = [];
  const removedByClip = new Map<number, number[]>();
  for (const r of removed) removedByClip.set(r.clip_id, [...(removedByClip.get(r.clip_id) ?? []), r.tag_id]);
  for (const clipId of targets) {
    for (const tagId of removedByClip.get(clipId) ?? []) changes.push({ kind: 'removed', clip_id: clipId, tag_id: tagId });
    changes.push({ kind: 'added', clip_id: clipId, tag_id: tag.id });
  }
  return changes;
}

export async function removeTagFromClips(db: Db, clipIds: readonly number[], tagId: number): Promise<LinkChange[]> {
  if (clipIds.length === 0) return [];
  const removed = await new ClipTagRepository(db).remove(tagId, clipIds);
  return removed.map((clipId) => ({ kind: 'removed' as const, clip_id: clipId, tag_id: tagId }));
}

export function emitLinkChanges(events: ClipEvents, changes: readonly LinkChange[]): void {
  for (const c of changes) {
    events.emit(c.kind === 'added' ? 'tag:added_to_clip' : 'tag:removed_from_clip', { tag_id: c.tag_id, clip_id: c.clip_id });
  }
}
