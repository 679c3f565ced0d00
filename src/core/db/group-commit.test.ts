import { describe, expect, it } from 'vitest';
import { GroupCommit, type ItemOutcome } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes the items submitted in one turn as one batch, in order, and the next turn as another', async () => {
    const batches: number[][] = [];
    const group = new GroupCommit<number, number>(async (items) => {
      batches.push([...items]);
      return items.map((i) => ({ ok: true, value: i * 10 }));
    });
    const first = await Promise.all([group.submit(1), group.submit(2), group.submit(3)]);
    const second = await group.submit(4);
    expect(first).toEqual([10, 20, 30]);
    expect(second).toBe(40);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('fails only the item whose outcome is an error', async () => {
    const group = new GroupCommit<string, string>(async (items) =>
      items.map((s): ItemOutcome<string> => (s === 'bad' ? { ok: false, error: new Error('no bad rows') } : { ok: true, value: s.toUpperCase() })),
    );
    const results = await Promise.allSettled([group.submit('a'), group.submit('bad'), group.submit('c')]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['A', 'no bad rows', 'C']);
  });

  it('fails every item of a batch whose transaction failed, and keeps working afterwards', async () => {
    let fail = true;
    const group = new GroupCommit<number, number>(async (items) => {
      if (fail) throw new Error('disk full');
      return items.map((i) => ({ ok: true, value: i }));
    });
    const results = await Promise.allSettled([group.submit(1), group.submit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('disk full'));
    fail = false;
    expect(await group.submit(3)).toBe(3);
  });

  it('refuses a writer that answers for a different number of items', async () => {
    const group = new GroupCommit<number, number>(async () => [{ ok: true, value: 1 }]);
    const results = await Promise.allSettled([group.submit(1), group.submit(2)]);
    expect(results.every((r) => r.status === 'rejected' && /2 items/.test(String(r.reason)))).toBe(true);
  });
});
