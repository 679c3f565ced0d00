// Deduplication (companion §5): clips with the same content hash form a group; a merge keeps
// one clip, gives it the tags of the others (one per root tree, the survivor's own first) and
// deletes the others, in one transaction.
import { sql } from 'kysely';
import { notFound } from '../../core/http/errors.js';
import type { ClipContext } from '../context.js';
import type { ClipService } from '../clips/service.js';
import { rootOf } from '../tags/names.js';
import { idList, isLive } from '../tags/sql.js';
import { emitLinkChanges, type LinkChange } from '../tags/assign.js';

export interface DuplicateGroup {
  content_hash: string;
  filename: string;
  content_type: string;
  count: number;
  oldest_id: number;
}

export class DedupService {
  constructor(
    private readonly ctx: ClipContext,
    private readonly clips: ClipService,
  ) {}

  async groups(): Promise<{ groups: DuplicateGroup[]; total: number }> {
    const r = await sql<DuplicateGroup>`
      SELECT content_hash, MIN(filename) AS filename, MIN(content_type) AS content_type,
             COUNT(*) AS count, MIN(id) AS oldest_id
      FROM clips c WHERE content_hash <> '' AND ${isLive(sql`c.expires_at`, this.clips.now())}
      GROUP BY content_hash HAVING COUNT(*) > 1
      ORDER BY count DESC, content_hash ASC`.execute(this.ctx.db);
    const groups = r.rows.map((g) => ({ ...g, count: Number(g.count), oldest_id: Number(g.oldest_id) }));
    return { groups, total: groups.length };
  }

  /** Keeps `survivorId` and folds every other live clip with its content into it; returns how many went. */
  async merge(survivorId: number): Promise<number> {
    const now = this.clips.now();
    const outcome = await this.ctx.db.transaction().execute(async (trx) => {
      const survivor = await this.clips.repo.findLive(survivorId, now, trx);
      if (!survivor) throw notFound('clip not found');
      const dupes = await sql<{ id: number }>`SELECT id FROM clips c
        WHERE content_hash = ${survivor.content_hash} AND id <> ${survivor.id} AND ${isLive(sql`c.expires_at`, now)}
        ORDER BY id`.execute(trx);
      const dupeIds = dupes.rows.map((d) => d.id);
      if (dupeIds.length === 0) return { removed: [] as number[], changes: [] as LinkChange[], hash: survivor.content_hash };

      const links = await sql<{ clip_id: number; tag_id: number; name: string }>`
        SELECT ct.clip_id, ct.tag_id, t.name FROM clip_tags ct JOIN tags t ON t.id = ct.tag_id
        WHERE ct.clip_id = ${survivor.id} OR ct.clip_id IN ${idList(dupeIds)}`.execute(trx);
      const order = new Map([survivor.id, ...dupeIds].map((id, i) => [id, i]));
      links.rows.sort((a, b) => order.get(a.clip_id)! - order.get(b.clip_id)! || a.tag_id - b.tag_id);
      // Per root tree the first tag wins: the survivor's own, then the duplicates' by id.
      const roots = new Set(links.rows.filter((l) => l.clip_id === survivor.id).map((l) => rootOf(l.name)));
      const changes: LinkChange[] = [];
      for (const l of links.rows) {
        if (l.clip_id === survivor.id || roots.has(rootOf(l.name))) continue;
        roots.add(rootOf(l.name));
        await trx.insertInto('clip_tags').values({ clip_id: survivor.id, tag_id: l.tag_id, added_at: now }).execute();
        changes.push({ kind: 'added', clip_id: survivor.id, tag_id: l.tag_id });
      }
      await trx.deleteFrom('clips').where(sql<boolean>`id IN ${idList(dupeIds)}`).execute();
      // The merged clip moves to the top of the list.
      await trx.updateTable('clips').set({ created_at: now }).where('id', '=', survivor.id).execute();
      return { removed: dupeIds, changes, hash: survivor.content_hash };
    });
    await this.ctx.blobs.release([outcome.hash], this.clips.referenced);
    for (const id of outcome.removed) this.ctx.events.emit('clip:deleted', id);
    emitLinkChanges(this.ctx.events, outcome.changes);
    return outcome.removed.length;
  }

  /** Merges every group into its oldest clip; a failing group is logged and skipped. */
  async mergeAll(): Promise<number> {
    let removed = 0;
    for (const group of (await this.groups()).groups) {
      try {
        removed += await this.merge(group.oldest_id);
      } catch (e) {
        console.error(`dedup of ${group.content_hash} failed:`, e);
      }
    }
    return removed;
  }
}
