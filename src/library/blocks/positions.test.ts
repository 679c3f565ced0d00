import { describe, expect, it } from 'vitest';
import { REBALANCE_LENGTH, evenlySpaced, isValidPosition, needsRebalance, positionAfter, positionBetween } from './positions.js';

describe('block positions', () => {
  it('starts at n and appends short, growing keys', () => {
    expect(positionAfter(null)).toBe('n');
    expect(positionAfter('n')).toBe('o');
    expect(positionAfter('nz')).toBe('o');
    expect(positionAfter('zz')).toBe('zzb');
    // Keys clients send: digits, capitals, punctuation above "z".
    for (const client of ['a1', 'a2', 'A', '1', 'z~', '~']) expect(positionAfter(client) > client, client).toBe(true);
    let key = positionAfter(null);
    for (let i = 0; i < 200; i++) {
      const next = positionAfter(key);
      expect(next > key).toBe(true);
      key = next;
    }
    expect(key.length).toBeLessThanOrEqual(10);
  });

  it('finds a key strictly between two keys', () => {
    const cases: [string | null, string | null][] = [
      [null, null],
      [null, 'n'],
      ['n', null],
      ['n', 'o'],
      ['n', 'nb'],
      ['az', 'b'],
      ['y', 'z'],
      ['zz', null],
      [null, 'ab'],
      ['abc', 'abd'],
    ];
    for (const [lo, hi] of cases) {
      const k = positionBetween(lo, hi)!;
      expect(k, `${lo}..${hi}`).not.toBeNull();
      expect(isValidPosition(k)).toBe(true);
      if (lo !== null) expect(k > lo, `${k} > ${lo}`).toBe(true);
      if (hi !== null) expect(k < hi, `${k} < ${hi}`).toBe(true);
      expect(k.endsWith('a')).toBe(false);
    }
  });

  it('reports when no key fits or the bounds are out of order', () => {
    expect(positionBetween('b', 'ba')).toBeNull();
    expect(positionBetween('n', 'n')).toBeNull();
    expect(positionBetween('o', 'n')).toBeNull();
    expect(positionBetween(null, 'a')).toBeNull();
  });

  it('keeps keys ordered when inserting repeatedly at the same spot', () => {
    let lo = 'n';
    const hi = 'o';
    for (let i = 0; i < 50; i++) {
      const k = positionBetween(lo, hi)!;
      expect(k > lo && k < hi).toBe(true);
      lo = k;
    }
  });

  it('spaces keys evenly, in order, without trailing a', () => {
    expect(evenlySpaced(0)).toEqual([]);
    expect(evenlySpaced(1)).toEqual(['n']);
    for (const n of [2, 3, 25, 26, 27, 100, 676, 1000, 20_000]) {
      const keys = evenlySpaced(n);
      expect(keys).toHaveLength(n);
      for (let i = 1; i < keys.length; i++) expect(keys[i - 1] < keys[i], `${keys[i - 1]} < ${keys[i]}`).toBe(true);
      expect(keys.every((k) => isValidPosition(k) && !k.endsWith('a'))).toBe(true);
      expect(Math.max(...keys.map((k) => k.length))).toBeLessThanOrEqual(Math.ceil(Math.log(n + 1) / Math.log(26)) + 0);
    }
  });

  it('stays short through 1,000 moves when rebalanced past the limit', () => {
    // Five blocks; each move takes the last block and drops it between the first two.
    let order = ['a', 'b', 'c', 'd', 'e'];
    let keys = new Map(order.map((id, i) => [id, evenlySpaced(5)[i]]));
    let rebalances = 0;
    for (let move = 0; move < 1000; move++) {
      const moving = order[order.length - 1];
      const k = positionBetween(keys.get(order[0])!, keys.get(order[1])!);
      order = [order[0], moving, ...order.slice(1, -1)];
      if (k === null) throw new Error('no room');
      keys.set(moving, k);
      if (needsRebalance([...keys.values()])) {
        const fresh = evenlySpaced(order.length);
        keys = new Map(order.map((id, i) => [id, fresh[i]]));
        rebalances++;
      }
      const sorted = [...keys.entries()].sort((x, y) => (x[1] < y[1] ? -1 : 1)).map(([id]) => id);
      expect(sorted).toEqual(order);
    }
    expect(rebalances).toBeGreaterThan(0);
    expect(Math.max(...[...keys.values()].map((k) => k.length))).toBeLessThanOrEqual(REBALANCE_LENGTH);
  });

  it('validates client positions', () => {
    expect(isValidPosition('n')).toBe(true);
    expect(isValidPosition('')).toBe(false);
    expect(isValidPosition('N')).toBe(true);
    expect(isValidPosition('a1')).toBe(true);
    expect(isValidPosition('b'.repeat(64))).toBe(true);
    expect(isValidPosition('b'.repeat(65))).toBe(false);
    expect(isValidPosition('é'.repeat(33))).toBe(false);
  });
});
