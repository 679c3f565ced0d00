// Content-addressed clip bytes (companion §2.2): blobs/sha256/<h0h1>/<h2h3>/<hash>. Bytes are
// streamed to tmp/ while hashed and counted, fsynced, then renamed into place; the database
// row is written only after the blob exists, and a blob is unlinked only when no row refers
// to it. Both steps for one hash run under one lock, so a delete cannot remove a blob that a
// concurrent upload of the same bytes is about to reference. A small upload read whole skips
// both fsyncs: its bytes go into the blob journal with its row instead (storage/journal.ts).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, writeSync, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { pipeline, Transform, type Readable } from 'node:stream';
import { open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { renameDurably, renameInto, syncDir, syncFile, syncFilesystem } from '../../core/storage/file-store.js';
import { fdatasyncFd, openFd } from '../../core/storage/fd-calls.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import { isInsideRoot, NO_FOLLOW_READ } from '../../core/storage/resolver.js';
import { Reclaimer } from './reclaim.js';

/** Bytes kept in memory from the start of every upload: sniffing and the search excerpt. */
export const HEAD_BYTES = 1024 * 1024;
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Writes content of at most one batch to a new file, and fdatasyncs it when `durable`. Written
 * into the page cache and closed by direct calls (METADATA_CALLS in core/storage/file-store.ts);
 * created on the thread pool because creating an inode waits for the filesystem journal while
 * other uploads' fsyncs commit it — a profile had the event loop blocked there for a fifth of
 * its time.
 */
async function writeWhole(path: string, bytes: Uint8Array, durable: boolean): Promise<void> {
  const fd = await openFd(path, 'wx', 0o644);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (durable) await fdatasyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`content exceeds ${limit} bytes`);
  }
}

export interface StagedBlob {
  hash: string;
  size: number;
  /** The first HEAD_BYTES bytes (or all of them for smaller content). */
  head: Buffer;
  tmpPath: string;
  /**
   * All the bytes, when the temporary file was not fsynced: committed with
   * `{ journaled: true }`, the caller's transaction must add them to the blob journal
   * (JournalEntry); committed without, the file is fsynced first.
   */
  journal?: Buffer;
}

type Referenced = (hash: string) => boolean | Promise<boolean>;

/** The calls that make journaled blobs durable; a test passes its own to see which run. */
export interface DurabilityCalls {
  syncFilesystem(path: string): Promise<boolean>;
  syncFile(path: string): Promise<void>;
  syncDir(path: string): Promise<void>;
}

const SYSTEM_DURABILITY: DurabilityCalls = { syncFilesystem, syncFile, syncDir };

export class BlobStore {
  readonly blobDir: string;
  readonly tmpDir: string;
  private readonly lock = new KeyedLock();
  /** While held (a backup reading blobs, a restore placing them), collection is deferred. */
  private holds = 0;
  private readonly deferred = new Map<string, Referenced>();
  /** Temporary parts of uploads still streaming in this process. */
  private readonly staging = new Set<string>();
  /**
   * Temporary names: random per store, then counted, instead of random bytes per upload; a
   * clash with another process's part fails the exclusive create rather than sharing a file.
   */
  private readonly tmpPrefix = randomBytes(9).toString('hex');
  private tmpCount = 0;
  /** Bytes placed through the journal and not yet flushed: past a budget it flushes early. */
  journaledBytes = 0;

