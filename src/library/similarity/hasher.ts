// The perceptual-hash worker (companion §3.9): new uploads of hashable images are queued and
// hashed at once; a periodic cycle (first one 10 s after start) hashes images that have no row
// yet and re-hashes legacy rows. Each hashed image is matched against stored hashes through
// the four indexed 16-bit pHash chunks (every value within Hamming radius 2 of each chunk),
// and pairs within distance 11 are stored once, smaller id first.
import { SEE_ALL } from '../auth/visibility.js';
import { bareMime } from '../../core/storage/sniff.js';
import { chunkNeighbours, chunksOf, fromChunks, hammingDistance, imageHashes, toHex, type ImageHashes } from '../../core/media/phash.js';
import type { Dialect } from '../../core/db/dialect/index.js';
import type { RuntimeSettings } from '../admin/settings.js';
import type { LibraryConfig } from '../config.js';
import type { ResourceRepository } from '../resources/repository.js';
import type { Filesystems } from '../resources/storage.js';
import type { HashValues, SimilarityRepository } from './repository.js';

export interface HashWorkerDeps {
  repo: SimilarityRepository;
  resources: ResourceRepository;
  fs: Filesystems;
  settings: RuntimeSettings;
  dialect: Dialect;
}

export const HASHABLE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** Pairs are stored up to this pHash distance; reads apply the configured threshold. */
export const STORE_DISTANCE = 11;
const QUEUE_CAPACITY = 1000;

export class HashWorker {
  private readonly queue: number[] = [];
  private draining = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private cycleRunning = false;

  private readonly repo: SimilarityRepository;

  constructor(
    private readonly deps: HashWorkerDeps,
    private readonly config: LibraryConfig['hashing'],
  ) {
    this.repo = deps.repo;
  }

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
    if (this.cycleRunning || Number(this.deps.settings.get('hash_backfill_paused')) === 1) return 0;
    this.cycleRunning = true;
    try {
      const missing = await this.repo.unhashed(HASHABLE_TYPES, this.config.batchSize);
      const legacy = await this.repo.legacyHashed(this.config.batchSize);
      const ids = [...missing, ...legacy];
      for (let i = 0; i < ids.length && !this.stopped; i += this.config.workerCount) {
        await Promise.all(ids.slice(i, i + this.config.workerCount).map((id) => this.hashResource(id).catch(() => undefined)));
      }
      return ids.length;
    } finally {
      this.cycleRunning = false;
    }
  }

  private async forget(resourceId: number): Promise<void> {
    await this.repo.removeHash(resourceId);
    await this.repo.removePairsOf(resourceId);
  }

  /** Hashes the resource's current file, stores the row and its similar pairs. */
  async hashResource(resourceId: number): Promise<void> {
    const row = await this.deps.resources.find(resourceId, SEE_ALL);
    if (!row) return;
    if (!HASHABLE_TYPES.includes(bareMime(row.content_type))) return this.forget(resourceId);
    let hashes: ImageHashes | null = null;
    try {
      hashes = await imageHashes(this.deps.fs.get(row.storage_location).resolve(row.location));
    } catch {
      hashes = null;
    }
    await this.store(resourceId, hashes);
    // Pairs of an old file no longer hold.
    await this.repo.removePairsOf(resourceId);
    if (hashes && !hashes.flat) await this.match(resourceId, hashes);
  }

  private async store(resourceId: number, h: ImageHashes | null): Promise<void> {
    const int64 = (v: bigint) => this.deps.dialect.int64(v);
    const values: HashValues = h
      ? (() => {
          const c = chunksOf(h.pHash);
          return {
            a_hash: toHex(h.aHash),
            d_hash: toHex(h.dHash),
            a_hash_int: int64(h.aHash),
            d_hash_int: int64(h.dHash),
            p_hash_int: int64(h.pHash),
            p_chunk0: c[0],
            p_chunk1: c[1],
            p_chunk2: c[2],
            p_chunk3: c[3],
            hash_version: 2,
            status: h.flat ? 'flat' : 'ok',
          };
        })()
      : { a_hash: '', d_hash: '', a_hash_int: null, d_hash_int: null, p_hash_int: null, p_chunk0: null, p_chunk1: null, p_chunk2: null, p_chunk3: null, hash_version: 2, status: 'failed' };
    await this.repo.saveHash(resourceId, values);
  }

  /**
   * Rebuilds every stored pair from the stored hashes (the admin recompute job): each hashed
   * image is matched against those with a smaller id, so every pair is computed once.
   */
  async recomputePairs(signal: AbortSignal, progress: (done: number, total: number) => void): Promise<number> {
    const total = await this.repo.countMatchable();
    await this.repo.removeAllPairs();
    let done = 0;
    let after = 0;
    for (;;) {
      if (signal.aborted) throw new Error('Cancelled');
      const rows = await this.repo.matchableAfter(after, this.config.batchSize);
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
    return this.repo.removeFailed();
  }

  private async match(resourceId: number, h: ImageHashes, onlyLowerIds = false): Promise<void> {
    const candidates = await this.repo.candidates(resourceId, chunksOf(h.pHash).map((c) => chunkNeighbours(c)), onlyLowerIds);
    for (const c of candidates) {
      const p = hammingDistance(h.pHash, fromChunks([c.p_chunk0 ?? 0, c.p_chunk1 ?? 0, c.p_chunk2 ?? 0, c.p_chunk3 ?? 0]));
      if (p > STORE_DISTANCE) continue;
      const a = c.a_hash ? hammingDistance(h.aHash, BigInt(`0x${c.a_hash}`)) : null;
      const d = c.d_hash ? hammingDistance(h.dHash, BigInt(`0x${c.d_hash}`)) : 64;
      await this.repo.savePair(resourceId, c.resource_id, { hamming_distance: d, p_distance: p, a_distance: a });
    }
  }
}
