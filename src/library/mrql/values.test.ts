import { describe, expect, it } from 'vitest';
import { rfc3339 } from './values.js';

// The fast path for driver text must answer exactly what the Date round trip answers.
const slow = (v: string) => {
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toISOString().replace(/\.000Z$/, 'Z');
};

describe('rfc3339', () => {
  it('drops whole-second milliseconds and keeps others', () => {
    expect(rfc3339('2024-01-05T10:20:30.000Z')).toBe('2024-01-05T10:20:30Z');
    expect(rfc3339('2024-01-05T10:20:30.123Z')).toBe('2024-01-05T10:20:30.123Z');
  });

  it('answers like the Date round trip for every kind of text it may meet', () => {
    const samples = [
      '2024-02-28T23:59:59.000Z', '2024-02-29T00:00:00.000Z', '2023-02-30T00:00:00.000Z', '2024-04-31T12:00:00.500Z',
      '2024-12-31T23:59:59.999Z', '2024-01-05 10:20:30', '2024-01-05T10:20:30+02:00', '2024-01-05', 'not a date',
      '2024-13-01T00:00:00.000Z',
    ];
    for (const v of samples) expect(rfc3339(v), v).toBe(slow(v));
    for (let i = 0; i < 2000; i++) {
      const v = new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 1.5e12)).toISOString();
      expect(rfc3339(v)).toBe(slow(v));
    }
  });

  it('reads Date objects and leaves empty values empty', () => {
    expect(rfc3339(new Date(Date.UTC(2024, 0, 1)))).toBe('2024-01-01T00:00:00Z');
    expect(rfc3339(null)).toBeNull();
    expect(rfc3339('')).toBeNull();
  });
});
