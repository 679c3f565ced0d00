// The blob journal (docs/storage.md, "Small clips"). A small upload read whole is written to its
// file without an fsync, and its bytes go into the blob_journal table in the transaction of its
// clip row: the row and the bytes survive a crash together, at the cost of one database commit
// shared by every upload of a group commit instead of two fsyncs per upload. The flush makes a
// page of files durable at once (one flush of the filesystem) and then drops their entries. It
// waits until entries are SETTLE_AFTER_MS old: by then the kernel's own writeback (dirty pages
// expire after 30 s) has put the bytes on disk and the flush has little left to write. At
// start-up every entry is checked against its file, and a file lost or torn by a crash is
// written again from the entry.
import { BlobJournalRepository } from './journal.repository.js';
import type { BlobStore } from './blobs.js';
import type { ClipDb } from '../schema/database.js';

/** Entries younger than this wait for the kernel's writeback before the flush makes them durable. */
export const SETTLE_AFTER_MS = 35_000;
const FLUSH_EVERY_MS = 5_000;
/** Journaled bytes past this are flushed without waiting: the database should not grow with them. */
export const JOURNAL_BUDGET_BYTES = 64 * 1024 * 1024;
const PAGE = 500;

/** Which of these content hashes some clip row refers to. */
type ReferencedAmong = (hashes: readonly string[]) => Promise<Set<string>>;

export class BlobJournal {
  private readonly repo: BlobJournalRepository;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    db: ClipDb,
    private readonly blobs: BlobStore,
    private readonly referencedAmong: ReferencedAmong,
    private readonly log: (msg: string) => void = console.error,
  ) {
    this.repo = new BlobJournalRepository(db);
  }

  /**
   * Makes the files of due entries durable and drops the entries; answers how many went.
   * `all` takes every entry whatever its age (start-up, shutdown); `verify` compares each file
   * with its entry first (start-up: the files of a crashed process may be missing or torn).
   */
  flush(options: { all?: boolean; verify?: boolean } = {}): Promise<number> {
    // One flush at a time: a timer tick during a shutdown flush runs after it.
    const run = this.queue.then(() => this.flushOnce(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(options: { all?: boolean; verify?: boolean }): Promise<number> {
    const urgent = options.all || this.blobs.journaledBytes > JOURNAL_BUDGET_BYTES;
    const before = urgent ? Number.MAX_SAFE_INTEGER : Date.now() - SETTLE_AFTER_MS;
    let settled = 0;
    for (let after = ''; ; ) {
      const page = await this.repo.due(before, after, PAGE);
      if (page.length === 0) return settled;
      // Content no clip refers to any more needs nothing: its file is the collector's (or
      // reconciliation's) to remove. A referenced file that is missing, or after a crash
      // differs from its entry, is written again.
      const referenced = await this.referencedAmong(page.map((e) => e.hash));
      const kept = page.filter((e) => referenced.has(e.hash));
      for (const { hash } of kept) {
        if (this.blobs.exists(hash) && !options.verify) continue;
        const entry = await this.repo.entry(hash);
        if (entry && !(await this.blobs.holdsExactly(hash, entry.bytes))) await this.blobs.rewrite(hash, entry.bytes);
      }
      await this.blobs.makeDurable(kept.map((e) => e.hash));
      // As read: an entry journaled again meanwhile (a newer time) waits for the next flush.
      await this.repo.remove(page);
      settled += page.length;
      // What the budget counts is what is still journaled (an estimate: never below nothing).
      this.blobs.journaledBytes = Math.max(0, this.blobs.journaledBytes - page.reduce((sum, e) => sum + e.size, 0));
      after = page[page.length - 1].hash;
    }
  }

  /** Flushes due entries every few seconds until `stop`. */
  start(): void {
    this.timer ??= setInterval(() => {
      this.flush().catch((e: unknown) => this.log(`blob journal flush failed: ${e instanceof Error ? e.message : String(e)}`));
    }, FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and flushes every entry: a clean shutdown leaves the journal empty. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush({ all: true });
  }
}
