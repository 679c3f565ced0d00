import { describe, expect, it } from 'vitest';
import { LruMap } from './lru.js';

describe('LruMap', () => {
  it('drops the least recently used entry first; get counts as use, peek does not', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect([m.peek('a'), m.peek('b'), m.peek('c')]).toEqual([1, undefined, 3]);
    expect(m.peek('a')).toBe(1);
    m.set('d', 4);
    expect([m.peek('a'), m.peek('c'), m.peek('d')]).toEqual([undefined, 3, 4]);
    expect(m.size).toBe(2);
  });

  it('replacing a value moves it to the end; falsy values are kept', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 0);
    m.set('b', 2);
    m.set('a', 0);
    m.set('c', 3);
    expect(m.get('a')).toBe(0);
    expect(m.get('b')).toBeUndefined();
    expect(() => new LruMap(0)).toThrow(RangeError);
  });
});
