// WorkerStaging: bytes of a reused buffer written by the staging thread without losing or
// reordering a byte, several files at once, a ring that holds the reader back, and every way a
// file can fail (its creation, a write, the thread itself) ending with nothing left open.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SNIFF_BYTES } from './staging.js';
import { READ_ROOM_BYTES, RING_BYTES, WorkerStaging, stopStagingWorker } from './staging-worker.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-staging-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
const openFds = () => readdirSync('/proc/self/fd').length;
let n = 0;

/** A staging whose file opens after `opensAfterMs` (writes meanwhile wait in the ring), with flags `flags`. */
function stage(opensAfterMs = 0, flags = 'w'): WorkerStaging {
  const path = join(dir, `${++n}.part`);
  const opened = new Promise<number>((resolve) => setTimeout(() => resolve(openSync(path, flags)), opensAfterMs));
  return new WorkerStaging(path, opened, async (s) => rmSync(s.tempPath, { force: true }));
}

/** Writes `data` in `piece`-byte reads through one scratch buffer scribbled over after each write, waiting when told to. */
async function feed(staging: WorkerStaging, data: Buffer, piece: number, onBlocked?: () => void): Promise<void> {
  const scratch = Buffer.alloc(piece);
  for (let at = 0; at < data.length; at += piece) {
    const wait = staging.blocked();
    if (wait) {
      onBlocked?.();
      await wait;
    }
    const n = data.copy(scratch, 0, at, at + piece);
    staging.write(scratch.subarray(0, n));
    scratch.fill(0xee);
  }
}

describe('WorkerStaging', () => {
  it('writes, hashes and heads the bytes of a reused buffer, waiting for room in its ring', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 7);
    const staging = stage();
    let waits = 0;
    await feed(staging, data, READ_ROOM_BYTES, () => waits++);
    const staged = await staging.finish();
    expect(staged).toMatchObject({ sha1: sha1(data), size: data.length });
    expect(staged.head.equals(data.subarray(0, SNIFF_BYTES))).toBe(true);
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
    // 9 MiB through a 1 MiB ring fed without pause: the reader was held back.
    expect(waits).toBeGreaterThan(0);
  });

  it('keeps several files apart, with pieces that wrap around the ring', async () => {
    const datas = [0, 1, 2, 3, 4].map((i) => randomBytes(3 * 1024 * 1024 + 1000 * i + 1));
    const stagings = datas.map((_, i) => stage(i * 5));
    // Pieces of an odd size, so the ring's end falls inside one.
    await Promise.all(datas.map((data, i) => feed(stagings[i], data, 100_003)));
    const staged = await Promise.all(stagings.map((s) => s.finish()));
    staged.forEach((s, i) => {
      expect(s.sha1).toBe(sha1(datas[i]));
      expect(sha1(readFileSync(s.tempPath))).toBe(sha1(datas[i]));
    });
  });

  it('holds what arrives before its file is open', async () => {
    const data = randomBytes(RING_BYTES - 1);
    const staging = stage(60);
    staging.write(data);
    expect(staging.blocked()).not.toBeNull();
    const staged = await staging.finish();
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
  });

  it('refuses a write the ring has no room for', () => {
    const staging = stage(50);
    staging.write(Buffer.alloc(RING_BYTES - 10));
    expect(() => staging.write(Buffer.alloc(11))).toThrow(/ring is full/);
    return staging.discard();
  });

  it('fails the finish when its file cannot be created', async () => {
    const staging = new WorkerStaging(join(dir, 'never.part'), Promise.reject(new Error('EMFILE: too many open files')), async () => undefined);
    staging.write(Buffer.alloc(10));
    await expect(staging.finish()).rejects.toThrow(/EMFILE/);
    expect(() => staging.write(Buffer.alloc(10))).toThrow(/EMFILE/);
    await staging.discard();
  });

  it('fails when a write fails, then discards the file and closes it', async () => {
    const path = join(dir, `${++n}.part`);
    writeFileSync(path, '');
    const fds = openFds();
    // Opened read-only: the thread's first write fails (EBADF).
    const staging = new WorkerStaging(path, Promise.resolve(openSync(path, 'r')), async (s) => rmSync(s.tempPath, { force: true }));
    staging.write(Buffer.alloc(1000, 1));
    await expect(staging.finish()).rejects.toThrow(/EBADF/);
    expect(() => staging.write(Buffer.alloc(10))).toThrow(/EBADF/);
    await staging.discard();
    expect(existsSync(path)).toBe(false);
    expect(openFds()).toBe(fds);
  });

  it('discards a file while its pieces are being written, closing it once the thread let go', async () => {
    const fds = openFds();
    const staging = stage();
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 3; i++) staging.write(Buffer.alloc(256 * 1024, i));
    await staging.discard();
    expect(existsSync(staging.tempPath)).toBe(false);
    expect(openFds()).toBe(fds);
    await expect(staging.finish()).rejects.toThrow(/closed/);
  });

  it('fails the files in flight when the thread stops, and starts a new one for the next', async () => {
    const fds = openFds();
    const staging = stage();
    staging.write(Buffer.alloc(1000));
    await stopStagingWorker();
    await expect(staging.finish()).rejects.toThrow(/staging thread stopped/);
    await staging.discard();
    expect(existsSync(staging.tempPath)).toBe(false);
    const next = stage();
    const data = randomBytes(300_000);
    await feed(next, data, 65536);
    expect((await next.finish()).sha1).toBe(sha1(data));
    await next.discard();
    expect(openFds()).toBe(fds);
  });
});
