// Runs the watchers (companion §7.3, §7.6): one chokidar watcher per folder that is not paused
// and exists on disk (none while globally paused), only the folder itself (depth 0). Every
// created, moved-in or written file restarts its own debounce timer; the import runs once the
// path has been quiet that long, through a small queue so a burst of files is imported a few
// at a time. Folders missing on disk are looked for again periodically.
import { statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { fileMatches, isHidden } from './filters.js';
import { folderFilter, type ImportMode, type WatchImporter } from './importer.js';
import type { WatchRepository, WatchRow } from './repository.js';

const IMPORT_CONCURRENCY = 2;
/** More files than this waiting in one folder is a burst, taken by a scan (see touch). */
export const BURST_FILES = 64;
const READY_TIMEOUT_MS = 10_000;

interface Running {
  path: string;
  /** The folder row and directory the watcher was built from; a change rebuilds it. */
  signature: string;
  /** The folder itself was removed under the watcher. */
  stale: boolean;
  watcher: FSWatcher;
}

interface Job {
  folderId: number;
  path: string;
}

export function isDirectory(path: string): boolean {
  return directoryInode(path) !== null;
}

/**
 * Identity of the directory at `path`, or null when there is none. Inode numbers are reused at
 * once by some filesystems, so the birth time tells a folder removed and made again apart.
 */
function directoryInode(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeMs}` : null;
  } catch {
    return null;
  }
}

export interface WatchTiming {
  debounceMs: number;
  recheckMs: number;
}

export class WatchManager {
  private readonly running = new Map<number, Running>();
  private readonly timers = new Map<string, { folderId: number; timer: NodeJS.Timeout }>();
  /** Debounce timers per folder. */
  private readonly waiting = new Map<number, number>();
  private readonly queue: Job[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  private readonly idle: (() => void)[] = [];
  private readonly scans = new Set<Promise<unknown>>();
  /** Folders being scanned: their watcher is set aside meanwhile (see scan). */
  private readonly scanning = new Map<number, number>();
  private recheck: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> = Promise.resolve();
  /** Set while suspended (restore) or closed: nothing new starts. */
  private stopped = false;

  constructor(
    private readonly repo: WatchRepository,
    private readonly importer: WatchImporter,
    private readonly timing: WatchTiming,
    private readonly log: (msg: string) => void,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    this.recheck ??= setInterval(() => void this.refresh(), this.timing.recheckMs);
    this.recheck.unref();
  }

  /** Brings the running watchers in line with the database and the disk; calls are serialised. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.reconcile()).catch((e: unknown) => this.log(`watch refresh failed: ${(e as Error).message}`));
    return this.refreshing;
  }

  private async reconcile(): Promise<void> {
    if (this.stopped) return;
    const globalPaused = await this.repo.globalPaused();
    const wanted = new Map<number, { row: WatchRow; signature: string }>();
    if (!globalPaused) {
      for (const row of await this.repo.list()) {
        const ino = row.is_paused === 0 && !this.scanning.has(row.id) ? directoryInode(row.path) : null;
        if (ino !== null) wanted.set(row.id, { row, signature: JSON.stringify([row.path, ino, row.filter_mode, row.filter_presets, row.filter_regex]) });
      }
    }
    for (const [id, run] of this.running) if (run.stale || wanted.get(id)?.signature !== run.signature) await this.stopOne(id);
    for (const [id, want] of wanted) if (!this.running.has(id)) await this.startOne(want.row, want.signature);
  }

  private async startOne(row: WatchRow, signature: string): Promise<void> {
    const root = row.path;
    const filter = folderFilter(row);
    // Ignored entries get no watch of their own: dot-files, sub-directories, non-matching files.
    const ignored = (path: string, stats?: { isDirectory(): boolean }) => {
      if (path === root) return false;
      if (dirname(path) !== root || stats?.isDirectory()) return true;
      const name = basename(path);
      return isHidden(name) || !fileMatches(filter, name);
    };
    const watcher = watch(root, { depth: 0, ignoreInitial: true, ignored, persistent: true });
    const onFile = (path: string) => {
      if (dirname(path) === root) this.touch(row.id, path);
    };
    watcher.on('add', onFile).on('change', onFile);
    watcher.on('unlink', (path: string) => this.forget(path));
    watcher.on('unlinkDir', (path: string) => {
      if (path !== root) return;
      // The folder went away: drop this watcher; the re-check watches it again once it is back.
      const run = this.running.get(row.id);
      if (run?.watcher === watcher) run.stale = true;
      void this.refresh();
    });
    watcher.on('error', (e: unknown) => this.log(`watch folder ${root}: ${(e as Error).message}`));
    this.running.set(row.id, { path: root, signature, watcher, stale: false });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, READY_TIMEOUT_MS);
      watcher.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async stopOne(id: number): Promise<void> {
    const run = this.running.get(id);
    if (!run) return;
    this.running.delete(id);
    for (const [path, t] of this.timers) if (t.folderId === id) this.forget(path);
    await run.watcher.close();
  }

  /**
   * An event for `path`: (re)start its debounce timer. A burst — more than BURST_FILES files of
   * one folder waiting — is handed to a scan instead, which imports the files that have been
   * quiet for the debounce time (by modification time) without the watcher: chokidar lists and
   * stats the whole folder once a second while it changes, which a burst of thousands of files
   * would turn into most of the work.
   */
  private touch(folderId: number, path: string, mayBurst = true): void {
    const previous = this.timers.get(path);
    if (previous) clearTimeout(previous.timer);
    else this.waiting.set(folderId, (this.waiting.get(folderId) ?? 0) + 1);
    const timer = setTimeout(() => {
      this.forget(path);
      this.enqueue({ folderId, path });
    }, this.timing.debounceMs);
    this.timers.set(path, { folderId, timer });
    if (mayBurst && (this.waiting.get(folderId) ?? 0) > BURST_FILES && !this.scanning.has(folderId)) this.takeBurst(folderId);
  }

  private forget(path: string): void {
    const t = this.timers.get(path);
    if (!t) return;
    clearTimeout(t.timer);
    this.timers.delete(path);
    const left = (this.waiting.get(t.folderId) ?? 1) - 1;
    if (left > 0) this.waiting.set(t.folderId, left);
    else this.waiting.delete(t.folderId);
  }

  private takeBurst(folderId: number): void {
    this.log(`watch folder ${folderId}: more than ${BURST_FILES} files waiting, taken by a scan`);
    for (const [path, t] of this.timers) if (t.folderId === folderId) this.forget(path);
    this.track(this.scan(folderId, 'watch', this.timing.debounceMs), folderId);
  }

  private enqueue(job: Job): void {
    if (this.stopped || this.queued.has(job.path)) return;
    this.queued.add(job.path);
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.active < IMPORT_CONCURRENCY && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.queued.delete(job.path);
      this.active++;
      void this.importer
        .importFile(job.folderId, job.path, 'watch')
        .catch((e: unknown) => this.log(`watch import failed: ${job.path}: ${(e as Error).message}`))
        .finally(() => {
          this.active--;
          if (this.active === 0 && this.queue.length === 0) for (const done of this.idle.splice(0)) done();
          this.pump();
        });
    }
  }

  /**
   * Imports the files already in a folder (§7.5). Its watcher is set aside meanwhile: chokidar
   * lists and stats the whole folder again whenever it changes, which a scan emptying a large
   * folder would make quadratic. Files that arrived, or were still being written, before the
   * watcher is back are taken by a second pass; what is still settling after that gets a
   * debounce timer as an event would have given it. `quietMs` leaves files modified more
   * recently than that (a scan standing in for events).
   */
  async scan(folderId: number, mode: ImportMode, quietMs = 0): Promise<void> {
    this.scanning.set(folderId, (this.scanning.get(folderId) ?? 0) + 1);
    let settled: Set<string>;
    try {
      await this.refresh();
      settled = (await this.importer.scan(folderId, mode, { stop: () => this.stopped, quietMs })).settled;
    } finally {
      const left = this.scanning.get(folderId)! - 1;
      if (left > 0) this.scanning.set(folderId, left);
      else this.scanning.delete(folderId);
      await this.refresh();
    }
    const second = await this.importer.scan(folderId, mode, { stop: () => this.stopped, quietMs, only: (name) => !settled.has(name) });
    const run = this.running.get(folderId);
    // What a scan left unsettled waits like any event, without starting another scan.
    if (run) for (const name of second.unsettled) this.touch(folderId, join(run.path, name), false);
  }

  /** Runs a scan in the background (process_existing on creation); it stops with the manager. */
  scanInBackground(folderId: number): void {
    if (this.stopped) return;
    this.track(this.scan(folderId, 'watch'), folderId);
  }

  private track(work: Promise<void>, folderId: number): void {
    const scan = work
      .catch((e: unknown) => this.log(`watch scan of folder ${folderId} failed: ${(e as Error).message}`))
      .finally(() => this.scans.delete(scan));
    this.scans.add(scan);
  }

  /** Stops every watcher and pending timer and waits for imports under way (restore, shutdown). */
  async suspend(): Promise<void> {
    this.stopped = true;
    await this.refreshing;
    for (const id of [...this.running.keys()]) await this.stopOne(id);
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
    this.waiting.clear();
    this.queue.length = 0;
    this.queued.clear();
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await Promise.allSettled([...this.scans]);
  }

  /** Watches again after a suspension. */
  resume(): Promise<void> {
    return this.start();
  }

  async close(): Promise<void> {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
    await this.suspend();
  }

  /** Folder ids with a running watcher (status and tests). */
  watching(): number[] {
    return [...this.running.keys()];
  }
}
