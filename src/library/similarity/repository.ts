// Perceptual hashes and similar pairs: what the hash worker stores and matches, what the
// similarity filters and the resource page read, and the evidence queries of suggested tags
// (each grouped and bounded: 50 neighbours, 20 tags per source).
import { sql, type Insertable, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, ImageHashTable } from '../schema/database.js';
import type { SimilarityThresholds } from '../resources/filters.js';

export type HashRow = Selectable<ImageHashTable>;
/** The hash columns the worker writes; the 64-bit ones as `dialect.int64` bind values. */
export interface HashValues {
  a_hash: string;
  d_hash: string;
  a_hash_int: unknown;
  d_hash_int: unknown;
  p_hash_int: unknown;
  p_chunk0: number | null;
  p_chunk1: number | null;
  p_chunk2: number | null;
  p_chunk3: number | null;
  hash_version: number;
  status: string;
}

/** The hashes a stored row keeps exactly (the 64-bit columns lose bits through the drivers). */
export interface StoredHashes {
  resource_id: number;
  a_hash: string;
  d_hash: string;
  p_chunk0: number | null;
  p_chunk1: number | null;
  p_chunk2: number | null;
  p_chunk3: number | null;
}

export interface PairDistances {
  hamming_distance: number;
  p_distance: number;
  a_distance: number | null;
}

/** SQL for "pair row `alias` counts as similar" under the thresholds. */
export function similarPair(t: SimilarityThresholds, alias = 'p'): RawBuilder<SqlBool> {
  const a = sql.raw(alias);
  const ahash = t.ahash > 0 ? sql`AND (${a}.a_distance IS NULL OR ${a}.a_distance <= ${t.ahash})` : sql``;
  return sql<SqlBool>`COALESCE(${a}.p_distance, ${a}.hamming_distance) <= ${t.similarity} ${ahash}`;
}

const HASHED_V2 = { status: 'ok', version: 2 } as const;

export class SimilarityRepository extends Repository<Database> {
  // ---- reads for pages, filters and suggestions

