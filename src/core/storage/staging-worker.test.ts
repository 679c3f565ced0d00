// The staging ring and thread: reads land in the ring (as a socket's would), the parser's pieces
// of them are hashed and written by the thread without losing or reordering a byte — across the
// ring's end, between several files, mixed with pieces of memory of their own — a full ring holds
// the reader back, and every way a file can fail (its creation, a discard midway, the thread
// itself stopping) ends with nothing left open.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SNIFF_BYTES } from './staging.js';
import { MIN_READ_BYTES, READ_BYTES, RING_BYTES, StagingRing, stopStagingWorker, type WorkerStaging } from './staging-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-staging-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
/** Descriptors of this process open on `path` (a stopped thread takes its own loop's with it, so counts of all would not do). */
function fdsOn(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      /* closed meanwhile */
    }
  }
  return count;
}
const remove = async (s: { tempPath: string }) => rmSync(s.tempPath, { force: true });
let n = 0;
const stage = (ring: StagingRing, path = join(dir, `${++n}.part`)) => ring.stage(path, remove);

/** A seeded generator, so a failing layout can be replayed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
}

/**
 * Plays a body through the ring as the direct reader does: each read takes the region `next`
 * offers (or a reader's own buffer when there is none, as after a pause), a random share of it,
 * then `filled`; the read's bytes go to the file they belong to (in pieces, some copied out as the
 * parser's carried bytes are) or are skipped (headers, delimiters). Waits when `blocked` says so.
 */
async function play(ring: StagingRing, parts: { staging: WorkerStaging | null; bytes: Buffer }[], random: () => number, onBlocked?: () => void): Promise<void> {
  const own = Buffer.alloc(READ_BYTES);
  let part = 0;
  let at = 0;
  while (part < parts.length) {
    const region = ring.next() ?? own;
    let room = Math.max(1, Math.floor(region.length * (0.3 + 0.7 * random())));
    let filled = 0;
    const pieces: [WorkerStaging | null, number, number][] = [];
    while (room > 0 && part < parts.length) {
      const take = Math.min(room, parts[part].bytes.length - at);
      parts[part].bytes.copy(region, filled, at, at + take);
      pieces.push([parts[part].staging, filled, filled + take]);
      filled += take;
      room -= take;
      at += take;
      if (at === parts[part].bytes.length) {
        part++;
        at = 0;
      }
    }
    ring.filled(region, filled);
    for (const [staging, from, to] of pieces) {
      if (!staging) continue;
      // Cut each piece in two; the first few bytes of some go as a copy of their own.
      const cut = from + Math.floor((to - from) * random());
      const first = region.subarray(from, cut);
      staging.write(random() < 0.2 ? Buffer.from(first) : first);
      staging.write(region.subarray(cut, to));
    }
    // The reader's own buffer is reused for the next read: scribbled over here.
    if (region === own) own.fill(0xee);
    const wait = ring.blocked();
    if (wait) {
      onBlocked?.();
      await wait;
    }
  }
}

