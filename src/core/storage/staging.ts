// The temporary file of an upload while it is written: its SHA-1, size and sniffing head taken as
// the bytes go by (`StageDigest`, both staging paths of FileStore), and the file written
// synchronously from a caller's reused buffer (`SyncStaging`, the direct multipart reader).
import { createHash } from 'node:crypto';
import { closeSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fsyncFd, writeFd } from './fd-calls.js';

/** How many leading bytes are kept for content sniffing. */
export const SNIFF_BYTES = 4100;

/** A fully written, fsynced temporary file waiting to be placed or discarded. */
export interface StagedFile {
  tempPath: string;
  /** SHA-1 of the bytes, 40 lowercase hex digits (Decision 10). */
  sha1: string;
  size: number;
  /** The first SNIFF_BYTES bytes. */
  head: Buffer;
}


/** SHA-1, size and the sniffing head of bytes as they go by (the head is copied: callers reuse buffers). */
export class StageDigest {
  private readonly hash = createHash('sha1');
  private readonly head = Buffer.allocUnsafe(SNIFF_BYTES);
  private headSize = 0;
  size = 0;

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headSize < SNIFF_BYTES) this.headSize += chunk.copy(this.head, this.headSize, 0, SNIFF_BYTES - this.headSize);
  }

  staged(tempPath: string): StagedFile {
    return { tempPath, sha1: this.hash.digest('hex'), size: this.size, head: Buffer.from(this.head.subarray(0, this.headSize)) };
  }
}

/**
 * A write into the page cache takes microseconds; one that takes this long was held back by the
 * kernel because the disk is behind (dirty-page throttling). From then on the file's bytes are
 * copied and written through the thread pool, so the event loop — every other request of the
 * process — never waits for a slow disk; the reader pauses the socket while a backlog is queued.
 */
export const THROTTLED_WRITE_MS = 20;
/** Bytes queued for the thread pool before the reader must wait (`blocked`). */
export const BACKLOG_BYTES = 4 * 1024 * 1024;

/** The synchronous write, replaceable by tests that play a slow disk. */
export type WriteSync = (fd: number, buffer: Buffer, offset: number) => number;
const writeAllSync: WriteSync = (fd, buffer, offset) => writeSync(fd, buffer, offset);

/**
 * A temporary file written from a caller's reused buffer (FileStore.stageSync). Each chunk is
 * hashed and written with `writeSync` before `write` returns, except while the file is still
 * being created (through the pool) or after a throttled write: then a copy is queued and written
 * through the pool, in order, and `blocked` holds the caller back past BACKLOG_BYTES. `finish`
 * fsyncs the file, `discard` removes it.
 */
export class SyncStaging {
  private readonly digest = new StageDigest();
  private fd: number | null = null;
  private closed = false;
  private readonly opening: Promise<void>;
  private finishing: Promise<StagedFile> | null = null;
  /** Once a write was throttled, every later one goes through the pool. */
  private throttled = false;
  private readonly queue: Buffer[] = [];
  private backlog = 0;
  private writing: Promise<void> | null = null;
  private failure: Error | null = null;
  private waiters: (() => void)[] = [];

  constructor(
    readonly tempPath: string,
    opened: Promise<number>,
    private readonly remove: (staged: { tempPath: string }) => Promise<void>,
    private readonly writeSyncFn: WriteSync = writeAllSync,
  ) {
    this.opening = opened.then(
      (fd) => {
        if (this.closed) return closeSync(fd);
        this.fd = fd;
        this.pump();
      },
      (e: Error) => this.fail(e),
    );
  }

  /** Whether writes go through the thread pool for good (a write was throttled). */
  get asynchronous(): boolean {
    return this.throttled;
  }

  /** Hashes and writes (or queues a copy of) `chunk` before returning: the caller may reuse its memory at once. */
  write(chunk: Buffer): void {
    if (this.failure) throw this.failure;
    if (this.closed || this.finishing) throw new Error('the staged file is already closed');
    this.digest.update(chunk);
    if (this.fd === null || this.throttled || this.writing || this.queue.length > 0) {
      this.queue.push(Buffer.from(chunk));
      this.backlog += chunk.length;
      return this.pump();
    }
    const start = performance.now();
    for (let at = 0; at < chunk.length; ) at += this.writeSyncFn(this.fd, chunk, at);
    if (performance.now() - start > THROTTLED_WRITE_MS) this.throttled = true;
  }

  /**
   * Null, or a promise to wait for before writing more: until the file is open and what was
   * queued meanwhile is written (writes then go back to `writeSync`: a queue fed as fast as it
   * drains would keep every later write on the pool, which cost twice the CPU), or, after a
   * throttled write, while the pool is behind by more than BACKLOG_BYTES.
   */
  blocked(): Promise<void> | null {
    if (this.backlog <= this.allowedBacklog() || this.failure) return null;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private allowedBacklog(): number {
    return this.throttled ? BACKLOG_BYTES : 0;
  }

  /** Makes the bytes durable and closes the file. */
  finish(): Promise<StagedFile> {
    if (this.finishing) return this.finishing;
    if (this.closed) return Promise.reject(new Error('the staged file is already closed'));
    this.finishing = this.drained().then(async () => {
      await fsyncFd(this.fd!);
      this.close();
      return this.digest.staged(this.tempPath);
    });
    return this.finishing;
  }

  /** Closes (once the file's creation and any write or fsync are over, so none meets a reused descriptor) and removes it. */
  async discard(): Promise<void> {
    this.queue.splice(0);
    this.backlog = 0;
    await this.opening;
    await this.writing?.catch(() => undefined);
    await this.finishing?.catch(() => undefined);
    this.close();
    await this.remove(this);
  }

  /** Writes the queue's bytes one buffer at a time, in order, once the file is open. */
  private pump(): void {
    if (this.writing || this.queue.length === 0 || this.fd === null || this.failure) return;
    const buffer = this.queue.shift()!;
    const fd = this.fd;
    this.writing = (async () => {
      for (let at = 0; at < buffer.length; ) at += await writeFd(fd, buffer, at, buffer.length - at);
    })().then(
      () => {
        this.writing = null;
        this.backlog -= buffer.length;
        if (this.backlog <= this.allowedBacklog()) this.wake();
        this.pump();
      },
      (e: Error) => {
        this.writing = null;
        this.fail(e);
      },
    );
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.queue.splice(0);
    this.backlog = 0;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves once the file is open and every queued byte is written; rejects with a failure. */
  private async drained(): Promise<void> {
    await this.opening;
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  private close(): void {
    this.closed = true;
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
