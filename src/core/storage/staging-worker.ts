// Staged upload files hashed and written by a worker thread (issue 18). The direct multipart
// reader (core/http/multipart.ts) parses a large body on the event loop; hashing (SHA-1) and the
// write into the page cache are the rest of an upload's CPU, about two thirds of it. Done by one
// staging thread per process, they run beside the parsing on another core, so concurrent uploads
// are not capped by one thread and the event loop stays free for other requests
// (bench/README.md, "Library uploads", seventh and eighth turns).
//
// Each request has a ring of shared memory (`StagingRing`) that the socket reads straight into
// (takeBody's `ReadBuffers`): the parser finds a file part's pieces in the ring, and only their
// place is posted to the thread, which hashes and writes them and then marks the ring's bytes up
// to the piece's end as done. Pieces the parser holds itself (a few bytes across a read's end) and
// reads that land outside the ring are posted by value. The socket pauses while the ring has no
// room for a read and resumes at half empty, so memory stays at one ring per request and a slow
// disk holds the sender, never the event loop.
//
// The thread creates each part file (creating an inode can wait for the filesystem journal) and
// says which descriptor it got; the event loop fsyncs it through libuv's pool once the thread is
// done with it (an fsync on the thread would hold every other upload's writes) and is the only
// one to close it — also after the thread died, so no descriptor outlives its upload.
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fsyncFd } from './fd-calls.js';
import { StageHead, type StagedFile } from './staging.js';

/** The ring of one request: eight socket reads of the direct reader. */
export const RING_BYTES = 2 * 1024 * 1024;
/** The most one socket read takes (takeBody's read buffer). */
export const READ_BYTES = 256 * 1024;
/** A read region smaller than this is not offered: the reader waits for room instead. */
export const MIN_READ_BYTES = 64 * 1024;
/**
 * Room a full ring must have again before the socket resumes: half of it. Resuming as soon as one
 * read fits would pause the socket after nearly every read while the disk is behind, and each
 * pause costs a readStop/readStart, a message from the thread and a smaller next read.
 */
export const RESUME_ROOM_BYTES = RING_BYTES / 2;

// Control words of a ring, shared with the thread.
const DONE_END = 0; // ring position (bytes read so far, modulo 2^32) up to which the thread is done
const WAITING = 1; // 1 while the event loop waits for room

type ToWorker =
  | { t: 'ring'; ring: number; memory: SharedArrayBuffer; control: SharedArrayBuffer }
  | { t: 'unring'; ring: number }
  | { t: 'open'; id: number; path: string }
  | { t: 'data'; id: number; ring: number; at: number; length: number; end: number }
  | { t: 'bytes'; id: number; bytes: Uint8Array }
  | { t: 'end'; id: number }
  | { t: 'drop'; id: number };

type FromWorker =
  | { t: 'room'; ring: number }
  | { t: 'opened'; id: number; fd: number }
  | { t: 'failed'; id: number; message: string; code?: string }
  /** The thread is done with the file; its SHA-1 unless it was dropped or failed. */
  | { t: 'settled'; id: number; sha1: string | null };

