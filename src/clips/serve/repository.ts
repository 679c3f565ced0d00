// What a tag server lists at one level; no rules here.
import { sql } from 'kysely';
import { ClipStoreRepository } from '../schema/base-repository.js';
import { isLive } from '../schema/fragments.js';

export interface ServedClip {
  id: number;
  filename: string;
  content_type: string;
  size: number;
  content_hash: string;
  created_at: string;
}

export class ServeRepository extends ClipStoreRepository {
  /** Clips carrying exactly this tag, not archived, not expired, oldest first (companion §9.2). */
  async filesAt(tagId: number, now: string): Promise<ServedClip[]> {
    const r = await sql<ServedClip>`SELECT c.id, c.filename, c.content_type, c.size, c.content_hash, c.created_at
      FROM clip_tags ct JOIN clips c ON c.id = ct.clip_id
      WHERE ct.tag_id = ${tagId} AND c.is_archived = 0 AND ${isLive(sql`c.expires_at`, now)}
      ORDER BY c.created_at, c.id`.execute(this.db);
    return r.rows;
  }
}