  constructor(
    dataDir: string,
    private readonly durability: DurabilityCalls = SYSTEM_DURABILITY,
  ) {
    this.blobDir = join(dataDir, 'blobs', 'sha256');
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(this.blobDir, { recursive: true, mode: 0o755 });
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o755 });
    this.realBlobDir = realpathSync(this.blobDir);
  }

  /** The blob folder with symlinks resolved: every blob read must lie under it. */
  private readonly realBlobDir: string;

  pathOf(hash: string): string {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a sha256 hash: ${hash}`);
    return join(this.blobDir, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  /**
   * Streams `source` into a temp file while hashing it. More than `limit` bytes stops reading,
   * deletes the temp file and throws BlobTooLargeError. Any failure leaves no temp file.
   */
  async stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit: number): Promise<StagedBlob> {
    const tmpPath = this.nextTmpPath();
    this.staging.add(tmpPath);
    try {
      return await this.stageInto(tmpPath, source, limit);
    } finally {
      this.staging.delete(tmpPath);
    }
  }

  /**
   * Stages content already in memory (a small upload read whole): hashed by one call, created
   * and written by one without waiting for the disk (the bytes travel on as `journal`), with
   * the same temporary names and cleanup as `stage`.
   */
  async stageBytes(bytes: Buffer, limit: number): Promise<StagedBlob> {
    if (bytes.length > limit) throw new BlobTooLargeError(limit);
    const tmpPath = this.nextTmpPath();
    this.staging.add(tmpPath);
    try {
      await writeWhole(tmpPath, bytes, false);
    } catch (e) {
      rmSync(tmpPath, { force: true });
      throw e;
    } finally {
      this.staging.delete(tmpPath);
    }
    return { hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, head: bytes.subarray(0, HEAD_BYTES), tmpPath, journal: bytes };
  }

  private nextTmpPath(): string {
    return join(this.tmpDir, `${this.tmpPrefix}-${(this.tmpCount++).toString(36)}.part`);
  }

  /** Whether a temporary part belongs to an upload of this process still being written. */
  isStaging(tmpPath: string): boolean {
    return this.staging.has(tmpPath);
  }

  private async stageInto(tmpPath: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit: number): Promise<StagedBlob> {
    // Opened only once a batch must go to disk: content that ends within the first batch (the
    // usual small clip) is written whole by one call instead.
    let file = null as FileHandle | null;
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headBytes = 0;
    let size = 0;
    const reclaimer = new Reclaimer();
    // Chunks are written in batches, one batch on disk while the next one arrives.
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      file ??= await open(tmpPath, 'wx', 0o644);
      const buffers = batch;
      const expected = batchBytes;
      batch = [];
      batchBytes = 0;
      writing = file.writev(buffers).then(({ bytesWritten }) => {
        if (bytesWritten !== expected) throw new Error(`short write to ${tmpPath}`);
      });
      // Marked handled now; the failure still surfaces where `writing` is awaited next.
      writing.catch(() => undefined);
    };
    try {
      for await (const chunk of source) {
        size += chunk.length;
        reclaimer.add(chunk.length);
        if (size > limit) throw new BlobTooLargeError(limit);
        hash.update(chunk);
        if (headBytes < HEAD_BYTES) {
          const take = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.length, HEAD_BYTES - headBytes));
          head.push(Buffer.from(take));
          headBytes += take.length;
        }
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= WRITE_BATCH_BYTES) await flush();
      }
      if (file === null) {
        await writeWhole(tmpPath, batch.length === 1 ? batch[0] : Buffer.concat(batch), true);
      } else {
        if (batchBytes > 0) await flush();
        await writing;
        await file.sync();
        await file.close();
      }
    } catch (e) {
      await writing.catch(() => undefined);
      await file?.close().catch(() => undefined);
      await unlink(tmpPath).catch(() => undefined);
      throw e;
    }
    return { hash: hash.digest('hex'), size, head: Buffer.concat(head), tmpPath };
  }

  /** Drops a staged blob that will not be committed. */
  async discard(staged: StagedBlob): Promise<void> {
    await unlink(staged.tmpPath).catch(() => undefined);
  }

  /**
   * Moves staged bytes into place without a row yet (a restore, whose rows commit later while
   * collection is held). Content already stored keeps its file.
   */
  async place(staged: { hash: string; tmpPath: string }): Promise<void> {
    await this.lock.with(staged.hash, async () => {
      const target = this.pathOf(staged.hash);
      try {
        if (existsSync(target)) await unlink(staged.tmpPath).catch(() => undefined);
        else await renameDurably(staged.tmpPath, target);
      } catch (e) {
        await unlink(staged.tmpPath).catch(() => undefined);
        throw e;
      }
    });
  }

  /**
   * Defers every blob deletion until the returned release runs: a backup reads the blobs of
   * its snapshot after rows may have gone, and a restore places blobs before their rows exist.
   * Deferred deletions are checked again on release.
   */
  holdCollection(): () => Promise<void> {
    this.holds++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      const pending = [...this.deferred];
      this.deferred.clear();
      for (const [hash, referenced] of pending) await this.release([hash], referenced);
    };
  }

  /**
   * Moves the staged bytes into place (unless that content is already stored), then runs
   * `write` (the row insert) under the hash lock. When `write` fails, or writes no row that
   * refers to the hash, the blob is collected again. With `journaled`, a blob staged with its
   * bytes in memory is placed without waiting for the disk: `write` must journal them.
   */
  async commit<T>(staged: StagedBlob, write: () => Promise<T>, referenced: Referenced, options: { journaled?: boolean } = {}): Promise<T> {
    return this.lock.with(staged.hash, async () => {
      const target = this.pathOf(staged.hash);
      try {
        if (existsSync(target)) await unlink(staged.tmpPath).catch(() => undefined);
        else if (staged.journal && options.journaled) {
          await renameInto(staged.tmpPath, target);
          this.journaledBytes += staged.size;
        } else {
          if (staged.journal) await this.durability.syncFile(staged.tmpPath);
          await renameDurably(staged.tmpPath, target);
        }
      } catch (e) {
        await unlink(staged.tmpPath).catch(() => undefined);
        throw e;
      }
      try {
        return await write();
      } finally {
        await this.collectLocked(staged.hash, referenced);
      }
    });
  }

  /**
   * Whether the stored file of a journaled blob holds exactly the journal's bytes (after a
   * crash: a file written without an fsync may be missing or torn).
   */
  async holdsExactly(hash: string, bytes: Buffer): Promise<boolean> {
    if (!this.exists(hash)) return false;
    return readFile(this.pathOf(hash)).then((b) => b.equals(bytes), () => false);
  }

  /** Writes a journaled blob's file again from the journal's bytes, durably, under its lock. */
  async rewrite(hash: string, bytes: Buffer): Promise<void> {
    await this.lock.with(hash, async () => {
      const tmpPath = this.nextTmpPath();
      try {
        await writeWhole(tmpPath, bytes, true);
        await renameDurably(tmpPath, this.pathOf(hash));
      } catch (e) {
        await unlink(tmpPath).catch(() => undefined);
        throw e;
      }
    });
  }

  /**
   * Makes the files of these blobs, and the folders they were placed in, durable. One flush of
   * the filesystem does it (every blob lies on the filesystem of tmp/, or its rename into place
   * would have failed); where that cannot be done, each file and folder is fsynced.
   */
  async makeDurable(hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0 || (await this.durability.syncFilesystem(this.blobDir))) return;
    const folders = new Set<string>([this.blobDir]);
    for (const hash of hashes) {
      if (!this.exists(hash)) continue;
      await this.durability.syncFile(this.pathOf(hash));
      const leaf = dirname(this.pathOf(hash));
      folders.add(leaf).add(dirname(leaf));
    }
    for (const folder of folders) await this.durability.syncDir(folder);
  }

  /** After rows were removed or repointed: unlinks every listed blob no row refers to any more. */
  async release(hashes: Iterable<string>, referenced: Referenced): Promise<void> {
    for (const hash of new Set(hashes)) {
      await this.lock.with(hash, () => this.collectLocked(hash, referenced));
    }
  }

  /**
   * Reconciliation's removal of a blob no row referenced when it looked: under the hash lock
   * (no commit of these bytes is under way), refused while collection is held (backup,
   * restore) and when a row refers to it by now. True when the blob was removed.
   */
  async removeUnreferenced(hash: string, referenced: Referenced): Promise<boolean> {
    return this.lock.with(hash, async () => {
      if (this.holds > 0 || (await referenced(hash))) return false;
      await unlink(this.pathOf(hash)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      return true;
    });
  }

  /** Unlinks every stored blob no row refers to (after a restore replaced the rows). */
  async collectAll(referenced: Referenced): Promise<void> {
    for (const a of safeList(this.blobDir)) {
      for (const b of safeList(join(this.blobDir, a))) {
        for (const hash of safeList(join(this.blobDir, a, b))) {
          if (/^[0-9a-f]{64}$/.test(hash)) await this.release([hash], referenced);
        }
      }
    }
  }

  private async collectLocked(hash: string, referenced: Referenced): Promise<void> {
    if (this.holds > 0) {
      this.deferred.set(hash, referenced);
      return;
    }
    try {
      if (await referenced(hash)) return;
      await unlink(this.pathOf(hash));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`could not remove blob ${hash}:`, e);
    }
  }

  /** Whether the blob is stored as a regular file (a symlink in its place does not count). */
  exists(hash: string): boolean {
    try {
      return lstatSync(this.pathOf(hash)).isFile();
    } catch {
      return false;
    }
  }

  /** A read stream over the whole blob or an inclusive byte range. */
  read(hash: string, range?: { start: number; end: number }): Readable {
    const reclaimer = new Reclaimer();
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        reclaimer.add(chunk.length);
        done(null, chunk);
      },
    });
    return pipeline(createReadStream('', { fd: this.openChecked(hash), ...range }), counted, () => undefined);
  }

  /**
   * Opens a blob the way the library's resolver opens a stored file: never through a symlink
   * as the file (O_NOFOLLOW), and only when its real path lies under the blob folder.
   */
  private openChecked(hash: string): number {
    const fd = openSync(this.pathOf(hash), NO_FOLLOW_READ);
    try {
      const actual = realpathSync(`/proc/self/fd/${fd}`);
      if (!isInsideRoot(this.realBlobDir, actual)) throw new Error(`blob ${hash} leads outside ${this.blobDir}`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        closeSync(fd);
        throw e;
      }
    }
    return fd;
  }

  /** Start-up (§2.2.4): empties tmp/ — nothing of this process is uploading yet. */
  sweepTemp(): number {
    let tmp = 0;
    for (const name of readdirSync(this.tmpDir)) {
      rmSync(join(this.tmpDir, name), { recursive: true, force: true });
      tmp++;
    }
    return tmp;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

