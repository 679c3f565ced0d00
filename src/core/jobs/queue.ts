// The in-memory job queue (companion §7.1, §7.2): a bounded list of jobs of several kinds
// sharing one pool of worker slots, with the download state machine, retention, and events for
// the live stream. Kinds plug in a runner; the queue owns states, slots and bookkeeping.
import { randomBytes } from 'node:crypto';
import { HttpError } from '../http/errors.js';
import type { DomainError } from '../http/server.js';

export type JobStatus = 'pending' | 'downloading' | 'processing' | 'paused' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled']);

export interface JobSnapshot {
  id: string;
  url: string;
  status: JobStatus;
  progress: number;
  totalSize: number;
  progressPercent: number;
  error?: string;
  resourceId?: number;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  source: string;
  phase?: string;
  phaseCount?: number;
  phaseTotal?: number;
  resultPath?: string;
  warnings?: string[];
}

/** What a runner reports while it works. */
export interface JobContext {
  readonly signal: AbortSignal;
  /** Bytes or items done, and the total when known. */
  progress(done: number, total?: number): void;
  phase(name: string, count?: number, total?: number): void;
  warn(message: string): void;
  /** Downloads move from downloading to processing once the bytes are in. */
  processing(): void;
}

export interface JobResult {
  resourceId?: number;
  resultPath?: string;
}

export interface JobKind<P = unknown> {
  /** Downloads can be paused; generic jobs cannot. */
  pausable: boolean;
  /** The status a job takes when it gets a slot. */
  runningStatus: 'downloading' | 'processing';
  run(payload: P, ctx: JobContext, job: JobSnapshot): Promise<JobResult>;
  /** Holds pending jobs of this kind back without giving them a slot (a plugin's download_limits). */
  admission?: JobAdmission<P>;
}

/**
 * Decides when a pending job may take a worker slot. The queue asks whenever it looks for work;
 * a job told to wait stays pending, holds no slot, and does not hold back the jobs behind it.
 */
export interface JobAdmission<P = unknown> {
  /** Milliseconds until the job may start: 0 now, Infinity until a run ends (every run's end re-asks). */
  waitMs(payload: P): number;
  /** The job takes a slot now; the returned release is called once its run has ended. */
  admit(payload: P): () => void;
}

/** The longest delay setTimeout honours; a longer wait is re-asked when it fires. */
const MAX_TIMER_MS = 2_147_483_647;

export type QueueEvent = { type: 'added' | 'updated' | 'removed'; job: JobSnapshot; ownerId: number | null };

/** No slot and no finished job to evict: 503, mapped by the HTTP error handler. */
export class QueueFullError extends Error implements DomainError {
  constructor(capacity: number) {
    super(`download queue is full (max ${capacity} jobs) - all jobs are active or paused`);
  }

  toHttpError(): HttpError {
    return new HttpError(503, this.message);
  }
}

/** A control that the job's state does not allow: 409, mapped by the HTTP error handler. */
export class JobStateError extends Error implements DomainError {
  toHttpError(): HttpError {
    return new HttpError(409, this.message);
  }
}

interface Job {
  snap: JobSnapshot;
  ownerId: number | null;
  payload: unknown;
  /** Set while a run owns the job; a control that stops the run detaches it first. */
  abort?: AbortController;
  pausedAt?: number;
  completedAtMs?: number;
  lastEmit: number;
  emitTimer?: NodeJS.Timeout;
}

export interface QueueOptions {
  capacity?: number;
  concurrency?: number;
  /** Finished jobs stay listed this long (1 hour). */
  retentionMs?: number;
  /** Paused jobs stay this long (24 hours). */
  pausedRetentionMs?: number;
  /** Progress events per job at most this often (500 ms). */
  progressIntervalMs?: number;
  /** Called once per terminal transition (download history, plugins). */
  onTerminal?: (job: JobSnapshot, ownerId: number | null, payload: unknown) => void | Promise<void>;
  now?: () => number;
}

