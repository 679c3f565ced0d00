// Reconciliation of stored files with database rows (issue 12, defect 6), shared by both
// services. A crash between placing a file and committing its row leaves complete bytes that
// no row references; a crash mid-upload leaves a temporary part. Each service describes its
// stores as ReconcileSources; this walks their content folders as a stream, asks the database
// which of each batch of locations a row references (one statement per batch, never per file),
// and removes what nothing references once it is older than the grace period. Removal goes
// through the source, which re-checks under its own lock that no write is using the file.
import { opendir, lstat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoredCandidate {
  /** How rows name the file (a location, or a content hash). */
  key: string;
  path: string;
  size: number;
  mtimeMs: number;
}

export interface ReconcileSource {
  /** Label in reports: "main", an alternative filesystem's key, "blobs". */
  name: string;
  /** Every file of the content area, streamed. */
  walk(): AsyncIterable<StoredCandidate>;
  /** The keys of `batch` that some row references. */
  referenced(keys: string[]): Promise<Set<string>>;
  /** Removes an unreferenced file unless a write in this process is using it; true when removed. */
  remove(candidate: StoredCandidate): Promise<boolean>;
  /** The folder of temporary upload parts. */
  tempDir: string;
  /** Whether a temporary part belongs to an upload still streaming in this process. */
  tempInUse(path: string): boolean;
}

export interface OrphanFile {
  store: string;
  key: string;
  size: number;
  modifiedAt: string;
}

export interface ReconcileReport {
  dryRun: boolean;
  ranAt: string;
  graceMs: number;
  /** Content files looked at. */
  scanned: number;
  /** Unreferenced files older than the grace period: removed, or would be on a dry run. */
  orphans: { count: number; bytes: number; files: OrphanFile[] };
  /** Unreferenced files younger than the grace period (a write may still commit them). */
  young: number;
  /** Temporary upload parts older than the grace period. */
  tempParts: { count: number; bytes: number };
  removed: { files: number; bytes: number; tempParts: number };
}

/** How many orphans a report lists by name (the counts cover all of them). */
export const REPORT_LIST_LIMIT = 200;
const BATCH = 500;

export interface ReconcileOptions {
  dryRun: boolean;
  graceMs: number;
  now?: number;
}

export async function reconcile(sources: readonly ReconcileSource[], opts: ReconcileOptions): Promise<ReconcileReport> {
  const now = opts.now ?? Date.now();
  const report: ReconcileReport = {
    dryRun: opts.dryRun,
    ranAt: new Date(now).toISOString(),
    graceMs: opts.graceMs,
    scanned: 0,
    orphans: { count: 0, bytes: 0, files: [] },
    young: 0,
    tempParts: { count: 0, bytes: 0 },
    removed: { files: 0, bytes: 0, tempParts: 0 },
  };
  const old = (mtimeMs: number) => now - mtimeMs >= opts.graceMs;

  for (const source of sources) {
    const settle = async (batch: StoredCandidate[]) => {
      if (batch.length === 0) return;
      const referenced = await source.referenced(batch.map((c) => c.key));
      for (const c of batch) {
        if (referenced.has(c.key)) continue;
        if (!old(c.mtimeMs)) {
          report.young++;
          continue;
        }
        if (!opts.dryRun && !(await source.remove(c))) continue;
        report.orphans.count++;
        report.orphans.bytes += c.size;
        if (report.orphans.files.length < REPORT_LIST_LIMIT) report.orphans.files.push({ store: source.name, key: c.key, size: c.size, modifiedAt: new Date(c.mtimeMs).toISOString() });
        if (!opts.dryRun) {
          report.removed.files++;
          report.removed.bytes += c.size;
        }
      }
    };
    let batch: StoredCandidate[] = [];
    for await (const c of source.walk()) {
      report.scanned++;
      batch.push(c);
      if (batch.length >= BATCH) {
        await settle(batch);
        batch = [];
      }
    }
    await settle(batch);

    for await (const part of walkFiles(source.tempDir, 1)) {
      if (!old(part.mtimeMs) || source.tempInUse(part.path)) continue;
      report.tempParts.count++;
      report.tempParts.bytes += part.size;
      if (opts.dryRun) continue;
      await unlink(part.path).then(
        () => report.removed.tempParts++,
        () => undefined,
      );
    }
  }
  return report;
}

/**
 * Regular files exactly `depth` folders below `dir` (depth 1: the files of `dir`), streamed
 * with opendir so a large store is never listed whole. Symlinks are skipped: the service never
 * makes them, so they are not its to remove.
 */
export async function* walkFiles(dir: string, depth: number, accept: (name: string) => boolean = () => true): AsyncGenerator<{ path: string; name: string; rel: string[]; size: number; mtimeMs: number }> {
  let handle;
  try {
    handle = await opendir(dir, { bufferSize: 128 });
  } catch {
    return;
  }
  for await (const entry of handle) {
    const path = join(dir, entry.name);
    if (depth > 1) {
      if (!entry.isDirectory()) continue;
      for await (const f of walkFiles(path, depth - 1, accept)) yield { ...f, rel: [entry.name, ...f.rel] };
      continue;
    }
    if (!entry.isFile() || !accept(entry.name)) continue;
    const info = await lstat(path).catch(() => null);
    if (!info?.isFile()) continue;
    yield { path, name: entry.name, rel: [entry.name], size: info.size, mtimeMs: info.mtimeMs };
  }
}

/** Runs a reconciliation now and then every `intervalMs` (0: only now); runs never overlap. */
export class ReconcileSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<ReconcileReport> | null = null;
  /** The report of the last run that removed files (start-up or periodic). */
  last: ReconcileReport | null = null;

  constructor(
    private readonly run: (dryRun: boolean) => Promise<ReconcileReport>,
    private readonly intervalMs: number,
    private readonly log: (msg: string) => void,
  ) {}

  /** Removes what is unreferenced; a run already under way is joined. */
  now(): Promise<ReconcileReport> {
    this.running ??= this.run(false)
      .then((report) => {
        this.last = report;
        if (report.removed.files || report.removed.tempParts) {
          this.log(`reconciliation: removed ${report.removed.files} unreferenced files (${report.removed.bytes} bytes) and ${report.removed.tempParts} stale temporary parts`);
        }
        return report;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  dryRun(): Promise<ReconcileReport> {
    return this.run(true);
  }

  start(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.now().catch((e: unknown) => console.error('reconciliation failed:', e)), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
