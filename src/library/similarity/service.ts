// Similar resources and the evidence for suggested tags (contract: Suggested tags): a few
// grouped, bounded statements per request, scored by suggest.ts.
import type { SimilarityThresholds } from '../resources/filters.js';
import type { TagService } from '../tags/service.js';
import type { SimilarityRepository } from './repository.js';
import { NEIGHBOUR_LIMIT, SOURCE_LIMIT, scoreSuggestions, type Evidence, type Neighbour, type Suggestion } from './suggest.js';

export interface SimilarNeighbour {
  id: number;
  distance: number;
  /** Matched by an identical legacy difference hash rather than a stored pair. */
  legacy: boolean;
}

export class SimilarityService {
  constructor(
    private readonly repo: SimilarityRepository,
    private readonly tags: TagService,
  ) {}

  /** Similar resources within the thresholds, nearest first, then identical legacy dHashes. */
  async neighbours(resourceId: number, t: SimilarityThresholds, limit = NEIGHBOUR_LIMIT): Promise<SimilarNeighbour[]> {
    const out: SimilarNeighbour[] = (await this.repo.neighbours(resourceId, t, limit)).map((n) => ({ ...n, legacy: false }));
    if (out.length < limit) {
      const seen = new Set(out.map((n) => n.id));
      for (const id of await this.repo.identicalDhash(resourceId, limit)) {
        if (out.length >= limit) break;
        if (!seen.has(id)) out.push({ id, distance: 0, legacy: true });
      }
    }
    return out;
  }

  /** Tag ids per resource (the tags of a page of resources). */
  private async tagIdsOf(ids: number[]): Promise<Map<number, number[]>> {
    const tags = await this.tags.tagsOf('resource', ids);
    return new Map([...tags].map(([id, rows]) => [id, rows.map((t) => t.id)]));
  }

  async evidence(target: { id: number; owner_id: number | null }, t: SimilarityThresholds): Promise<Evidence> {
    const applied = (await this.tagIdsOf([target.id])).get(target.id) ?? [];

    const found = await this.neighbours(target.id, t);
    const tags = await this.tagIdsOf(found.map((n) => n.id));
    const neighbours: Neighbour[] = found.map((n) => ({ distance: n.distance, legacy: n.legacy, tagIds: tags.get(n.id) ?? [] }));

    let cooccurrence: Evidence['cooccurrence'] = null;
    if (applied.length > 0) {
      // Within the owner group when at least five of its resources share a tag, else library-wide.
      let owner: number | null = null;
      let matching = 0;
      if (target.owner_id !== null) {
        matching = await this.repo.countSharing(applied, target.id, target.owner_id);
        if (matching >= 5) owner = target.owner_id;
      }
      if (owner === null) matching = await this.repo.countSharing(applied, target.id, null);
      cooccurrence = { matching, usage: await this.repo.usageSharing(applied, target.id, owner, SOURCE_LIMIT) };
    }

    let group: Evidence['group'] = null;
    if (target.owner_id !== null) {
      group = {
        tagged: await this.repo.countTaggedMembers(target.owner_id, target.id),
        usage: await this.repo.usageInGroup(target.owner_id, target.id, applied, SOURCE_LIMIT),
      };
    }
    return { applied: new Set(applied), neighbours, cooccurrence, group };
  }

  /** Up to eight scored suggestions for the resource. */
  async suggestedTags(target: { id: number; owner_id: number | null }, t: SimilarityThresholds): Promise<Suggestion[]> {
    const evidence = await this.evidence(target, t);
    // Names are needed for every candidate because ties sort by name.
    const ids = new Set([
      ...evidence.neighbours.flatMap((n) => n.tagIds),
      ...(evidence.cooccurrence?.usage ?? []).map((u) => u.tagId),
      ...(evidence.group?.usage ?? []).map((u) => u.tagId),
    ]);
    const rows = await this.tags.named.repo.findMany([...ids]);
    return scoreSuggestions(evidence, new Map(rows.map((r) => [r.id, r.name])));
  }
}
