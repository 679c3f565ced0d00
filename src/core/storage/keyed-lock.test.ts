// The in-process lock per key shared by both services (blob placement and collection, version
// changes, preview generation).
import { describe, expect, it } from 'vitest';
import { KeyedLock, LockTimeoutError } from './keyed-lock.js';

describe('keyed lock', () => {
  it('runs work for one key one at a time, other keys in parallel, and survives failures', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const step = (key: string, name: string, ms: number, fail = false) =>
      lock.with(key, async () => {
        log.push(`${name} start`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
      });
    await Promise.allSettled([step('h', 'a', 30, true), step('h', 'b', 1), step('other', 'c', 1)]);
    expect(log.indexOf('a end')).toBeLessThan(log.indexOf('b start'));
    expect(log.indexOf('c start')).toBeLessThan(log.indexOf('a end'));
  });

  it('bounds a wait with a timeout and frees the key afterwards', async () => {
    const lock = new KeyedLock();
    let release!: () => void;
    const held = lock.with('k', () => new Promise<void>((r) => (release = r)));
    await expect(lock.with('k', async () => 'never', 20)).rejects.toBeInstanceOf(LockTimeoutError);
    release();
    await held;
    expect(await lock.with('k', async () => 'free')).toBe('free');
  });
});
