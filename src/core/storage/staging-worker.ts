// Staged upload files hashed and written by a worker thread (issue 18). The direct multipart
// reader (core/http/multipart.ts) parses a large body on the event loop; hashing (SHA-1) and the
// write into the page cache are the rest of an upload's CPU, about two thirds of it. Done by one
// worker thread, they run beside the parsing on a second core, so eight concurrent uploads are no
// longer capped by one thread (bench/README.md, "Library uploads").
//
// Each staged file has a ring of shared memory. The event loop copies each piece of a part into
// the ring and posts where it is; the worker hashes and writes it, then advances the ring's
// consumed counter. The reader pauses the socket while the ring has less room than one socket
// read (`blocked`), so memory stays at one ring per file and a slow disk holds the sender, never
// the event loop. The file is created and fsynced through libuv's pool (METADATA_CALLS in
// file-store.ts); the worker only writes to its descriptor, and the descriptor is closed only
// after the worker said it is done with it.
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fsyncFd } from './fd-calls.js';
import { StageHead, type StagedFile } from './staging.js';

/** The ring of one staged file: eight socket reads of the direct reader. */
export const RING_BYTES = 2 * 1024 * 1024;
/** Room the ring must have before the next socket read (takeBody's read buffer). */
export const READ_ROOM_BYTES = 256 * 1024;
/**
 * Room a full ring must have again before the socket resumes: half of it. Resuming as soon as one
 * read fits would pause the socket after nearly every read while the disk is behind, and each
 * pause costs a readStop/readStart, a message from the thread and a smaller next read.
 */
export const RESUME_ROOM_BYTES = RING_BYTES / 2;

// Control words shared with the worker, per file.
const CONSUMED = 0; // bytes the worker has written, modulo 2^32
const WAITING = 1; // 1 while the event loop waits for room

type ToWorker =
  | { t: 'open'; id: number; ring: SharedArrayBuffer; control: SharedArrayBuffer }
  | { t: 'fd'; id: number; fd: number }
  | { t: 'data'; id: number; at: number; length: number }
  | { t: 'end'; id: number }
  | { t: 'drop'; id: number };

type FromWorker =
  | { t: 'room'; id: number }
  | { t: 'failed'; id: number; message: string; code?: string }
  /** The worker is done with the file; its SHA-1 unless it was dropped or a write failed. */
  | { t: 'settled'; id: number; sha1: string | null };

