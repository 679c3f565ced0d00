// Action jobs (library-plugins.md §17.6): async action runs, mah.start_job functions and
// schedule runs. They live in memory only (not in the download queue), share three run slots
// across all plugins, and reach clients through the action_* events of /v1/jobs/events.
import { randomBytes } from 'node:crypto';

export type ActionJobStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface ActionJobJson {
  id: string;
  source: 'plugin';
  pluginName: string;
  actionId: string;
  label: string;
  entityId: number;
  entityType: string;
  status: ActionJobStatus;
  progress: number;
  message: string;
  result?: Record<string, unknown>;
  createdAt: string;
}

export type ActionJobEvent = { type: 'action_added' | 'action_updated' | 'action_removed'; job: ActionJobJson; ownerId: number | null };

interface Entry {
  job: ActionJobJson;
  ownerId: number | null;
  createdMs: number;
  lastEmit: number;
  emitTimer?: NodeJS.Timeout;
}

export const ACTION_JOB_SLOTS = 3;
const RETENTION_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 5 * 60 * 1000;
const PROGRESS_INTERVAL_MS = 200;

/** A slot waiter; resolved with true when it got a slot, false when it gave up. */
interface Waiter {
  grant: () => void;
}

export class ActionJobStore {
  private readonly jobs = new Map<string, Entry>();
  private readonly listeners = new Set<(e: ActionJobEvent) => void>();
  private readonly waiters: Waiter[] = [];
  private running = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  subscribe(listener: (e: ActionJobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(visible: (ownerId: number | null) => boolean = () => true): ActionJobJson[] {
    return [...this.jobs.values()].filter((e) => visible(e.ownerId)).map((e) => copy(e.job));
  }

  get(id: string, visible: (ownerId: number | null) => boolean = () => true): ActionJobJson | undefined {
    const e = this.jobs.get(id);
    return e && visible(e.ownerId) ? copy(e.job) : undefined;
  }

  pluginOf(id: string): string | undefined {
    return this.jobs.get(id)?.job.pluginName;
  }

  statusOf(id: string): ActionJobStatus | undefined {
    return this.jobs.get(id)?.job.status;
  }

  create(init: { pluginName: string; actionId: string; label: string; entityId: number; entityType: string; ownerId: number | null }): ActionJobJson {
    const job: ActionJobJson = {
      id: randomBytes(8).toString('hex'),
      source: 'plugin',
      pluginName: init.pluginName,
      actionId: init.actionId,
      label: init.label,
      entityId: init.entityId,
      entityType: init.entityType,
      status: 'pending',
      progress: 0,
      message: 'Waiting to start...',
      createdAt: new Date(this.now()).toISOString(),
    };
    const entry: Entry = { job, ownerId: init.ownerId, createdMs: this.now(), lastEmit: 0 };
    this.jobs.set(job.id, entry);
    this.emit('action_added', entry);
    return copy(job);
  }

  /**
   * Waits for one of the shared run slots (FIFO). With a timeout it gives up after that long
   * and answers false; the caller must call `releaseSlot` after a true answer.
   */
  acquireSlot(timeoutMs?: number): Promise<boolean> {
    if (this.running < ACTION_JOB_SLOTS && this.waiters.length === 0) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) {
            this.waiters.splice(at, 1);
            resolve(false);
          }
        }, timeoutMs);
      }
    });
  }

  releaseSlot(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.running--;
  }

  /** pending → running with "Running...". */
  start(id: string): void {
    const e = this.jobs.get(id);
    if (!e || e.job.status !== 'pending') return;
    e.job = { ...e.job, status: 'running', message: 'Running...' };
    this.emit('action_updated', e);
  }

  progress(id: string, percent: number, message: string): void {
    const e = this.jobs.get(id);
    if (!e) return;
    e.job = { ...e.job, progress: percent, message };
    this.emitProgress(e);
  }

  complete(id: string, result?: Record<string, unknown>): void {
    const e = this.jobs.get(id);
    if (!e) return;
    const message = typeof result?.message === 'string' ? result.message : 'Completed';
    e.job = { ...e.job, status: 'completed', progress: 100, message };
    if (result !== undefined) e.job.result = result;
    this.emit('action_updated', e);
  }

  fail(id: string, message: string): void {
    const e = this.jobs.get(id);
    if (!e) return;
    e.job = { ...e.job, status: 'failed', message };
    this.emit('action_updated', e);
  }

  /** Whether the job reached completed or failed. */
  finished(id: string): boolean {
    const s = this.jobs.get(id)?.job.status;
    return s === 'completed' || s === 'failed';
  }

  remove(id: string): void {
    const e = this.jobs.get(id);
    if (!e) return;
    clearTimeout(e.emitTimer);
    this.jobs.delete(id);
    this.emit('action_removed', e);
  }

  /** Removes the finished jobs the caller can see; returns their ids. */
  clearCompleted(visible: (ownerId: number | null) => boolean): string[] {
    const done = [...this.jobs.values()].filter((e) => (e.job.status === 'completed' || e.job.status === 'failed') && visible(e.ownerId));
    for (const e of done) this.remove(e.job.id);
    return done.map((e) => e.job.id);
  }

  /** Finished jobs go one hour after they were created. */
  sweep(): void {
    const now = this.now();
    for (const e of [...this.jobs.values()]) {
      if ((e.job.status === 'completed' || e.job.status === 'failed') && now - e.createdMs >= RETENTION_MS) this.remove(e.job.id);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const e of this.jobs.values()) clearTimeout(e.emitTimer);
  }

  private emit(type: ActionJobEvent['type'], e: Entry): void {
    clearTimeout(e.emitTimer);
    e.emitTimer = undefined;
    e.lastEmit = this.now();
    const event: ActionJobEvent = { type, job: copy(e.job), ownerId: e.ownerId };
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        /* one broken listener must not stop the others */
      }
    }
  }

  /** Progress at most every 200 ms per job, always at 100; the latest value is never lost. */
  private emitProgress(e: Entry): void {
    const wait = PROGRESS_INTERVAL_MS - (this.now() - e.lastEmit);
    if (wait <= 0 || e.job.progress >= 100) return this.emit('action_updated', e);
    e.emitTimer ??= setTimeout(() => {
      if (this.jobs.get(e.job.id) === e) this.emit('action_updated', e);
    }, wait);
    e.emitTimer.unref();
  }
}

function copy(job: ActionJobJson): ActionJobJson {
  return job.result === undefined ? { ...job } : { ...job, result: { ...job.result } };
}