export class JobQueue {
  private readonly jobs = new Map<string, Job>();
  private readonly kinds = new Map<string, JobKind>();
  private readonly listeners = new Set<(e: QueueEvent) => void>();
  private running = 0;
  private readonly capacity: number;
  private readonly concurrency: number;
  private readonly retentionMs: number;
  private readonly pausedRetentionMs: number;
  private readonly progressIntervalMs: number;
  private readonly now: () => number;
  private closed = false;
  /** Wakes the queue when the first job held back by an admission may start. */
  private wakeTimer?: NodeJS.Timeout;
  private readonly bookkeeping = new Set<Promise<void>>();

  constructor(private readonly options: QueueOptions = {}) {
    this.capacity = options.capacity ?? 100;
    this.concurrency = options.concurrency ?? 6;
    this.retentionMs = options.retentionMs ?? 3_600_000;
    this.pausedRetentionMs = options.pausedRetentionMs ?? 24 * 3_600_000;
    this.progressIntervalMs = options.progressIntervalMs ?? 500;
    this.now = options.now ?? Date.now;
  }

  registerKind<P>(source: string, kind: JobKind<P>): void {
    this.kinds.set(source, kind as JobKind);
  }

  subscribe(listener: (e: QueueEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live subscriptions (event-stream clients); a disconnected client must not stay counted. */
  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Jobs in submission order; `visible` decides which a caller may see. */
  list(visible: (ownerId: number | null) => boolean = () => true): JobSnapshot[] {
    return [...this.jobs.values()].filter((j) => visible(j.ownerId)).map((j) => ({ ...j.snap }));
  }

  get(id: string, visible: (ownerId: number | null) => boolean = () => true): JobSnapshot | undefined {
    const j = this.jobs.get(id);
    return j && visible(j.ownerId) ? { ...j.snap } : undefined;
  }

  ownerOf(id: string): number | null | undefined {
    return this.jobs.get(id)?.ownerId;
  }

  payloadOf(id: string): unknown {
    return this.jobs.get(id)?.payload;
  }

  /** Whether `n` more jobs fit, counting finished jobs that would be evicted. */
  canAccept(n: number): boolean {
    const active = [...this.jobs.values()].filter((j) => !TERMINAL.has(j.snap.status)).length;
    return active + n <= this.capacity;
  }

  get capacityLimit(): number {
    return this.capacity;
  }

  /** Queues a job; evicts the oldest finished job when full, else throws QueueFullError. */
  submit(source: string, init: { url?: string; ownerId: number | null; payload: unknown }): JobSnapshot {
    if (!this.kinds.has(source)) throw new Error(`no job kind ${source}`);
    if (this.jobs.size >= this.capacity) this.evictOne();
    const snap: JobSnapshot = {
      id: randomBytes(8).toString('hex'),
      url: init.url ?? '',
      status: 'pending',
      progress: 0,
      totalSize: -1,
      progressPercent: -1,
      createdAt: new Date(this.now()).toISOString(),
      source,
    };
    const job: Job = { snap, ownerId: init.ownerId, payload: init.payload, lastEmit: 0 };
    this.jobs.set(snap.id, job);
    this.emit('added', job);
    this.pump();
    return { ...snap };
  }

  /** Completed jobs go first, then failed or cancelled ones; active and paused never. */
  private evictOne(): void {
    const finished = [...this.jobs.values()].filter((j) => TERMINAL.has(j.snap.status));
    const victim = finished.find((j) => j.snap.status === 'completed') ?? finished[0];
    if (!victim) throw new QueueFullError(this.capacity);
    this.remove(victim);
  }

  cancel(id: string): void {
    const j = this.require(id);
    const s = j.snap.status;
    if (TERMINAL.has(s)) throw new JobStateError(`job ${id} cannot be cancelled (status: ${s})`);
    this.detach(j);
    const message = s === 'pending' ? 'Cancelled before starting' : j.snap.source === 'download' ? 'Download cancelled' : 'Cancelled';
    this.finish(j, 'cancelled', { error: message });
  }

  /** Stops a running job's work; its runner's outcome is ignored from then on. */
  private detach(j: Job): void {
    j.abort?.abort();
    j.abort = undefined;
  }

  pause(id: string): void {
    const j = this.require(id);
    const kind = this.kinds.get(j.snap.source)!;
    const s = j.snap.status;
    if (!kind.pausable || (s !== 'pending' && s !== 'downloading')) throw new JobStateError(`job ${id} cannot be paused (status: ${s})`);
    this.detach(j);
    this.toPaused(j);
  }

  /** A paused download starts over from byte 0. */
  resume(id: string): void {
    const j = this.require(id);
    if (j.snap.status !== 'paused') throw new JobStateError(`job ${id} cannot be resumed (status: ${j.snap.status})`);
    this.reset(j);
  }

  retry(id: string): void {
    const j = this.require(id);
    const s = j.snap.status;
    if (s !== 'failed' && s !== 'cancelled') throw new JobStateError(`job ${id} cannot be retried (status: ${s})`);
    this.reset(j);
  }

  /** Removes every finished job the caller can see; returns their ids. */
  clearCompleted(visible: (ownerId: number | null) => boolean = () => true): string[] {
    const done = [...this.jobs.values()].filter((j) => TERMINAL.has(j.snap.status) && visible(j.ownerId));
    for (const j of done) this.remove(j);
    return done.map((j) => j.snap.id);
  }

  /** Drops a finished job (history delete removes its queue entry too). */
  removeFinished(id: string): boolean {
    const j = this.jobs.get(id);
    if (!j || !TERMINAL.has(j.snap.status)) return false;
    this.remove(j);
    return true;
  }

  /** Removes finished jobs past retention and paused jobs paused too long. */
  sweep(): void {
    const now = this.now();
    for (const j of [...this.jobs.values()]) {
      if (TERMINAL.has(j.snap.status) && j.completedAtMs !== undefined && now - j.completedAtMs > this.retentionMs) this.remove(j);
      else if (j.snap.status === 'paused' && j.pausedAt !== undefined && now - j.pausedAt > this.pausedRetentionMs) this.remove(j);
    }
  }

  get activeCount(): number {
    return this.running;
  }

  /** Stops taking work and cancels what runs; jobs still active are reported as cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.wakeTimer);
    for (const j of this.jobs.values()) {
      if (TERMINAL.has(j.snap.status)) continue;
      this.detach(j);
      this.finish(j, 'cancelled', { error: 'Cancelled at shutdown' });
    }
    const deadline = Date.now() + 5000;
    while (this.running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await Promise.allSettled([...this.bookkeeping]);
  }

  private require(id: string): Job {
    const j = this.jobs.get(id);
    if (!j) throw new JobStateError(`job ${id} not found`);
    return j;
  }

  private reset(j: Job): void {
    const s = j.snap;
    j.snap = { id: s.id, url: s.url, status: 'pending', progress: 0, totalSize: -1, progressPercent: -1, createdAt: s.createdAt, source: s.source };
    j.completedAtMs = undefined;
    j.pausedAt = undefined;
    this.emit('updated', j);
    this.pump();
  }

  private toPaused(j: Job): void {
    j.snap = { ...j.snap, status: 'paused', error: undefined, progress: 0, progressPercent: j.snap.totalSize > 0 ? 0 : -1 };
    j.pausedAt = this.now();
    this.emit('updated', j);
  }

  private remove(j: Job): void {
    clearTimeout(j.emitTimer);
    this.jobs.delete(j.snap.id);
    this.emit('removed', j);
  }

  private emit(type: QueueEvent['type'], j: Job): void {
    clearTimeout(j.emitTimer);
    j.emitTimer = undefined;
    j.lastEmit = this.now();
    const event = { type, job: { ...j.snap }, ownerId: j.ownerId };
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        /* a broken listener must not stop the queue */
      }
    }
  }

  /** Progress updates at most every interval per job; the last one is never lost. */
  private emitProgress(j: Job): void {
    const wait = this.progressIntervalMs - (this.now() - j.lastEmit);
    if (wait <= 0 || j.snap.progress === j.snap.totalSize) return this.emit('updated', j);
    j.emitTimer ??= setTimeout(() => {
      if (this.jobs.get(j.snap.id) === j) this.emit('updated', j);
    }, wait);
  }

  private finish(j: Job, status: 'completed' | 'failed' | 'cancelled', extra: Partial<JobSnapshot>): void {
    j.completedAtMs = this.now();
    j.snap = { ...j.snap, ...extra, status, completedAt: new Date(j.completedAtMs).toISOString() };
    this.emit('updated', j);
    const done = { ...j.snap };
    const work = Promise.resolve()
      .then(() => this.options.onTerminal?.(done, j.ownerId, j.payload))
      .catch((e: unknown) => console.error('job bookkeeping failed:', e));
    this.bookkeeping.add(work);
    void work.finally(() => this.bookkeeping.delete(work));
  }

  /** Starts pending jobs in submission order while slots are free, skipping those held back. */
  private pump(): void {
    if (this.closed) return;
    let wake = Infinity;
    for (const j of this.jobs.values()) {
      if (this.running >= this.concurrency) break;
      if (j.snap.status !== 'pending' || j.abort) continue;
      const admission = this.kinds.get(j.snap.source)!.admission;
      const wait = admission ? admission.waitMs(j.payload) : 0;
      if (wait > 0) {
        wake = Math.min(wake, wait);
        continue;
      }
      void this.start(j, admission?.admit(j.payload));
    }
    this.wakeIn(wake);
  }

  /**
   * One timer for the earliest held-back job; an Infinity wait needs none (the run it waits for
   * pumps when it ends). A stale timer only causes a pump that finds nothing to do.
   */
  private wakeIn(ms: number): void {
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (ms === Infinity) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, Math.min(Math.ceil(ms), MAX_TIMER_MS));
  }

  private async start(j: Job, release?: () => void): Promise<void> {
    const kind = this.kinds.get(j.snap.source)!;
    const abort = new AbortController();
    j.abort = abort;
    this.running++;
    j.snap = { ...j.snap, status: kind.runningStatus, startedAt: new Date(this.now()).toISOString() };
    this.emit('updated', j);
    const mine = () => this.jobs.get(j.snap.id) === j && j.abort === abort;
    const ctx: JobContext = {
      signal: abort.signal,
      progress: (done, total) => {
        if (!mine()) return;
        const totalSize = total !== undefined && total >= 0 ? total : j.snap.totalSize;
        j.snap = { ...j.snap, progress: done, totalSize, progressPercent: totalSize > 0 ? (done / totalSize) * 100 : -1 };
        this.emitProgress(j);
      },
      phase: (name, count, total) => {
        if (!mine()) return;
        j.snap = { ...j.snap, phase: name, phaseCount: count, phaseTotal: total };
        this.emitProgress(j);
      },
      warn: (message) => {
        if (mine()) j.snap = { ...j.snap, warnings: [...(j.snap.warnings ?? []), message] };
      },
      processing: () => {
        if (!mine()) return;
        j.snap = { ...j.snap, status: 'processing' };
        this.emit('updated', j);
      },
    };
    try {
      const result = await kind.run(j.payload, ctx, { ...j.snap });
      if (mine()) this.finish(j, 'completed', { ...result, error: undefined });
    } catch (e) {
      if (mine()) this.finish(j, 'failed', { error: (e as Error).message || String(e) });
    } finally {
      this.running--;
      release?.();
      if (j.abort === abort) j.abort = undefined;
      this.pump();
    }
  }
}