// Plain CommonJS, run with `eval`: no loader or bundle needed whichever way the server was started.
// Messages of one file are handled in order; data that arrives before the descriptor waits.
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { writeSync } = require('node:fs');
const files = new Map();
function write(id, f, at, length) {
  if (f.error === null) {
    try {
      const piece = f.ring.subarray(at, at + length);
      f.hash.update(piece);
      for (let done = 0; done < length; ) done += writeSync(f.fd, piece, done, length - done);
    } catch (e) {
      f.error = e;
      parentPort.postMessage({ t: 'failed', id, message: String(e && e.message), code: e && e.code });
    }
  }
  Atomics.add(f.control, ${CONSUMED}, length);
  if (Atomics.compareExchange(f.control, ${WAITING}, 1, 0) === 1) parentPort.postMessage({ t: 'room', id });
}
function settle(id, f) {
  files.delete(id);
  parentPort.postMessage({ t: 'settled', id, sha1: f.error === null && !f.dropped ? f.hash.digest('hex') : null });
}
parentPort.on('message', (m) => {
  const f = files.get(m.id);
  if (f === undefined && m.t !== 'open') return;
  switch (m.t) {
    case 'open':
      files.set(m.id, { ring: Buffer.from(m.ring), control: new Uint32Array(m.control), hash: createHash('sha1'), fd: null, pending: [], error: null, ended: false, dropped: false });
      return;
    case 'fd':
      f.fd = m.fd;
      for (const [at, length] of f.pending.splice(0)) write(m.id, f, at, length);
      if (f.ended) settle(m.id, f);
      return;
    case 'data':
      if (f.fd === null) f.pending.push([m.at, m.length]);
      else write(m.id, f, m.at, m.length);
      return;
    case 'end':
    case 'drop':
      f.ended = true;
      f.dropped = m.t === 'drop';
      if (f.fd !== null || f.dropped) settle(m.id, f);
      return;
  }
});
`;

/** One staging thread and the files it has; a thread that failed takes no new file. */
class StagingThread {
  private readonly worker = new Worker(WORKER_CODE, { eval: true });
  private readonly files = new Map<number, WorkerStaging>();
  private nextId = 1;
  private failure = '';

  constructor() {
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => this.files.get(m.id)?.received(m));
    this.worker.on('error', (e) => {
      this.failure = e.message;
      if (current === this) current = null;
    });
    // Only once the thread is gone can no write of its own meet a descriptor closed and reused.
    this.worker.on('exit', (code) => {
      if (current === this) current = null;
      const live = [...this.files.values()];
      this.files.clear();
      const why = this.failure || `exit code ${code}`;
      for (const staging of live) staging.threadStopped(new Error(`the upload staging thread stopped: ${why}`));
    });
  }

  register(staging: WorkerStaging, ring: SharedArrayBuffer, control: SharedArrayBuffer): number {
    const id = this.nextId++;
    this.files.set(id, staging);
    this.worker.postMessage({ t: 'open', id, ring, control } satisfies ToWorker);
    return id;
  }

  /** Posts about a file the thread still has: nothing once it let go of it or stopped. */
  post(message: Exclude<ToWorker, { t: 'open' }>): void {
    if (this.files.has(message.id)) this.worker.postMessage(message);
  }

  has(id: number): boolean {
    return this.files.has(id);
  }

  forget(id: number): void {
    this.files.delete(id);
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

let current: StagingThread | null = null;

/** Stops the process's staging thread, as a crash of it would: the files in flight fail, the next file starts another. */
export async function stopStagingWorker(): Promise<void> {
  await current?.stop();
}

/** Rings of settled files, kept for the next ones: no page faults or garbage per upload. */
const spareRings: SharedArrayBuffer[] = [];
const SPARE_RINGS = 8;

/**
 * A temporary file written by the staging worker from pieces of a caller's reused buffer: each
 * `write` copies its piece into the file's ring before returning. `finish` waits for the worker's
 * digest and fsyncs; `discard` waits until the worker lets go of the file, then removes it.
 */
export class WorkerStaging {
  private readonly thread: StagingThread;
  private readonly id: number;
  private readonly ring = spareRings.pop() ?? new SharedArrayBuffer(RING_BYTES);
  private readonly bytes = Buffer.from(this.ring);
  private readonly control = new Uint32Array(new SharedArrayBuffer(8));
  private readonly head = new StageHead();
  /** Bytes copied into the ring, modulo 2^32 (as the worker's consumed counter). */
  private produced = 0;
  private fd: number | null = null;
  private readonly opening: Promise<void>;
  private failure: Error | null = null;
  private finishing: Promise<StagedFile> | null = null;
  private discarding: Promise<void> | null = null;
  private roomWaiter: (() => void) | null = null;
  private settled: ((m: { sha1: string | null } | Error) => void) | null = null;
  private readonly settledWith: Promise<{ sha1: string | null } | Error>;

  constructor(
    readonly tempPath: string,
    opened: Promise<number>,
    private readonly remove: (staged: { tempPath: string }) => Promise<void>,
  ) {
    this.thread = current ??= new StagingThread();
    this.settledWith = new Promise((resolve) => (this.settled = resolve));
    this.id = this.thread.register(this, this.ring, this.control.buffer as SharedArrayBuffer);
    this.opening = opened.then(
      (fd) => {
        this.fd = fd;
        if (!this.discarding) this.thread.post({ t: 'fd', id: this.id, fd });
      },
      (e: Error) => this.fail(e),
    );
  }

  private inRing(): number {
    return (this.produced - Atomics.load(this.control, CONSUMED)) >>> 0;
  }

  write(chunk: Buffer): void {
    if (this.failure) throw this.failure;
    if (this.finishing || this.discarding) throw new Error('the staged file is already closed');
    if (this.inRing() + chunk.length > RING_BYTES) throw new Error('the staging ring is full: the reader did not wait for room');
    this.head.update(chunk);
    for (let from = 0; from < chunk.length; ) {
      const at = this.produced % RING_BYTES;
      const length = Math.min(chunk.length - from, RING_BYTES - at);
      chunk.copy(this.bytes, at, from, from + length);
      this.produced = (this.produced + length) >>> 0;
      from += length;
      this.thread.post({ t: 'data', id: this.id, at, length });
    }
  }

  /** Null, or a promise that resolves once the ring has room for the next socket read. */
  blocked(): Promise<void> | null {
    if (this.failure || RING_BYTES - this.inRing() >= READ_ROOM_BYTES) return null;
    return new Promise<void>((resolve) => {
      const check = () => {
        Atomics.store(this.control, WAITING, 1);
        // Re-read after raising the flag: the worker either saw it or had already made room.
        if (this.failure || RING_BYTES - this.inRing() >= RESUME_ROOM_BYTES) {
          Atomics.store(this.control, WAITING, 0);
          this.roomWaiter = null;
          return resolve();
        }
        this.roomWaiter = check;
      };
      check();
    });
  }

  finish(): Promise<StagedFile> {
    if (this.finishing) return this.finishing;
    if (this.discarding) return Promise.reject(new Error('the staged file is already closed'));
    this.finishing = (async () => {
      await this.opening;
      if (this.failure) throw this.failure;
      this.thread.post({ t: 'end', id: this.id });
      const answer = await this.settledWith;
      if (answer instanceof Error) throw answer;
      if (answer.sha1 === null) throw this.failure ?? new Error('the staged file was not written');
      await fsyncFd(this.fd!);
      this.close();
      return this.head.staged(this.tempPath, answer.sha1);
    })();
    return this.finishing;
  }

  discard(): Promise<void> {
    this.discarding ??= (async () => {
      await this.finishing?.catch(() => undefined);
      await this.opening;
      if (this.thread.has(this.id)) {
        this.thread.post({ t: 'drop', id: this.id });
        await this.settledWith;
      }
      this.close();
      await this.remove(this);
    })();
    return this.discarding;
  }

  /** A message of the worker about this file. */
  received(m: FromWorker): void {
    if (m.t === 'room') return this.roomWaiter?.();
    if (m.t === 'failed') {
      const error = Object.assign(new Error(m.message), { code: m.code });
      this.fail(error);
      return;
    }
    this.thread.forget(this.id);
    this.letGo(m);
  }

  /** The thread stopped before it let go of this file. */
  threadStopped(e: Error): void {
    this.fail(e);
    this.letGo(e);
  }

  /** The thread no longer reads the ring (and `write` refuses: the file is finishing, discarded or failed). */
  private letGo(answer: { sha1: string | null } | Error): void {
    if (spareRings.length < SPARE_RINGS) spareRings.push(this.ring);
    this.settled?.(answer);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.roomWaiter?.();
  }

  private close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
