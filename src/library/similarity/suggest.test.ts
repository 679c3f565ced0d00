import { describe, expect, it } from 'vitest';
import { scoreSuggestions, type Evidence } from './suggest.js';

const names = new Map([
  [1, 'alpha'],
  [2, 'beta'],
  [3, 'gamma'],
  [4, 'applied'],
  ...Array.from({ length: 12 }, (_, i) => [100 + i, `t${String(i).padStart(2, '0')}`] as [number, string]),
]);

const empty: Evidence = { applied: new Set(), neighbours: [], cooccurrence: null, group: null };

describe('suggested tag scoring', () => {
  it('weights neighbours by 2^(-d/3), legacy matches by 0.25, over total tagged weight + 2', () => {
    const e: Evidence = {
      ...empty,
      neighbours: [
        { distance: 0, legacy: false, tagIds: [1] },
        { distance: 3, legacy: false, tagIds: [1, 2] },
        { distance: 0, legacy: true, tagIds: [2] },
        { distance: 6, legacy: false, tagIds: [] }, // untagged neighbours do not count
      ],
    };
    const total = 1 + 0.5 + 0.25;
    const out = scoreSuggestions(e, names);
    expect(out.map((s) => s.Name)).toEqual(['alpha', 'beta']);
    expect(out[0].score).toBeCloseTo(0.5 * (1.5 / (total + 2)), 12);
    expect(out[1].score).toBeCloseTo(0.5 * (0.75 / (total + 2)), 12);
    expect(out[0].sources).toEqual(['similar']);
  });

  it('combines the three sources with 0.5/0.3/0.2, lists sources in order, excludes applied tags', () => {
    const e: Evidence = {
      applied: new Set([4]),
      neighbours: [{ distance: 0, legacy: false, tagIds: [3, 4] }],
      cooccurrence: { matching: 5, usage: [{ tagId: 3, count: 5 }, { tagId: 4, count: 5 }] },
      group: { tagged: 3, usage: [{ tagId: 3, count: 2 }] },
    };
    const [s] = scoreSuggestions(e, names);
    expect(s).toMatchObject({ ID: 3, Name: 'gamma', sources: ['similar', 'cooccurrence', 'group'] });
    expect(s.score).toBeCloseTo(0.5 * (1 / 3) + 0.3 * (5 / 10) + 0.2 * (2 / 8), 12);
    expect(scoreSuggestions(e, names).some((x) => x.ID === 4)).toBe(false);
  });

  it('a missing source contributes zero without redistributing the weights', () => {
    const e: Evidence = { ...empty, group: { tagged: 0, usage: [{ tagId: 1, count: 5 }] } };
    expect(scoreSuggestions(e, names)[0].score).toBeCloseTo(0.2 * (5 / 5), 12);
  });

  it('caps at eight and breaks ties by name, then id', () => {
    const usage = Array.from({ length: 12 }, (_, i) => ({ tagId: 111 - i, count: 3 }));
    const out = scoreSuggestions({ ...empty, cooccurrence: { matching: 10, usage } }, names);
    expect(out.length).toBe(8);
    expect(out.map((s) => s.Name)).toEqual(['t00', 't01', 't02', 't03', 't04', 't05', 't06', 't07']);
    const twins = scoreSuggestions({ ...empty, cooccurrence: { matching: 1, usage: [{ tagId: 9, count: 1 }, { tagId: 8, count: 1 }] } }, new Map([[8, 'same'], [9, 'same']]));
    expect(twins.map((s) => s.ID)).toEqual([8, 9]);
  });
});