  /** Similar resources within the thresholds, nearest first (distance, then id). */
  async neighbours(resourceId: number, t: SimilarityThresholds, limit: number): Promise<{ id: number; distance: number }[]> {
    const r = await sql<{ id: number; distance: number }>`
      SELECT CASE WHEN p.resource_id1 = ${resourceId} THEN p.resource_id2 ELSE p.resource_id1 END AS id,
             COALESCE(p.p_distance, p.hamming_distance) AS distance
      FROM resource_similarities p
      WHERE (p.resource_id1 = ${resourceId} OR p.resource_id2 = ${resourceId}) AND ${similarPair(t)}
      ORDER BY distance, id
      LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => ({ id: Number(x.id), distance: Number(x.distance) }));
  }

  /** Resources whose legacy difference hash equals this one's, by id. */
  async identicalDhash(resourceId: number, limit: number): Promise<number[]> {
    const r = await sql<{ id: number }>`
      SELECT h2.resource_id AS id FROM image_hashes h1
      JOIN image_hashes h2 ON h2.d_hash = h1.d_hash AND h2.resource_id <> h1.resource_id AND h2.status = 'ok'
      WHERE h1.resource_id = ${resourceId} AND h1.d_hash <> '' AND h1.status = 'ok'
      ORDER BY h2.resource_id LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => Number(x.id));
  }

  /** The resource's hash row, when it was hashed. */
  async hashOf(resourceId: number): Promise<HashRow | undefined> {
    return this.db.selectFrom('image_hashes').selectAll().where('resource_id', '=', resourceId).executeTakeFirst();
  }

  /** Resources other than the target carrying one of `tagIds` (only the owner's when given). */
  private sharing(tagIds: readonly number[], targetId: number, ownerId: number | null) {
    const owner = ownerId === null ? sql`` : sql`JOIN resources r ON r.id = rt.resource_id AND r.owner_id = ${ownerId}`;
    return sql`SELECT DISTINCT rt.resource_id FROM resource_tags rt ${owner}
      WHERE rt.tag_id IN (${sql.join([...tagIds])}) AND rt.resource_id <> ${targetId}`;
  }

  /** The other members of an owner group. */
  private members(ownerId: number, targetId: number) {
    return sql`SELECT r.id FROM resources r WHERE r.owner_id = ${ownerId} AND r.id <> ${targetId}`;
  }

  /** Top tags of a resource set not among `applied`, by usage, then name, then id. */
  private async topUsage(resourceSet: RawBuilder<unknown>, applied: readonly number[], limit: number): Promise<{ tagId: number; count: number }[]> {
    const notApplied = applied.length ? sql`AND t.tag_id NOT IN (${sql.join([...applied])})` : sql``;
    const r = await sql<{ tag_id: number; n: number }>`
      SELECT t.tag_id, count(*) AS n FROM resource_tags t JOIN tags g ON g.id = t.tag_id
      WHERE t.resource_id IN (${resourceSet}) ${notApplied}
      GROUP BY t.tag_id, g.name ORDER BY n DESC, g.name, t.tag_id LIMIT ${limit}`.execute(this.db);
    return r.rows.map((x) => ({ tagId: Number(x.tag_id), count: Number(x.n) }));
  }

  /** How many other resources share one of `tagIds` (within the owner group when given). */
  async countSharing(tagIds: readonly number[], targetId: number, ownerId: number | null): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(*) AS n FROM (${this.sharing(tagIds, targetId, ownerId)}) s`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Tag usage among the resources sharing one of `tagIds`, excluding those tags. */
  usageSharing(tagIds: readonly number[], targetId: number, ownerId: number | null, limit: number) {
    return this.topUsage(this.sharing(tagIds, targetId, ownerId), tagIds, limit);
  }

  /** Tagged resources among the other members of the owner group. */
  async countTaggedMembers(ownerId: number, targetId: number): Promise<number> {
    const r = await sql<{ n: number }>`SELECT count(DISTINCT rt.resource_id) AS n FROM resource_tags rt
      WHERE rt.resource_id IN (${this.members(ownerId, targetId)})`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Tag usage among the other members of the owner group, excluding `applied`. */
  usageInGroup(ownerId: number, targetId: number, applied: readonly number[], limit: number) {
    return this.topUsage(this.members(ownerId, targetId), applied, limit);
  }

  // ---- the hash worker

  /** Images of `types` without a hash row, newest first. */
  async unhashed(types: readonly string[], limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('resources')
      .select('resources.id')
      .where('resources.content_type', 'in', [...types])
      .where(sql<SqlBool>`NOT EXISTS (SELECT 1 FROM image_hashes h WHERE h.resource_id = resources.id)`)
      .orderBy('resources.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Resources whose hash row predates version 2, newest first. */
  async legacyHashed(limit: number): Promise<number[]> {
    const rows = await this.db.selectFrom('image_hashes').select('resource_id').where('hash_version', 'is', null).orderBy('resource_id', 'desc').limit(limit).execute();
    return rows.map((r) => r.resource_id);
  }

  /** Stores (or replaces) the hash row of a resource. */
  async saveHash(resourceId: number, hashValues: HashValues): Promise<void> {
    const values = hashValues as Omit<Insertable<ImageHashTable>, 'id' | 'resource_id'>;
    await this.db
      .insertInto('image_hashes')
      .values({ resource_id: resourceId, ...values })
      .onConflict((oc) => oc.column('resource_id').doUpdateSet(values))
      .execute();
  }

  async removeHash(resourceId: number): Promise<void> {
    await this.db.deleteFrom('image_hashes').where('resource_id', '=', resourceId).execute();
  }

  /** Removes every pair the resource is part of. */
  async removePairsOf(resourceId: number): Promise<void> {
    await this.db
      .deleteFrom('resource_similarities')
      .where((eb) => eb.or([eb('resource_id1', '=', resourceId), eb('resource_id2', '=', resourceId)]))
      .execute();
  }

  async removeAllPairs(): Promise<void> {
    await this.db.deleteFrom('resource_similarities').execute();
  }

  /** Rows that failed to hash are removed (the next cycle hashes those images again). */
  async removeFailed(): Promise<number> {
    const r = await this.db.deleteFrom('image_hashes').where('status', '=', 'failed').executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** How many version-2 hashes of images that hashed well there are. */
  async countMatchable(): Promise<number> {
    const r = await this.db
      .selectFrom('image_hashes')
      .select(sql<number>`count(*)`.as('n'))
      .where('status', '=', HASHED_V2.status)
      .where('hash_version', '=', HASHED_V2.version)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The next batch of matchable hashes after `afterResourceId`, in resource order. */
  async matchableAfter(afterResourceId: number, limit: number): Promise<StoredHashes[]> {
    return this.db
      .selectFrom('image_hashes')
      .select(['resource_id', 'a_hash', 'd_hash', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3'])
      .where('status', '=', HASHED_V2.status)
      .where('hash_version', '=', HASHED_V2.version)
      .where('resource_id', '>', afterResourceId)
      .orderBy('resource_id')
      .limit(limit)
      .execute();
  }

  /**
   * Matchable hashes sharing a close pHash chunk: `chunkValues[i]` lists the values accepted for
   * chunk i. Only smaller resource ids with `onlyLowerIds` (each pair is then found once).
   */
  async candidates(resourceId: number, chunkValues: readonly (readonly number[])[], onlyLowerIds: boolean): Promise<StoredHashes[]> {
    return this.db
      .selectFrom('image_hashes')
      .select(['resource_id', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3', 'a_hash', 'd_hash'])
      .where('resource_id', onlyLowerIds ? '<' : '<>', resourceId)
      .where('status', '=', HASHED_V2.status)
      .where('hash_version', '=', HASHED_V2.version)
      .where((eb) => eb.or(chunkValues.map((values, i) => eb(`p_chunk${i}` as 'p_chunk0', 'in', [...values]))))
      .execute();
  }

  /** Stores a pair once, smaller id first; a stored pair gets the new distances. */
  async savePair(a: number, b: number, d: PairDistances): Promise<void> {
    const [resource_id1, resource_id2] = a < b ? [a, b] : [b, a];
    await this.db
      .insertInto('resource_similarities')
      .values({ resource_id1, resource_id2, ...d })
      .onConflict((oc) => oc.columns(['resource_id1', 'resource_id2']).doUpdateSet(d))
      .execute();
  }
}
