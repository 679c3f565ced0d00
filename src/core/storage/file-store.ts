// One filesystem root (the main one or a named alternative). Every new file is written to a
// temporary file inside the root, hashed while it streams, fsynced, and only then renamed to
// its content-addressed place, so a stored path always points at complete bytes. Paths given
// by clients are resolved inside the root and can never escape it.
import { closeSync, createWriteStream, openSync, renameSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { copyFile, link, mkdir, open, readdir, rm, stat, unlink, utimes } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { KeyedLock } from './keyed-lock.js';
import { DirectorySyncs } from './dir-sync.js';
import { StageDigest, type StagedFile } from './staging.js';
import type { StagingRing, WorkerStaging } from './staging-worker.js';
import { fsyncFd } from './fd-calls.js';

export { SNIFF_BYTES, type StagedFile } from './staging.js';

export class PathEscapeError extends Error {}

const TEMP_DIR = '.tmp';

/*
 * METADATA_CALLS: renaming and closing files, writing a small file into the page cache and
 * opening folders are made with the synchronous calls on the event loop; fsync, bulk writes and
 * the creation of a new file or folder (a new inode can wait for the filesystem journal while
 * fsyncs commit it: on one machine a synchronous mkdir of the clip store's content folders held
 * the event loop 0.36 ms per upload, a quarter of the time) go through libuv's thread pool
 * (fd-calls.ts), or are made by the staging thread (a direct upload's part file,
 * staging-worker.ts). Each pool round trip (queue, wake a pool thread, signal the loop back,
 * resolve a promise) cost more CPU than the metadata call it carried: a small clip upload made
 * ten of them (bench/README.md, "Clip service").
 */

/**
 * One group commit of directory fsyncs for the whole process (both services place through
 * `renameDurably`): concurrent placements into one directory share fsyncs, each answered by one
 * that began after its rename (dir-sync.ts).
 */
const directorySyncs = new DirectorySyncs(syncDir);

/**
 * How long a location placed by this process is protected from reconciliation: its row commits
 * within the same request, long before this.
 */
const PLACED_PROTECTION_MS = 10 * 60_000;

export class FileStore {
  readonly root: string;
  /** Placing and reconciling one location never interleave. */
  private readonly placing = new KeyedLock();
  /** Locations placed (or reused) recently by this process, with the time. */
  private readonly placed = new Map<string, number>();
  /** Temporary parts of uploads not yet placed or discarded. */
  private readonly staging = new Set<string>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  /**
   * Absolute path of a location inside the root. Locations are relative ("a/b.jpg") or rooted
   * at the store ("/a/b.jpg"); anything that would leave the root is refused.
   */
  resolve(location: string): string {
    if (location.includes('\0')) throw new PathEscapeError('path contains a NUL byte');
    const rel = location.replace(/\\/g, '/').replace(/^\/+/, '');
    const full = resolve(this.root, rel);
    const back = relative(this.root, full);
    if (back === '' || back.startsWith('..') || isAbsolute(back)) throw new PathEscapeError(`path "${location}" is outside the storage root`);
    return full;
  }

  /** Streams `source` into a temporary file: hashed, counted, fsynced. The caller places or discards it. */
  async stage(source: Readable): Promise<StagedFile> {
    const dir = join(this.root, TEMP_DIR);
    await mkdir(dir, { recursive: true });
    const tempPath = this.newTempPath();
    this.staging.add(tempPath);
    const digest = new StageDigest();
    const tap = new Transform({
      // One socket read per side: the file stream below is the one buffer (its writes batch what
      // arrives while one is in flight); more slack here is only memory per concurrent upload.
      highWaterMark: 64 * 1024,
      transform(chunk: Buffer, _enc, done) {
        digest.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, tap, createWriteStream(tempPath, { highWaterMark: 1 << 20 }));
      await syncFile(tempPath);
    } catch (e) {
      this.staging.delete(tempPath);
      await rm(tempPath, { force: true });
      throw e;
    }
    return digest.digest(tempPath);
  }

  /**
   * A temporary file of a direct upload (the multipart reader that reads into `ring`): its pieces
   * are hashed and written by the staging thread, which also creates the file
   * (staging-worker.ts), so the event loop only parses.
   */
  stageDirect(ring: StagingRing): WorkerStaging {
    const tempPath = this.newTempPath();
    const staged = ring.stage(tempPath, (part) => this.discard(part));
    this.staging.add(tempPath);
    return staged;
  }

  private newTempPath(): string {
    return join(this.root, TEMP_DIR, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
  }

  /** Stages bytes produced in memory (re-encoded images). */
  async stageBuffer(bytes: Buffer): Promise<StagedFile> {
    return this.stage(Readable.from([bytes]));
  }

  /**
   * Moves a staged file to `location`. Content-addressed: when a file already exists there it
   * is kept and the staged copy is dropped. Returns true when this call created the file.
   */
  async place(staged: StagedFile, location: string): Promise<boolean> {
    const target = this.resolve(location);
    try {
      return await this.placing.with(location, async () => {
        this.markPlaced(location);
        if (await exists(target)) {
          await rm(staged.tempPath, { force: true });
          return false;
        }
        try {
          await renameDurably(staged.tempPath, target);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
          // Staged on another device (the request named its filesystem after the file): copy over.
          await this.copyTo(staged.tempPath, location);
          await rm(staged.tempPath, { force: true });
          await directorySyncs.sync(dirname(target));
        }
        return true;
      });
    } finally {
      this.staging.delete(staged.tempPath);
    }
  }

  /**
   * Places a copy of a complete, fsynced file that must stay where it is: a staged import blob
   * is needed again when the transaction this placement belongs to rolls back or the process
   * dies before COMMIT (moving it, as `place` does, made every retry of the import fail).
   * A hard link where the filesystem allows one, else an atomic copy. Content-addressed like
   * `place`: an existing file is kept. Returns true when this call created the file.
   */
  async placeCopy(fromAbsolute: string, location: string): Promise<boolean> {
    const target = this.resolve(location);
    return this.placing.with(location, async () => {
      this.markPlaced(location);
      if (await exists(target)) return false;
      await makeDirectoryDurably(dirname(target));
      try {
        await link(fromAbsolute, target);
        // The link shares the source's modification time, which may be old: make it recent,
        // so another process's reconciliation gives the row its grace period to commit.
        const now = new Date();
        await utimes(target, now, now);
        await directorySyncs.sync(dirname(target));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return false;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw e;
        // No hard links here (or the link's time could not be set): a copy replaces it.
        await copyFileAtomic(fromAbsolute, target);
      }
      return true;
    });
  }

  /**
   * Marked before the existence check: a reconciliation waiting for the location's lock then
   * keeps the file, whether the caller reuses it or creates it.
   */
  private markPlaced(location: string): void {
    const now = Date.now();
    if (this.placed.size > 1024) for (const [k, t] of this.placed) if (now - t >= PLACED_PROTECTION_MS) this.placed.delete(k);
    this.placed.set(location, now);
  }

  async discard(staged: Pick<StagedFile, 'tempPath'>): Promise<void> {
    this.staging.delete(staged.tempPath);
    await rm(staged.tempPath, { force: true });
  }

  /** The folder of temporary upload parts. */
  get tempDir(): string {
    return join(this.root, TEMP_DIR);
  }

  /** Whether a temporary part belongs to an upload of this process not yet placed or discarded. */
  isStaging(tempPath: string): boolean {
    return this.staging.has(tempPath);
  }

  /**
   * Reconciliation's removal of a file no row referenced when it looked: refused while this
   * process placed or reused the location recently (its row may be about to commit).
   */
  async removeUnreferenced(location: string): Promise<boolean> {
    return this.placing.with(location, async () => {
      const at = this.placed.get(location);
      if (at !== undefined) {
        if (Date.now() - at < PLACED_PROTECTION_MS) return false;
        this.placed.delete(location);
      }
      await this.remove(location);
      return true;
    });
  }

  async exists(location: string): Promise<boolean> {
    try {
      return await exists(this.resolve(location));
    } catch {
      return false;
    }
  }

  async remove(location: string): Promise<void> {
    await unlink(this.resolve(location)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  /** Copies a stored file to another location in this store (fsynced), replacing nothing. */
  async copyTo(fromAbsolute: string, location: string): Promise<void> {
    const target = this.resolve(location);
    await makeDirectoryDurably(dirname(target));
    if (await exists(target)) return;
    await copyFileAtomic(fromAbsolute, target);
  }

  /** Removes temporary files left by a process that stopped mid-upload. */
  async sweepTemp(): Promise<number> {
    const dir = join(this.root, TEMP_DIR);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) await rm(join(dir, n), { force: true });
    return names.length;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function syncFile(path: string): Promise<void> {
  await fsyncAt(path, 'r+');
}

/**
 * Opens `path`, fsyncs it and closes it. Opening and closing an existing file or folder are
 * metadata calls of microseconds, made directly; only the fsync, which waits for the disk, goes
 * through the thread pool (METADATA_CALLS).
 */
async function fsyncAt(path: string, flags: string): Promise<void> {
  const fd = openSync(path, flags);
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * What opening or fsyncing a directory answers where the platform or filesystem cannot do it
 * (Windows opens no directories, some filesystems refuse fsync on them): harmless, the rename
 * is as durable as that filesystem makes it.
 */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EPERM', 'EACCES']);

/**
 * Makes a rename durable. A failure that means the disk did not take it (EIO, ENOSPC, a
 * missing directory) is thrown: the caller must not acknowledge what may not survive a crash.
 */
export async function syncDir(path: string): Promise<void> {
  try {
    await fsyncAt(path, 'r');
  } catch (e) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
  }
}

/**
 * Flushes the whole filesystem holding `path` (syncfs(2), through coreutils' `sync -f`: Node
 * has no binding): one call makes every file and folder written there durable, where an fsync
 * each would cost a system call and a journal check per file. False when it could not be done
 * (no such command, another platform, an I/O error): the caller then fsyncs file by file,
 * which names the error.
 */
export function syncFilesystem(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('sync', ['-f', path], { timeout: 120_000 }, (error) => resolve(error === null));
  });
}

/** The content-addressed location of a file: /resources/ab/cd/ef/<hash><ext> (companion §3.1). */
export function contentLocation(sha1: string, ext: string): string {
  return `/resources/${sha1.slice(0, 2)}/${sha1.slice(2, 4)}/${sha1.slice(4, 6)}/${sha1}${ext}`;
}

export const isInside = (root: string, full: string) => full === root || full.startsWith(root.endsWith(sep) ? root : root + sep);

/** Writes bytes to `path` through a fsynced temporary file and a rename. */
export async function writeFileAtomic(path: string, data: Buffer): Promise<void> {
  await makeDirectoryDurably(dirname(path));
  const temp = `${path}.${randomBytes(4).toString('hex')}.part`;
  try {
    const fh = await open(temp, 'w');
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await renameDurably(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** Copies a file to `path` through a fsynced temporary file and a rename (replaces `path`). */
export async function copyFileAtomic(from: string, path: string): Promise<void> {
  await makeDirectoryDurably(dirname(path));
  const temp = `${path}.${randomBytes(4).toString('hex')}.part`;
  try {
    await copyFile(from, temp);
    await syncFile(temp);
    await renameDurably(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Moves a complete, fsynced file to its final path (creating the directory) and flushes the
 * directory entry, so the file is there after a crash. Both paths must be on one filesystem.
 */
export async function renameDurably(from: string, to: string): Promise<void> {
  const made = await renameInto(from, to);
  // The rename is durable once its folder is fsynced, and a folder made for it once its own
  // parent is: every level made here is flushed into the one above it.
  await Promise.all([dirname(to), ...made].map((d) => directorySyncs.sync(d)));
}

/**
 * Moves a file to its final path (creating the directory) without waiting for the disk: for a
 * file whose bytes are kept durable elsewhere until it is flushed (the clip service's blob
 * journal). Answers the folders that gained an entry besides the file's own.
 */
export async function renameInto(from: string, to: string): Promise<string[]> {
  // The rename is synchronous on purpose (METADATA_CALLS): it changes a directory entry in the
  // page cache and returns; a new folder goes through the pool, since it creates an inode.
  const dir = dirname(to);
  let made: string[] = [];
  if (!knownDirectories.has(dir)) made = await makeDirectory(dir);
  try {
    renameSync(from, to);
  } catch (e) {
    // A folder this process saw was removed since (reconciliation prunes empty ones): again.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    made = await makeDirectory(dir);
    renameSync(from, to);
  }
  return made;
}

/**
 * Folders known to exist, so a placement into one needs no mkdir. Forgotten wholesale past
 * KNOWN_DIRECTORIES (the library's layout has 16.7 million leaf folders): forgetting costs one
 * mkdir of a folder that exists.
 */
const knownDirectories = new Set<string>();
const KNOWN_DIRECTORIES = 100_000;

/**
 * Makes `dir` with its missing parents and flushes each new folder into its parent, for a file
 * about to be created in it or placed by other means than `renameDurably` (a link, a copy).
 * Always asks the filesystem: the folder may have been removed since (clearing previews removes
 * theirs), and the caller's next call inside it has no retry.
 */
export async function makeDirectoryDurably(dir: string): Promise<void> {
  await Promise.all((await makeDirectory(dir)).map((d) => directorySyncs.sync(d)));
}

/** Makes `dir` with its missing parents; answers the folders that gained an entry (parents of what was made). */
export async function makeDirectory(dir: string): Promise<string[]> {
  const first = await mkdir(dir, { recursive: true });
  if (knownDirectories.size >= KNOWN_DIRECTORIES) knownDirectories.clear();
  knownDirectories.add(dir);
  if (first === undefined) return [];
  // From the parent of `dir` up to the parent of the first folder made, each gained one entry.
  const parents: string[] = [];
  for (let d = dir; d !== first && dirname(d) !== d; d = dirname(d)) parents.push(dirname(d));
  parents.push(dirname(first));
  return parents;
}