// Plain CommonJS, run with `eval`: no loader or bundle needed whichever way the server was started.
// Messages are handled in order, so a ring's done position only moves forward.
const WORKER_CODE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { mkdirSync, openSync, writeSync } = require('node:fs');
const { dirname } = require('node:path');
const rings = new Map();
const files = new Map();
function fail(id, f, e) {
  f.error = e;
  parentPort.postMessage({ t: 'failed', id, message: String(e && e.message), code: e && e.code });
}
function write(id, f, bytes) {
  if (f.error !== null) return;
  try {
    f.hash.update(bytes);
    for (let done = 0; done < bytes.length; ) done += writeSync(f.fd, bytes, done, bytes.length - done);
  } catch (e) {
    fail(id, f, e);
  }
}
parentPort.on('message', (m) => {
  if (m.t === 'ring') return void rings.set(m.ring, { bytes: Buffer.from(m.memory), control: new Uint32Array(m.control) });
  if (m.t === 'unring') return void rings.delete(m.ring);
  if (m.t === 'open') {
    const f = { hash: createHash('sha1'), fd: null, error: null };
    files.set(m.id, f);
    try {
      mkdirSync(dirname(m.path), { recursive: true });
      f.fd = openSync(m.path, 'wx', 0o644);
      parentPort.postMessage({ t: 'opened', id: m.id, fd: f.fd });
    } catch (e) {
      fail(m.id, f, e);
    }
    return;
  }
  const f = files.get(m.id);
  if (f === undefined) return;
  switch (m.t) {
    case 'data': {
      const ring = rings.get(m.ring);
      write(m.id, f, ring.bytes.subarray(m.at, m.at + m.length));
      Atomics.store(ring.control, ${DONE_END}, m.end);
      if (Atomics.compareExchange(ring.control, ${WAITING}, 1, 0) === 1) parentPort.postMessage({ t: 'room', ring: m.ring });
      return;
    }
    case 'bytes':
      return write(m.id, f, m.bytes);
    case 'end':
    case 'drop':
      files.delete(m.id);
      parentPort.postMessage({ t: 'settled', id: m.id, sha1: m.t === 'end' && f.error === null ? f.hash.digest('hex') : null });
      return;
  }
});
`;

/** One staging thread with its rings and files; a thread that failed takes no new ones. */
class StagingThread {
  // Not tracked: Node would otherwise close, when the thread exits, every descriptor it opened —
  // numbers the event loop has closed itself after the upload and the process may have reused.
  private readonly worker = new Worker(WORKER_CODE, { eval: true, trackUnmanagedFds: false });
  private readonly rings = new Map<number, StagingRing>();
  private readonly files = new Map<number, WorkerStaging>();
  private nextId = 1;
  private failure = '';

  constructor() {
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => (m.t === 'room' ? this.rings.get(m.ring)?.roomMade() : this.files.get(m.id)?.received(m)));
    this.worker.on('error', (e) => {
      this.failure = e.message;
      if (current === this) current = null;
    });
    // Only once the thread is gone can none of its writes meet a descriptor closed and reused.
    this.worker.on('exit', (code) => {
      if (current === this) current = null;
      const error = new Error(`the upload staging thread stopped: ${this.failure || `exit code ${code}`}`);
      const files = [...this.files.values()];
      const rings = [...this.rings.values()];
      this.files.clear();
      this.rings.clear();
      for (const staging of files) staging.threadStopped(error);
      for (const ring of rings) ring.threadStopped();
    });
  }

  addRing(ring: StagingRing, memory: SharedArrayBuffer, control: SharedArrayBuffer): number {
    const id = this.nextId++;
    this.rings.set(id, ring);
    this.worker.postMessage({ t: 'ring', ring: id, memory, control } satisfies ToWorker);
    return id;
  }

  dropRing(id: number): void {
    if (this.rings.delete(id)) this.worker.postMessage({ t: 'unring', ring: id } satisfies ToWorker);
  }

  open(staging: WorkerStaging, path: string): number {
    const id = this.nextId++;
    this.files.set(id, staging);
    this.worker.postMessage({ t: 'open', id, path } satisfies ToWorker);
    return id;
  }

  /** Posts about a file the thread still has: nothing once it let go of it or stopped. */
  post(message: Extract<ToWorker, { id: number }>, transfer?: ArrayBuffer[]): void {
    if (this.files.has(message.id)) this.worker.postMessage(message, transfer);
  }

  forget(id: number): void {
    this.files.delete(id);
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

let current: StagingThread | null = null;

/** Stops the process's staging thread, as a crash of it would: the files in flight fail, the next upload starts another. */
export async function stopStagingWorker(): Promise<void> {
  await current?.stop();
}

/** Where the last read landed in the ring. */
interface LastRead {
  offset: number;
  /** Its ring position (bytes read before it, modulo 2^32). */
  position: number;
  length: number;
}

/**
 * The memory one request's body is read into (`next`/`filled`: takeBody's ReadBuffers) and its
 * files' pieces are hashed and written from. `release` once every file of the request has been
 * finished or discarded.
 */
export class StagingRing {
  readonly thread: StagingThread;
  readonly id: number;
  // Never reused for another request: the socket keeps its last read region as the place for a
  // read that might still come after the body, and such bytes must land nowhere that matters.
  private readonly memory = new SharedArrayBuffer(RING_BYTES);
  private readonly bytes = Buffer.from(this.memory);
  private readonly control = new Uint32Array(new SharedArrayBuffer(8));
  /** Bytes read into the ring so far, skipped ends included, modulo 2^32. */
  private written = 0;
  /** The ring position where the last piece posted to the thread ends. */
  private postedEnd = 0;
  private last: LastRead | null = null;
  private roomWaiter: (() => void) | null = null;
  private readonly files = new Set<WorkerStaging>();
  private released = false;
  private stopped = false;

  constructor() {
    this.thread = current ??= new StagingThread();
    this.id = this.thread.addRing(this, this.memory, this.control.buffer as SharedArrayBuffer);
  }

  /**
   * Bytes of the ring free for reads: all but those after the thread's done position, or all when
   * it has done every piece posted.
   */
  private room(): number {
    const done = Atomics.load(this.control, DONE_END);
    return done === this.postedEnd ? RING_BYTES : RING_BYTES - ((this.written - done) >>> 0);
  }

  /** The region for the next socket read, or null when the ring has no room for one. */
  next(): Buffer | null {
    if (this.stopped) return null;
    let room = this.room();
    let offset = this.written % RING_BYTES;
    let toEnd = RING_BYTES - offset;
    // Too little left before the ring's end: that bit is skipped and the read starts over.
    if (toEnd < MIN_READ_BYTES) {
      room -= toEnd;
      offset = 0;
      toEnd = RING_BYTES;
    }
    const length = Math.min(READ_BYTES, toEnd, room);
    return length < MIN_READ_BYTES ? null : this.bytes.subarray(offset, offset + length);
  }

  /** A read of `length` bytes landed in `buffer` (a region `next` gave, or memory of the reader's). */
  filled(buffer: Buffer, length: number): void {
    if (buffer.buffer !== this.memory) return;
    const offset = buffer.byteOffset;
    const skipped = (offset - (this.written % RING_BYTES) + RING_BYTES) % RING_BYTES;
    const position = (this.written + skipped) >>> 0;
    this.written = (position + length) >>> 0;
    this.last = { offset, position, length };
  }

  /** Where `piece` lies in the ring (it is part of the last read), or null when it is memory of its own. */
  place(piece: Buffer): { at: number; end: number } | null {
    const last = this.last;
    if (piece.buffer !== this.memory || !last || piece.byteOffset < last.offset || piece.byteOffset + piece.length > last.offset + last.length) return null;
    const end = (last.position + (piece.byteOffset - last.offset) + piece.length) >>> 0;
    this.postedEnd = end;
    return { at: piece.byteOffset, end };
  }

  /**
   * Null, or a promise that resolves once the ring is half empty (the reader waits before its next
   * read). The reader is held back while a minimal region is still free: Node asks for the next
   * read's memory as it pauses, and that region is where the first read after the pause lands.
   * (Waiting until nothing is free would send that read to the reader's own buffer, and its bytes
   * to the thread as a copy: 256 KiB of garbage per pause.)
   */
  blocked(): Promise<void> | null {
    if (this.stopped || this.room() >= READ_BYTES + MIN_READ_BYTES) return null;
    return new Promise<void>((resolve) => {
      const check = () => {
        Atomics.store(this.control, WAITING, 1);
        // Re-read after raising the flag: the thread either saw it or had already made room.
        if (this.stopped || this.room() >= RESUME_ROOM_BYTES) {
          Atomics.store(this.control, WAITING, 0);
          this.roomWaiter = null;
          return resolve();
        }
        this.roomWaiter = check;
      };
      check();
    });
  }

  /** A part file of this request, created by the thread at `tempPath`. */
  stage(tempPath: string, remove: (staged: { tempPath: string }) => Promise<void>): WorkerStaging {
    if (this.released) throw new Error('the staging ring was released');
    // A file given to a thread that has exited would never settle.
    if (this.stopped) throw new Error('the upload staging thread stopped');
    const staging = new WorkerStaging(this, tempPath, remove, () => this.settled(staging));
    this.files.add(staging);
    return staging;
  }

  /** The request is over: the thread forgets the ring once its last file has settled. */
  release(): void {
    this.released = true;
    if (this.files.size === 0) this.free();
  }

  roomMade(): void {
    this.roomWaiter?.();
  }

  threadStopped(): void {
    this.stopped = true;
    this.roomWaiter?.();
  }

  private settled(staging: WorkerStaging): void {
    this.files.delete(staging);
    if (this.released && this.files.size === 0) this.free();
  }

  private free(): void {
    this.thread.dropRing(this.id);
    this.stopped = true;
  }
}

/**
 * A part file of a StagingRing's request: `write` posts each piece before returning (its place in
 * the ring, or a copy of it), the thread hashes and writes it. `finish` waits for the thread's
 * digest and fsyncs; `discard` waits until the thread let go of the file, then removes it.
 */
export class WorkerStaging {
  private readonly id: number;
  private readonly head = new StageHead();
  private fd: number | null = null;
  private failure: Error | null = null;
  private finishing: Promise<StagedFile> | null = null;
  private discarding: Promise<void> | null = null;
  private settle: ((answer: { sha1: string | null } | Error) => void) | null = null;
  private readonly settledWith: Promise<{ sha1: string | null } | Error>;

  constructor(
    private readonly ring: StagingRing,
    readonly tempPath: string,
    private readonly remove: (staged: { tempPath: string }) => Promise<void>,
    private readonly onSettled: () => void,
  ) {
    this.settledWith = new Promise((resolve) => (this.settle = resolve));
    this.id = this.thread.open(this, tempPath);
  }

  write(piece: Buffer): void {
    if (this.failure) throw this.failure;
    if (this.finishing || this.discarding) throw new Error('the staged file is already closed');
    if (piece.length === 0) return;
    this.head.update(piece);
    const place = this.ring.place(piece);
    if (place) return this.thread.post({ t: 'data', id: this.id, ring: this.ring.id, at: place.at, length: piece.length, end: place.end });
    // A copy of exactly the piece, handed over: cloning a view would copy all the memory behind it.
    const bytes = new Uint8Array(piece);
    this.thread.post({ t: 'bytes', id: this.id, bytes }, [bytes.buffer]);
  }

  /** Makes the bytes durable and closes the file. */
  finish(): Promise<StagedFile> {
    if (this.finishing) return this.finishing;
    if (this.discarding) return Promise.reject(new Error('the staged file is already closed'));
    this.finishing = (async () => {
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

  /** Closes (once the thread let go of the file) and removes it. */
  discard(): Promise<void> {
    this.discarding ??= (async () => {
      await this.finishing?.catch(() => undefined);
      this.thread.post({ t: 'drop', id: this.id });
      await this.settledWith;
      this.close();
      await this.remove(this);
    })();
    return this.discarding;
  }

  /** A message of the thread about this file. */
  received(m: FromWorker): void {
    if (m.t === 'opened') this.fd = m.fd;
    else if (m.t === 'failed') this.failure ??= Object.assign(new Error(m.message), { code: m.code });
    else if (m.t === 'settled') {
      this.thread.forget(this.id);
      this.letGo(m);
    }
  }

  /** The thread stopped before it let go of this file. */
  threadStopped(e: Error): void {
    this.failure ??= e;
    this.letGo(e);
  }

  private get thread(): StagingThread {
    return this.ring.thread;
  }

  private letGo(answer: { sha1: string | null } | Error): void {
    this.settle?.(answer);
    this.settle = null;
    this.onSettled();
  }

  private close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
