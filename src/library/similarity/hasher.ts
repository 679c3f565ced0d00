// The perceptual-hash worker (companion §3.9): new uploads of hashable images are queued and
// hashed at once; a periodic cycle (first one 10 s after start) hashes images that have no row
// yet and re-hashes legacy rows. Each hashed image is matched against stored hashes through
// the four indexed 16-bit pHash chunks (every value within Hamming radius 2 of each chunk),
// and pairs within distance 11 are stored once, smaller id first.
import { sql } from 'kysely';
import { bareMime } from '../../core/storage/sniff.js';
import { chunkNeighbours, chunksOf, fromChunks, hammingDistance, imageHashes, toHex, toSigned, type ImageHashes } from '../../core/media/phash.js';
import type { DbKind } from '../../core/db/connect.js';
import type { LibraryConfig } from '../config.js';
import type { ResourceContext } from '../resources/context.js';

export const HASHABLE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** Pairs are stored up to this pHash distance; reads apply the configured threshold. */
export const STORE_DISTANCE = 11;
const QUEUE_CAPACITY = 1000;

/** A 64-bit value as a bind parameter of a bigint column. */
function int64(kind: DbKind, v: bigint): unknown {
  return kind === 'postgres' ? toSigned(v).toString() : toSigned(v);
}

export class HashWorker {
  private readonly queue: number[] = [];
  private draining = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private cycleRunning = false;

  constructor(
    private readonly ctx: ResourceContext,
    private readonly config: LibraryConfig['hashing'],
  ) {}

  get enabled(): boolean {
    return !this.config.disabled;
  }

  start(): void {
    if (!this.enabled) return;
    this.timer = setTimeout(() => this.tick(), 10_000);
    this.timer.unref();
  }

  private tick(): void {
    if (this.stopped) return;
    this.cycle()
      .catch((e: Error) => console.error(`hash cycle failed: ${e.message}`))
      .finally(() => {
        if (this.stopped) return;
        this.timer = setTimeout(() => this.tick(), this.config.pollIntervalMs);
        this.timer.unref();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.queue.length = 0;
    while (this.draining || this.cycleRunning) await new Promise((r) => setTimeout(r, 20));
  }

  /** Queues a resource whose current file changed; non-images are ignored. */
  enqueue(resourceId: number, contentType: string): void {
    if (!this.enabled || this.stopped) return;
    if (!HASHABLE_TYPES.includes(bareMime(contentType))) {
      // A file that is no longer an image must not keep its old hash and pairs.
      void this.forget(resourceId).catch(() => undefined);
      return;
    }
    if (this.queue.length >= QUEUE_CAPACITY) return; // the next cycle picks it up
    this.queue.push(resourceId);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length && !this.stopped) {
        const batch = this.queue.splice(0, this.config.workerCount);
        await Promise.all(batch.map((id) => this.hashResource(id).catch((e: Error) => console.error(`hashing resource ${id} failed: ${e.message}`))));
      }
    } finally {
      this.draining = false;
    }
  }

