// Deduplication (companion §5): clips with the same content hash form a group; a merge keeps
// one clip, gives it the tags of the others (one per root tree, the survivor's own first) and
// deletes the others, in one transaction.
import { notFound } from '../../core/http/errors.js';
import type { ClipContext } from '../context.js';
import type { ClipService } from '../clips/service.js';
import { ClipTagRepository } from '../tags/links.repository.js';
import { rootOf } from '../tags/names.js';
import { emitLinkChanges, type LinkChange } from '../tags/assign.js';
import { DedupRepository, type DuplicateGroup } from './repository.js';


export class DedupService {
  private readonly repo: DedupRepository;
  private readonly links: ClipTagRepository;

  constructor(
    private readonly ctx: ClipContext,
    private readonly clips: ClipService,
  ) {
    this.repo = new DedupRepository(ctx.db);
    this.links = new ClipTagRepository(ctx.db);
  }

  async groups(): Promise<{ groups: DuplicateGroup[]; total: number }> {
    const groups = await this.repo.groups(this.clips.now());
    return { groups, total: groups.length };
  }

  /** Keeps `survivorId` and folds every other live clip with its content into it; returns how many went. */
  async merge(survivorId: number): Promise<number> {
    const now = this.clips.now();
    const outcome = await this.ctx.db.transaction().execute(async (trx) => {
      const clips = this.clips.repo.in(trx);
      const survivor = await clips.findLive(survivorId, now);
      if (!survivor) throw notFound('clip not found');
      const dupeIds = await this.repo.in(trx).duplicatesOf(survivor, now);
      if (dupeIds.length === 0) return { removed: [] as number[], changes: [] as LinkChange[], hash: survivor.content_hash };

      const links = (await clips.tagLinks([survivor.id, ...dupeIds])).map((l) => ({ clip_id: l.clip_id, tag_id: l.id, name: l.name }));
      const order = new Map([survivor.id, ...dupeIds].map((id, i) => [id, i]));
      links.sort((a, b) => order.get(a.clip_id)! - order.get(b.clip_id)! || a.tag_id - b.tag_id);
      // Per root tree the first tag wins: the survivor's own, then the duplicates' by id.
      const roots = new Set(links.filter((l) => l.clip_id === survivor.id).map((l) => rootOf(l.name)));
      const changes: LinkChange[] = [];
      for (const l of links) {
        if (l.clip_id === survivor.id || roots.has(rootOf(l.name))) continue;
        roots.add(rootOf(l.name));
        await this.links.in(trx).insert([survivor.id], l.tag_id, now);
        changes.push({ kind: 'added', clip_id: survivor.id, tag_id: l.tag_id });
      }
      await clips.deleteMany(dupeIds);
      // The merged clip moves to the top of the list.
      await clips.setCreatedAt(survivor.id, now);
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
