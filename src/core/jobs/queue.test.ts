import { afterEach, describe, expect, it, vi } from 'vitest';
import { toHttpError } from '../http/server.js';
import { JobQueue, JobStateError, QueueFullError, type JobAdmission, type JobContext, type QueueEvent } from './queue.js';

/** A job kind whose runs wait until the test releases or fails them. */
function controllable() {
  const runs: { payload: unknown; ctx: JobContext; release: () => void; fail: (e: Error) => void }[] = [];
  const kind = {
    pausable: true,
    runningStatus: 'downloading' as const,
    run: (payload: unknown, ctx: JobContext) =>
      new Promise<{ resourceId: number }>((resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
        runs.push({ payload, ctx, release: () => resolve({ resourceId: 7 }), fail: reject });
      }),
  };
  return { kind, runs };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('job queue', () => {
  it('runs jobs through downloading to completed, one slot each', async () => {
    const { kind, runs } = controllable();
    const terminal: string[] = [];
    const q = new JobQueue({ concurrency: 1, onTerminal: (j) => void terminal.push(`${j.id}:${j.status}`) });
    q.registerKind('download', kind);
    const a = q.submit('download', { url: 'u1', ownerId: null, payload: 1 });
    const b = q.submit('download', { url: 'u2', ownerId: null, payload: 2 });
    expect(q.get(a.id)?.status).toBe('downloading');
    expect(q.get(b.id)?.status).toBe('pending');
    runs[0].release();
    await tick();
    await tick();
    expect(q.get(a.id)).toMatchObject({ status: 'completed', resourceId: 7 });
    expect(q.get(b.id)?.status).toBe('downloading');
    runs[1].fail(new Error('HTTP 404: Not Found'));
    await tick();
    await tick();
    expect(q.get(b.id)).toMatchObject({ status: 'failed', error: 'HTTP 404: Not Found' });
    expect(terminal).toEqual([`${a.id}:completed`, `${b.id}:failed`]);
    expect(a.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('cancels, pauses, resumes and retries by the state table, refusing the rest', async () => {
    const { kind, runs } = controllable();
    const q = new JobQueue({ concurrency: 2 });
    q.registerKind('download', kind);
    const a = q.submit('download', { ownerId: null, payload: 'a' });
    q.pause(a.id);
    expect(q.get(a.id)?.status).toBe('paused');
    expect(runs[0].ctx.signal.aborted).toBe(true);
    expect(() => q.pause(a.id)).toThrow(JobStateError);
    q.resume(a.id);
    expect(q.get(a.id)?.status).toBe('downloading');
    expect(runs).toHaveLength(2);
    q.cancel(a.id);
    expect(q.get(a.id)).toMatchObject({ status: 'cancelled', error: 'Download cancelled' });
    expect(() => q.cancel(a.id)).toThrow(/cannot be cancelled/);
    expect(() => q.resume(a.id)).toThrow(JobStateError);
    q.retry(a.id);
    // The stopped runs give their slots back once they have wound down.
    await tick();
    expect(q.get(a.id)?.status).toBe('downloading');
    runs[2].release();
    await tick();
    await tick();
    expect(q.get(a.id)?.status).toBe('completed');
    expect(() => q.retry(a.id)).toThrow(/cannot be retried/);
    expect(() => q.cancel('nope')).toThrow(/not found/);
  });

  it('never lets a stopped run overwrite the state a control set', async () => {
    const { kind, runs } = controllable();
    const q = new JobQueue();
    q.registerKind('download', kind);
    const a = q.submit('download', { ownerId: null, payload: 0 });
    q.pause(a.id);
    runs[0].release(); // the old run finishing late must not complete the paused job
    await tick();
    expect(q.get(a.id)?.status).toBe('paused');
  });

  it('refuses to pause kinds that cannot be paused', () => {
    const q = new JobQueue();
    q.registerKind('export', { pausable: false, runningStatus: 'processing', run: () => new Promise(() => undefined) });
    const j = q.submit('export', { ownerId: null, payload: null });
    expect(q.get(j.id)?.status).toBe('processing');
    expect(() => q.pause(j.id)).toThrow(/cannot be paused/);
    q.cancel(j.id);
    expect(q.get(j.id)).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
  });

  it('evicts the oldest completed job when full, and refuses when everything is active', async () => {
    const { kind, runs } = controllable();
    const q = new JobQueue({ capacity: 2, concurrency: 5 });
    q.registerKind('download', kind);
    const a = q.submit('download', { ownerId: null, payload: 0 });
    const b = q.submit('download', { ownerId: null, payload: 0 });
    expect(() => q.submit('download', { ownerId: null, payload: 0 })).toThrow(QueueFullError);
    runs[0].release();
    await tick();
    await tick();
    const c = q.submit('download', { ownerId: null, payload: 0 });
    expect(q.get(a.id)).toBeUndefined();
    expect(q.list().map((j) => j.id)).toEqual([b.id, c.id]);
  });

  it('maps a full queue to 503 and a refused control to 409 in the one HTTP error mapping', () => {
    const q = new JobQueue({ capacity: 1, concurrency: 1 });
    q.registerKind('download', controllable().kind);
    const a = q.submit('download', { ownerId: null, payload: 0 });
    const refusals = [() => q.submit('download', { ownerId: null, payload: 0 }), () => q.resume(a.id)];
    const answers = refusals.map((refuse) => {
      try {
        refuse();
      } catch (e) {
        const http = toHttpError(e);
        return { status: http.status, error: http.message };
      }
      return null;
    });
    expect(answers).toEqual([
      { status: 503, error: 'download queue is full (max 1 jobs) - all jobs are active or paused' },
      { status: 409, error: `job ${a.id} cannot be resumed (status: downloading)` },
    ]);
  });

  it('sweeps finished jobs after an hour and paused ones after a day, announcing removals', async () => {
    let now = 1_000_000;
    const { kind, runs } = controllable();
    const q = new JobQueue({ now: () => now });
    q.registerKind('download', kind);
    const events: QueueEvent[] = [];
    q.subscribe((e) => events.push(e));
    const done = q.submit('download', { ownerId: null, payload: 0 });
    const paused = q.submit('download', { ownerId: null, payload: 0 });
    runs[0].release();
    await tick();
    await tick();
    q.pause(paused.id);
    now += 3_600_001;
    q.sweep();
    expect(q.get(done.id)).toBeUndefined();
    expect(q.get(paused.id)?.status).toBe('paused');
    now += 24 * 3_600_000;
    q.sweep();
    expect(q.list()).toEqual([]);
    expect(events.filter((e) => e.type === 'removed').map((e) => e.job.id)).toEqual([done.id, paused.id]);
  });

  it('throttles progress events but always sends the final state', async () => {
    let now = 0;
    const { kind, runs } = controllable();
    const q = new JobQueue({ now: () => now, progressIntervalMs: 500 });
    q.registerKind('download', kind);
    const events: QueueEvent[] = [];
    q.subscribe((e) => events.push(e));
    const j = q.submit('download', { ownerId: null, payload: 0 });
    const before = events.length;
    for (let i = 1; i <= 50; i++) runs[0].ctx.progress(i * 10, 1000);
    expect(events.length - before).toBe(0);
    now = 600;
    runs[0].ctx.progress(600, 1000);
    expect(events.length - before).toBe(1);
    expect(events.at(-1)?.job).toMatchObject({ progress: 600, totalSize: 1000, progressPercent: 60 });
    runs[0].ctx.progress(1000, 1000);
    expect(events.at(-1)?.job.progressPercent).toBe(100);
    expect(q.get(j.id)?.progress).toBe(1000);
  });

  it('clears only visible finished jobs and reports shutdown cancellations', async () => {
    const { kind, runs } = controllable();
    const terminal: string[] = [];
    const q = new JobQueue({ onTerminal: (j) => void terminal.push(j.error ?? '') });
    q.registerKind('download', kind);
    const mine = q.submit('download', { ownerId: 1, payload: 0 });
    const theirs = q.submit('download', { ownerId: 2, payload: 0 });
    runs[0].release();
    runs[1].release();
    await tick();
    await tick();
    expect(q.clearCompleted((owner) => owner === 1)).toEqual([mine.id]);
    expect(q.list().map((j) => j.id)).toEqual([theirs.id]);
    q.submit('download', { ownerId: 1, payload: 0 });
    await q.close();
    expect(terminal.at(-1)).toBe('Cancelled at shutdown');
  });
});

/**
 * An admission that holds payloads named in `waits` back that many ms (Infinity: until a release),
 * counting admits and releases.
 */
function gate(waits: Map<unknown, number>) {
  const log: string[] = [];
  const admission: JobAdmission = {
    waitMs: (payload) => waits.get(payload) ?? 0,
    admit: (payload) => {
      log.push(`admit ${String(payload)}`);
      return () => void log.push(`release ${String(payload)}`);
    },
  };
  return { admission, log };
}

describe('job queue admission', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const flush = () => vi.advanceTimersByTimeAsync(0);

  it('keeps a held-back job pending without a slot, and starts the job behind it', () => {
    vi.useFakeTimers();
    const { kind, runs } = controllable();
    const { admission, log } = gate(new Map([['held', 5000]]));
    const q = new JobQueue({ concurrency: 1 });
    q.registerKind('download', { ...kind, admission });
    const held = q.submit('download', { ownerId: null, payload: 'held' });
    const free = q.submit('download', { ownerId: null, payload: 'free' });
    expect(q.get(held.id)?.status).toBe('pending');
    expect(q.get(free.id)?.status).toBe('downloading');
    expect(runs.map((r) => r.payload)).toEqual(['free']);
    expect(log).toEqual(['admit free']);
  });

  it('wakes once the wait is over, without polling in between', async () => {
    vi.useFakeTimers();
    const waits = new Map<unknown, number>([['held', 5000]]);
    const { kind, runs } = controllable();
    const { admission } = gate(waits);
    const asked = vi.spyOn(admission, 'waitMs');
    const q = new JobQueue({ concurrency: 2 });
    q.registerKind('download', { ...kind, admission });
    const held = q.submit('download', { ownerId: null, payload: 'held' });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(asked).toHaveBeenCalledTimes(1);
    waits.delete('held');
    await vi.advanceTimersByTimeAsync(1);
    expect(q.get(held.id)?.status).toBe('downloading');
    expect(runs).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('re-asks a job waiting for a release when a run ends, and releases each run once', async () => {
    vi.useFakeTimers();
    const waits = new Map<unknown, number>();
    const { kind, runs } = controllable();
    const { admission, log } = gate(waits);
    const q = new JobQueue({ concurrency: 3 });
    q.registerKind('download', { ...kind, admission });
    const first = q.submit('download', { ownerId: null, payload: 'a' });
    waits.set('b', Infinity);
    const second = q.submit('download', { ownerId: null, payload: 'b' });
    expect(q.get(second.id)?.status).toBe('pending');
    expect(vi.getTimerCount()).toBe(0);
    waits.delete('b');
    q.pause(first.id);
    await flush();
    expect(q.get(second.id)?.status).toBe('downloading');
    expect(log).toEqual(['admit a', 'release a', 'admit b']);
    runs[1].release();
    await flush();
    expect(log.at(-1)).toBe('release b');
  });

  it('cancels a waiting job, and close leaves no wake-up timer behind', async () => {
    vi.useFakeTimers();
    const { kind, runs } = controllable();
    const { admission, log } = gate(new Map([['held', 60_000]]));
    const q = new JobQueue();
    q.registerKind('download', { ...kind, admission });
    const held = q.submit('download', { ownerId: null, payload: 'held' });
    q.cancel(held.id);
    expect(q.get(held.id)).toMatchObject({ status: 'cancelled', error: 'Cancelled before starting' });
    q.submit('download', { ownerId: null, payload: 'other' });
    q.submit('download', { ownerId: null, payload: 'held' });
    expect(vi.getTimerCount()).toBe(1);
    const closing = q.close();
    await vi.advanceTimersByTimeAsync(100);
    await closing;
    // The wake-up for the held job (due in a minute) went with the queue.
    expect(vi.getTimerCount()).toBe(0);
    expect(runs.map((r) => r.payload)).toEqual(['other']);
    expect(log).toEqual(['admit other', 'release other']);
  });
});
