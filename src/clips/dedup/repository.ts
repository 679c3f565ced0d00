// Duplicate groups (companion §5): live clips sharing a content hash; no rules here.
import { sql } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import { isLive } from '../schema/fragments.js';

export interface DuplicateGroup {
  content_hash: string;
  filename: string;
  content_type: string;
  count: number;
  oldest_id: number;
}

export class DedupRepository extends ClipStoreRepository {
  /** Hashes held by more than one live clip, the largest groups first. */
  async groups(now: string): Promise<DuplicateGroup[]> {
    const r = await sql<DuplicateGroup>`
      SELECT content_hash, MIN(filename) AS filename, MIN(content_type) AS content_type,
             COUNT(*) AS count, MIN(id) AS oldest_id
      FROM clips c WHERE content_hash <> '' AND ${isLive(sql`c.expires_at`, now)}
      GROUP BY content_hash HAVING COUNT(*) > 1
      ORDER BY count DESC, content_hash ASC`.execute(this.db);
    return r.rows.map((g) => ({ ...g, count: Number(g.count), oldest_id: Number(g.oldest_id) }));
  }

  /** The other live clips with the same bytes as `clip`, by id. */
  async duplicatesOf(clip: { id: number; content_hash: string }, now: string): Promise<number[]> {
    const r = await sql<{ id: number }>`SELECT id FROM clips c
      WHERE content_hash = ${clip.content_hash} AND id <> ${clip.id} AND ${isLive(sql`c.expires_at`, now)}
      ORDER BY id`.execute(this.db);
    return r.rows.map((d) => d.id);
  }
}
