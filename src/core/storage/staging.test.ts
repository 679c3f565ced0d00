// SyncStaging: bytes written from a buffer the caller reuses at once, and a disk that falls behind
// (a write held back by the kernel) moving the rest of the file to the thread pool with a bounded
// backlog, without losing or reordering a byte.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKLOG_BYTES, SNIFF_BYTES, SyncStaging, THROTTLED_WRITE_MS, type WriteSync } from './staging.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-staging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
let n = 0;

/** A staging whose file is open (after `opensAfterMs`, during which writes are queued). */
async function open(writeSyncFn?: WriteSync, opensAfterMs = 0): Promise<SyncStaging> {
  const path = join(dir, `${++n}.part`);
  const opened = new Promise<number>((resolve) => setTimeout(() => resolve(openSync(path, 'w')), opensAfterMs));
  const staging = new SyncStaging(path, opened, async (s) => rmSync(s.tempPath, { force: true }), writeSyncFn);
  if (opensAfterMs === 0) await opened;
  return staging;
}

/** Writes `data` in `piece`-byte reads through one scratch buffer scribbled over after each write. */
async function feed(staging: SyncStaging, data: Buffer, piece: number, onBlocked?: () => void, pacedMs = 0): Promise<void> {
  const scratch = Buffer.alloc(piece);
  for (let at = 0; at < data.length; at += piece) {
    const n = data.copy(scratch, 0, at, at + piece);
    staging.write(scratch.subarray(0, n));
    scratch.fill(0xee);
    const wait = staging.blocked();
    if (wait) {
      onBlocked?.();
      await wait;
    }
    // Reads from a socket come apart in time, which lets a queue drain between them.
    if (pacedMs > 0) await new Promise((r) => setTimeout(r, pacedMs));
  }
}

/** A write that sleeps past the throttling threshold on its `slowCall`-th call, as a disk that is behind. */
function slowOnce(slowCall: number): WriteSync {
  let calls = 0;
  return (fd, buffer, offset) => {
    if (++calls === slowCall) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, THROTTLED_WRITE_MS + 15);
    return writeSync(fd, buffer, offset);
  };
}

describe('SyncStaging', () => {
  it('writes, hashes and heads the bytes of a reused buffer', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 7);
    const staging = await open();
    await feed(staging, data, 256 * 1024);
    const staged = await staging.finish();
    expect(staging.asynchronous).toBe(false);
    expect(staged).toMatchObject({ sha1: sha1(data), size: data.length });
    expect(staged.head.equals(data.subarray(0, SNIFF_BYTES))).toBe(true);
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
  });

  it('queues what arrives before its file is open, then writes synchronously again', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 3);
    let calls = 0;
    const staging = await open((fd, buffer, offset) => (calls++, writeSync(fd, buffer, offset)), 80);
    let waits = 0;
    await feed(staging, data, 1024 * 1024, () => waits++, 10);
    const staged = await staging.finish();
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
    // The first megabytes waited for the file (the writer was held back past the backlog, as
    // the first reads arrive at once), the rest were written directly.
    expect(waits).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(0);
    expect(staging.asynchronous).toBe(false);
  });

  it('fails the writes and the finish when its file cannot be created', async () => {
    const staging = new SyncStaging(join(dir, 'never.part'), Promise.reject(new Error('EMFILE: too many open files')), async () => undefined);
    staging.write(Buffer.alloc(10));
    await expect(staging.finish()).rejects.toThrow(/EMFILE/);
    expect(() => staging.write(Buffer.alloc(10))).toThrow(/EMFILE/);
    await staging.discard();
  });

  it('moves to the thread pool after a throttled write, holding the writer back past the backlog', async () => {
    const data = randomBytes(24 * 1024 * 1024 + 5);
    const staging = await open(slowOnce(2));
    let waits = 0;
    await feed(staging, data, 1024 * 1024, () => waits++);
    expect(staging.asynchronous).toBe(true);
    const staged = await staging.finish();
    expect(staged).toMatchObject({ sha1: sha1(data), size: data.length });
    expect(sha1(readFileSync(staged.tempPath))).toBe(sha1(data));
    // 22 MiB went through the pool with at most BACKLOG_BYTES queued: the writer had to wait.
    expect(BACKLOG_BYTES).toBeLessThan(22 * 1024 * 1024);
    expect(waits).toBeGreaterThan(0);
  });

  it('fails the next write and the finish when a pool write fails, and discards the file', async () => {
    const staging = await open(slowOnce(1));
    staging.write(Buffer.alloc(1000, 1));
    expect(staging.asynchronous).toBe(true);
    // The descriptor closed behind the staging's back: its next pool write fails (EBADF).
    closeSync((staging as unknown as { fd: number }).fd);
    staging.write(Buffer.alloc(1000, 2));
    await expect(staging.finish()).rejects.toThrow(/EBADF/);
    expect(() => staging.write(Buffer.alloc(10))).toThrow();
    (staging as unknown as { fd: number | null }).fd = null; // already closed above
    await staging.discard();
    expect(existsSync(staging.tempPath)).toBe(false);
  });

  it('discards a file while pool writes are queued', async () => {
    const staging = await open(slowOnce(1));
    for (let i = 0; i < 6; i++) staging.write(Buffer.alloc(1024 * 1024, i));
    await staging.discard();
    expect(existsSync(staging.tempPath)).toBe(false);
  });
});