describe('StagingRing and WorkerStaging', () => {
  it('writes, hashes and heads the pieces of reads that landed in the ring, waiting for room', async () => {
    const ring = new StagingRing();
    const data = randomBytes(9 * 1024 * 1024 + 7);
    const staging = stage(ring);
    let waits = 0;
    await play(ring, [{ staging, bytes: data }], rng(1), () => waits++);
    const staged = await staging.finish();
    ring.release();
    expect(staged).toMatchObject({ sha1: sha1(data), size: data.length });
    expect(staged.head.equals(data.subarray(0, SNIFF_BYTES))).toBe(true);
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
    // 9 MiB through a 2 MiB ring read without pause: the reader was held back.
    expect(waits).toBeGreaterThan(0);
  });

  it('keeps the files of one body apart, around skipped bytes and across the ring\'s end', async () => {
    for (const seed of [2, 3, 4, 5]) {
      const ring = new StagingRing();
      const random = rng(seed);
      const datas = [0, 1, 2, 3].map((i) => randomBytes(Math.floor(random() * 3 * 1024 * 1024) + i));
      const stagings = datas.map(() => stage(ring));
      const parts = datas.flatMap((bytes, i) => [{ staging: null, bytes: randomBytes(1 + Math.floor(random() * 300)) }, { staging: stagings[i], bytes }]);
      await play(ring, parts, random);
      const staged = await Promise.all(stagings.map((s) => s.finish()));
      ring.release();
      staged.forEach((s, i) => {
        expect(s.sha1, `seed ${seed}, file ${i}`).toBe(sha1(datas[i]));
        expect(sha1(readFileSync(s.tempPath)), `seed ${seed}, file ${i}`).toBe(sha1(datas[i]));
      });
    }
  });

  it('serves several rings at once', async () => {
    const datas = [0, 1, 2, 3, 4].map((i) => randomBytes(2 * 1024 * 1024 + 1000 * i + 1));
    const rings = datas.map(() => new StagingRing());
    const stagings = rings.map((ring) => stage(ring));
    await Promise.all(datas.map((bytes, i) => play(rings[i], [{ staging: stagings[i], bytes }], rng(10 + i))));
    const staged = await Promise.all(stagings.map((s) => s.finish()));
    rings.forEach((r) => r.release());
    staged.forEach((s, i) => expect(sha1(readFileSync(s.tempPath))).toBe(sha1(datas[i])));
  });

  it('offers regions of a minimal read up to one read, inside the ring', () => {
    const ring = new StagingRing();
    const random = rng(9);
    // Nothing is posted to the thread, so the whole ring is free after every read.
    for (let i = 0; i < 200; i++) {
      const region = ring.next()!;
      expect(region.length).toBeGreaterThanOrEqual(MIN_READ_BYTES);
      expect(region.length).toBeLessThanOrEqual(READ_BYTES);
      expect(region.byteOffset + region.length).toBeLessThanOrEqual(RING_BYTES);
      ring.filled(region, 1 + Math.floor(random() * region.length));
    }
    ring.release();
  });

  it('fails the finish when its file cannot be created', async () => {
    const ring = new StagingRing();
    const staging = ring.stage('/dev/null/cannot/be.part', async () => undefined);
    await expect(staging.finish()).rejects.toThrow(/ENOTDIR|EEXIST|EACCES/);
    expect(() => staging.write(Buffer.alloc(10))).toThrow();
    await staging.discard();
    ring.release();
  });

  it('discards a file while its pieces are being written, closing it once the thread let go', async () => {
    const ring = new StagingRing();
    const staging = stage(ring);
    const region = ring.next()!;
    ring.filled(region, region.length);
    staging.write(region);
    await staging.discard();
    ring.release();
    expect(existsSync(staging.tempPath)).toBe(false);
    expect(fdsOn(staging.tempPath)).toBe(0);
    await expect(staging.finish()).rejects.toThrow(/closed/);
  });

  it('fails the files in flight when the thread stops, closes their files, and starts a new thread for the next', async () => {
    const ring = new StagingRing();
    const staging = stage(ring);
    // Let the thread create the file, so there is a descriptor the stop must not leak.
    for (let i = 0; i < 100 && fdsOn(staging.tempPath) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fdsOn(staging.tempPath)).toBe(1);
    staging.write(Buffer.alloc(1000));
    await stopStagingWorker();
    await expect(staging.finish()).rejects.toThrow(/staging thread stopped/);
    expect(ring.blocked()).toBeNull();
    expect(ring.next()).toBeNull();
    // The request's next file part fails at once instead of waiting for a thread that is gone.
    expect(() => stage(ring)).toThrow(/staging thread stopped/);
    // The descriptor outlived the thread (Node does not close it behind the event loop's back).
    expect(fdsOn(staging.tempPath)).toBe(1);
    await staging.discard();
    ring.release();
    expect(existsSync(staging.tempPath)).toBe(false);
    expect(fdsOn(staging.tempPath)).toBe(0);
    const next = new StagingRing();
    const again = stage(next);
    const data = randomBytes(300_000);
    await play(next, [{ staging: again, bytes: data }], rng(7));
    const staged = await again.finish();
    expect(staged.sha1).toBe(sha1(data));
    expect(fdsOn(staged.tempPath)).toBe(0);
    await again.discard();
    next.release();
  });
});
