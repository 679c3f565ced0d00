import { describe, expect, it } from 'vitest';
import { buildBuckets, normaliseColumns, normaliseGranularity, parseAnchor } from './buckets.js';

const iso = (d: Date) => d.toISOString().slice(0, 10);

describe('timeline buckets', () => {
  it('ends with the bucket containing the anchor, oldest first', () => {
    const b = buildBuckets('monthly', parseAnchor('2025-04-17'), 3);
    expect(b.map((x) => x.label)).toEqual(['2025-02', '2025-03', '2025-04']);
    expect(iso(b[2].start)).toBe('2025-04-01');
    expect(iso(b[2].end)).toBe('2025-05-01');
  });

  it('starts weeks on Monday, counting Sunday as the last day', () => {
    const sunday = buildBuckets('weekly', parseAnchor('2024-06-09'), 2);
    expect(sunday.map((x) => x.label)).toEqual(['May 27', 'Jun 03']);
    const monday = buildBuckets('weekly', parseAnchor('2024-06-10'), 1);
    expect(monday[0].label).toBe('Jun 10');
    expect(iso(monday[0].end)).toBe('2024-06-17');
  });

  it('crosses year boundaries', () => {
    expect(buildBuckets('yearly', parseAnchor('2024-01-01'), 2).map((x) => x.label)).toEqual(['2023', '2024']);
    expect(buildBuckets('monthly', parseAnchor('2024-01-31'), 2).map((x) => x.label)).toEqual(['2023-12', '2024-01']);
  });

  it('falls back for bad parameters instead of failing', () => {
    expect(normaliseGranularity('daily')).toBe('monthly');
    expect(normaliseGranularity(undefined)).toBe('monthly');
    for (const v of ['0', '-3', '61', 'x', undefined]) expect(normaliseColumns(v)).toBe(15);
    expect(normaliseColumns('60')).toBe(60);
    const now = new Date('2026-03-05T12:00:00Z');
    expect(iso(parseAnchor('2026-02-30', now))).toBe('2026-03-05');
    expect(iso(parseAnchor('soon', now))).toBe('2026-03-05');
  });
});
