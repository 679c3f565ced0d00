// The group commit of directory fsyncs (renameDurably in both services): a caller is answered
// only by an fsync that began after it asked, and concurrent callers share fsyncs.
import { describe, expect, it } from 'vitest';
import { DirectorySyncs } from './dir-sync.js';

/** An fsync stand-in that each test finishes by hand, recording when each one started. */
function manualFsync() {
  const started: { dir: string; finish: (error?: Error) => void }[] = [];
  const fsync = (dir: string) =>
    new Promise<void>((resolve, reject) => {
      started.push({ dir, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { started, fsync };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

function tracked(p: Promise<void>) {
  const state = { done: false, error: undefined as unknown };
  p.then(
    () => (state.done = true),
    (e: unknown) => ((state.done = true), (state.error = e)),
  );
  return state;
}

describe('directory fsync group commit', () => {
  it('starts an fsync for the first caller and answers it when that fsync ends', async () => {
    const { started, fsync } = manualFsync();
    const syncs = new DirectorySyncs(fsync);
    const a = tracked(syncs.sync('/d'));
    expect(started).toHaveLength(1);
    await settle();
    expect(a.done).toBe(false);
    started[0].finish();
    await settle();
    expect(a.done).toBe(true);
    expect(syncs.busy).toBe(0);
  });

  it('makes a caller that arrives while an fsync runs wait for a new one, which later arrivals share', async () => {
    const { started, fsync } = manualFsync();
    const syncs = new DirectorySyncs(fsync);
    const a = tracked(syncs.sync('/d'));
    // b and c renamed after fsync #1 began: #1 does not cover them.
    const b = tracked(syncs.sync('/d'));
    const c = tracked(syncs.sync('/d'));
    expect(started).toHaveLength(1);
    started[0].finish();
    await settle();
    expect(a.done).toBe(true);
    expect(b.done).toBe(false);
    expect(c.done).toBe(false);
    // #2 started after b and c asked, and serves both of them.
    expect(started).toHaveLength(2);
    const d = tracked(syncs.sync('/d'));
    started[1].finish();
    await settle();
    expect(b.done && c.done).toBe(true);
    // d arrived while #2 ran: it needs #3.
    expect(d.done).toBe(false);
    expect(started).toHaveLength(3);
    started[2].finish();
    await settle();
    expect(d.done).toBe(true);
    expect(syncs.busy).toBe(0);
  });

  it('never shares an fsync between directories', async () => {
    const { started, fsync } = manualFsync();
    const syncs = new DirectorySyncs(fsync);
    const a = tracked(syncs.sync('/a'));
    const b = tracked(syncs.sync('/b'));
    expect(started.map((s) => s.dir)).toEqual(['/a', '/b']);
    started[1].finish();
    await settle();
    expect(b.done).toBe(true);
    expect(a.done).toBe(false);
    started[0].finish();
    await settle();
    expect(a.done).toBe(true);
  });

  it('hands an fsync failure to every caller it answers, and starts afresh afterwards', async () => {
    const { started, fsync } = manualFsync();
    const syncs = new DirectorySyncs(fsync);
    const a = tracked(syncs.sync('/d'));
    const b = tracked(syncs.sync('/d'));
    const c = tracked(syncs.sync('/d'));
    // A failed running fsync does not answer the queued callers: their own fsync still runs.
    started[0].finish(new Error('EIO'));
    await settle();
    expect(a.error).toBeInstanceOf(Error);
    expect(b.done).toBe(false);
    expect(started).toHaveLength(2);
    started[1].finish(new Error('EIO again'));
    await settle();
    expect((b.error as Error).message).toBe('EIO again');
    expect((c.error as Error).message).toBe('EIO again');
    expect(syncs.busy).toBe(0);
    const e = tracked(syncs.sync('/d'));
    expect(started).toHaveLength(3);
    started[2].finish();
    await settle();
    expect(e.done && e.error === undefined).toBe(true);
  });
});