  /** One cycle: images without a hash row, then legacy rows, each up to one batch. */
  async cycle(): Promise<number> {
    if (this.cycleRunning || Number(this.ctx.lib.settings.get('hash_backfill_paused')) === 1) return 0;
    this.cycleRunning = true;
    try {
      const db = this.ctx.lib.db;
      const missing = await db
        .selectFrom('resources')
        .select('resources.id')
        .where('resources.content_type', 'in', HASHABLE_TYPES)
        .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM image_hashes h WHERE h.resource_id = resources.id)`)
        .orderBy('resources.id', 'desc')
        .limit(this.config.batchSize)
        .execute();
      const legacy = await db.selectFrom('image_hashes').select('resource_id as id').where('hash_version', 'is', null).orderBy('resource_id', 'desc').limit(this.config.batchSize).execute();
      const ids = [...missing, ...legacy].map((r) => r.id);
      for (let i = 0; i < ids.length && !this.stopped; i += this.config.workerCount) {
        await Promise.all(ids.slice(i, i + this.config.workerCount).map((id) => this.hashResource(id).catch(() => undefined)));
      }
      return ids.length;
    } finally {
      this.cycleRunning = false;
    }
  }

  private async forget(resourceId: number): Promise<void> {
    await this.ctx.lib.db.deleteFrom('image_hashes').where('resource_id', '=', resourceId).execute();
    await this.ctx.lib.db.deleteFrom('resource_similarities').where((eb) => eb.or([eb('resource_id1', '=', resourceId), eb('resource_id2', '=', resourceId)])).execute();
  }

  /** Hashes the resource's current file, stores the row and its similar pairs. */
  async hashResource(resourceId: number): Promise<void> {
    const db = this.ctx.lib.db;
    const row = await db.selectFrom('resources').select(['id', 'location', 'storage_location', 'content_type']).where('id', '=', resourceId).executeTakeFirst();
    if (!row) return;
    if (!HASHABLE_TYPES.includes(bareMime(row.content_type))) return this.forget(resourceId);
    let hashes: ImageHashes | null = null;
    try {
      hashes = await imageHashes(this.ctx.fs.get(row.storage_location).resolve(row.location));
    } catch {
      hashes = null;
    }
    await this.store(resourceId, hashes);
    // Pairs of an old file no longer hold.
    await db.deleteFrom('resource_similarities').where((eb) => eb.or([eb('resource_id1', '=', resourceId), eb('resource_id2', '=', resourceId)])).execute();
    if (hashes && !hashes.flat) await this.match(resourceId, hashes);
  }

  private async store(resourceId: number, h: ImageHashes | null): Promise<void> {
    const kind = this.ctx.lib.dialect.kind;
    const values = h
      ? (() => {
          const c = chunksOf(h.pHash);
          return {
            a_hash: toHex(h.aHash),
            d_hash: toHex(h.dHash),
            a_hash_int: int64(kind, h.aHash),
            d_hash_int: int64(kind, h.dHash),
            p_hash_int: int64(kind, h.pHash),
            p_chunk0: c[0],
            p_chunk1: c[1],
            p_chunk2: c[2],
            p_chunk3: c[3],
            hash_version: 2,
            status: h.flat ? 'flat' : 'ok',
          };
        })()
      : { a_hash: '', d_hash: '', a_hash_int: null, d_hash_int: null, p_hash_int: null, p_chunk0: null, p_chunk1: null, p_chunk2: null, p_chunk3: null, hash_version: 2, status: 'failed' };
    await this.ctx.lib.db
      .insertInto('image_hashes')
      .values({ resource_id: resourceId, ...values } as never)
      .onConflict((oc) => oc.column('resource_id').doUpdateSet(values as never))
      .execute();
  }

  /**
   * Rebuilds every stored pair from the stored hashes (the admin recompute job): each hashed
   * image is matched against those with a smaller id, so every pair is computed once.
   */
  async recomputePairs(signal: AbortSignal, progress: (done: number, total: number) => void): Promise<number> {
    const db = this.ctx.lib.db;
    const total = Number((await db.selectFrom('image_hashes').select(sql<number>`count(*)`.as('n')).where('status', '=', 'ok').where('hash_version', '=', 2).executeTakeFirstOrThrow()).n);
    await db.deleteFrom('resource_similarities').execute();
    let done = 0;
    let after = 0;
    for (;;) {
      if (signal.aborted) throw new Error('Cancelled');
      const rows = await db
        .selectFrom('image_hashes')
        .select(['resource_id', 'a_hash', 'd_hash', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3'])
        .where('status', '=', 'ok')
        .where('hash_version', '=', 2)
        .where('resource_id', '>', after)
        .orderBy('resource_id')
        .limit(this.config.batchSize)
        .execute();
      if (rows.length === 0) return done;
      for (const r of rows) {
        // The 64-bit columns do not survive the drivers' number conversion; the chunks and the
        // hex forms hold the same bits exactly.
        const h = {
          aHash: BigInt(`0x${r.a_hash || '0'}`),
          dHash: BigInt(`0x${r.d_hash || '0'}`),
          pHash: fromChunks([r.p_chunk0 ?? 0, r.p_chunk1 ?? 0, r.p_chunk2 ?? 0, r.p_chunk3 ?? 0]),
          flat: false,
        };
        await this.match(r.resource_id, h, true);
        progress(++done, total);
      }
      after = rows[rows.length - 1].resource_id;
    }
  }

  /** Failed rows are removed so the next cycle hashes those images again; returns how many. */
  async resetFailed(): Promise<number> {
    const r = await this.ctx.lib.db.deleteFrom('image_hashes').where('status', '=', 'failed').executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  private async match(resourceId: number, h: ImageHashes, onlyLowerIds = false): Promise<void> {
    const db = this.ctx.lib.db;
    const chunks = chunksOf(h.pHash);
    const candidates = await db
      .selectFrom('image_hashes')
      .select(['resource_id', 'p_chunk0', 'p_chunk1', 'p_chunk2', 'p_chunk3', 'a_hash', 'd_hash'])
      .where('resource_id', onlyLowerIds ? '<' : '<>', resourceId)
      .where('status', '=', 'ok')
      .where('hash_version', '=', 2)
      .where((eb) => eb.or(chunks.map((c, i) => eb(`p_chunk${i}` as 'p_chunk0', 'in', chunkNeighbours(c)))))
      .execute();
    for (const c of candidates) {
      const p = hammingDistance(h.pHash, fromChunks([c.p_chunk0 ?? 0, c.p_chunk1 ?? 0, c.p_chunk2 ?? 0, c.p_chunk3 ?? 0]));
      if (p > STORE_DISTANCE) continue;
      const a = c.a_hash ? hammingDistance(h.aHash, BigInt(`0x${c.a_hash}`)) : null;
      const d = c.d_hash ? hammingDistance(h.dHash, BigInt(`0x${c.d_hash}`)) : 64;
      const [id1, id2] = resourceId < c.resource_id ? [resourceId, c.resource_id] : [c.resource_id, resourceId];
      await db
        .insertInto('resource_similarities')
        .values({ resource_id1: id1, resource_id2: id2, hamming_distance: d, p_distance: p, a_distance: a })
        .onConflict((oc) => oc.columns(['resource_id1', 'resource_id2']).doUpdateSet({ hamming_distance: d, p_distance: p, a_distance: a }))
        .execute();
    }
  }
}
