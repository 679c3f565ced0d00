// Clip metadata rows (companion §3.11): string pairs per clip; no rules here.
import { ClipStoreRepository } from '../schema/base-repository.js';

export class MetadataRepository extends ClipStoreRepository {
  /** The clip's pairs, by key. */
  list(clipId: number): Promise<{ key: string; value: string }[]> {
    return this.db.selectFrom('clip_metadata').select(['key', 'value']).where('clip_id', '=', clipId).orderBy('key').execute();
  }

  async has(clipId: number, key: string): Promise<boolean> {
    const row = await this.db.selectFrom('clip_metadata').select('key').where('clip_id', '=', clipId).where('key', '=', key).executeTakeFirst();
    return row !== undefined;
  }

  async count(clipId: number): Promise<number> {
    const r = await this.db.selectFrom('clip_metadata').select((eb) => eb.fn.countAll<number>().as('n')).where('clip_id', '=', clipId).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Replaces every pair of the clip (run it in a transaction). */
  async replaceAll(clipId: number, pairs: readonly { key: string; value: string }[]): Promise<void> {
    await this.db.deleteFrom('clip_metadata').where('clip_id', '=', clipId).execute();
    if (pairs.length > 0) await this.db.insertInto('clip_metadata').values(pairs.map((p) => ({ clip_id: clipId, key: p.key, value: p.value }))).execute();
  }

  async put(clipId: number, key: string, value: string): Promise<void> {
    await this.db
      .insertInto('clip_metadata')
      .values({ clip_id: clipId, key, value })
      .onConflict((oc) => oc.columns(['clip_id', 'key']).doUpdateSet({ value }))
      .execute();
  }

  async delete(clipId: number, key: string): Promise<void> {
    await this.db.deleteFrom('clip_metadata').where('clip_id', '=', clipId).where('key', '=', key).execute();
  }
}
