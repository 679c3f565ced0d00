// Clip–tag link rows (companion §4.4); the same-root-tree rule that uses them is in assign.ts.
import { sql } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import { idList } from '../schema/fragments.js';
import { descendantRange, rootOf, type TagRef } from './names.js';

/** Ids of the other tags of `tag`'s root tree (the root itself or anything below it). */
function sameTreeIds(tag: TagRef) {
  const root = rootOf(tag.name);
  const [low, high] = descendantRange(root);
  return sql`(SELECT id FROM tags WHERE id <> ${tag.id} AND (name = ${root} OR (name >= ${low} AND name < ${high})))`;
}

export class ClipTagRepository extends ClipStoreRepository {
  /** Which of `clipIds` already carry the tag. */
  async carrying(tagId: number, clipIds: readonly number[]): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('clip_tags')
      .select('clip_id')
      .where('tag_id', '=', tagId)
      .where(sql<boolean>`clip_id IN ${idList(clipIds)}`)
      .execute();
    return new Set(rows.map((r) => r.clip_id));
  }

  /** Links of `clipIds` to other tags of `tag`'s root tree, by clip then tag. */
  async sameTreeLinks(clipIds: readonly number[], tag: TagRef): Promise<{ clip_id: number; tag_id: number }[]> {
    const r = await sql<{ clip_id: number; tag_id: number }>`
      SELECT clip_id, tag_id FROM clip_tags
      WHERE clip_id IN ${idList(clipIds)} AND tag_id IN ${sameTreeIds(tag)}
      ORDER BY clip_id, tag_id`.execute(this.db);
    return r.rows;
  }

  async removeSameTree(clipIds: readonly number[], tag: TagRef): Promise<void> {
    await sql`DELETE FROM clip_tags WHERE clip_id IN ${idList(clipIds)} AND tag_id IN ${sameTreeIds(tag)}`.execute(this.db);
  }

  /** Links every listed clip to the tag (none may carry it yet). */
  async insert(clipIds: readonly number[], tagId: number, now: string): Promise<void> {
    await sql`INSERT INTO clip_tags (clip_id, tag_id, added_at)
      SELECT value, ${tagId}, ${now} FROM json_each(${JSON.stringify(clipIds)})`.execute(this.db);
  }

  /** Unlinks the tag from the listed clips; returns the clips that carried it. */
  async remove(tagId: number, clipIds: readonly number[]): Promise<number[]> {
    const rows = await this.db
      .deleteFrom('clip_tags')
      .where('tag_id', '=', tagId)
      .where(sql<boolean>`clip_id IN ${idList(clipIds)}`)
      .returning('clip_id')
      .execute();
    return rows.map((r) => r.clip_id);
  }
}
