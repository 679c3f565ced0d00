// Group commit of directory fsyncs. A file renamed into a directory is durable only once an
// fsync of that directory has run *after* the rename; concurrent placements into one directory
// can share such an fsync instead of queueing one each on libuv's thread pool.
//
// The rule: a caller joins an fsync only if it has not started yet. When one is already running
// it may have begun before the caller's rename, so it proves nothing for that caller: the caller
// waits for the next fsync, which starts when the running one has ended and serves everyone
// who arrived meanwhile. So at most two fsyncs of a directory are ever pending, however many
// placements wait for it, and every caller is answered by an fsync that began after it asked.

export type SyncDirectory = (dir: string) => Promise<void>;

interface Pending {
  /** The fsync under way (it may have started before a newcomer's rename). */
  running: Promise<void>;
  /** The fsync that starts when `running` ends, shared by every caller that arrived meanwhile. */
  next: Promise<void> | null;
}

const ignore = () => undefined;

export class DirectorySyncs {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly fsyncDirectory: SyncDirectory) {}

  /**
   * Resolves after an fsync of `dir` that started after this call (rejects with its error).
   * Call it once the rename it must make durable has completed.
   */
  sync(dir: string): Promise<void> {
    const p = this.pending.get(dir);
    if (p === undefined) return this.begin(dir);
    p.next ??= p.running.then(ignore, ignore).then(() => this.begin(dir));
    return p.next;
  }

  /** Directories with an fsync under way (tests). */
  get busy(): number {
    return this.pending.size;
  }

  private begin(dir: string): Promise<void> {
    // Callers arriving from now on cannot rely on this fsync: they start `next` again.
    const running = this.fsyncDirectory(dir);
    const p = this.pending.get(dir);
    if (p) {
      p.running = running;
      p.next = null;
    } else {
      this.pending.set(dir, { running, next: null });
    }
    void running.then(ignore, ignore).then(() => {
      const now = this.pending.get(dir);
      if (now && now.running === running && now.next === null) this.pending.delete(dir);
    });
    return running;
  }
}
