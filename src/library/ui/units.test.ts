import { describe, expect, it } from 'vitest';
import { humanDuration, humanSize, sizeInput } from './units.js';

const S = 1_000_000_000;
describe('human units', () => {
  it('shows durations as days, hours and smaller Go units', () => {
    expect(humanDuration(7 * 24 * 3600 * S)).toBe('7d');
    expect(humanDuration(48 * 3600 * S + 60 * S)).toBe('48h1m');
    expect(humanDuration(36 * 3600 * S)).toBe('36h');
    expect(humanDuration(90 * 60 * S)).toBe('1h30m');
    expect(humanDuration(250_000_000)).toBe('250ms');
    expect(humanDuration(0)).toBe('0');
  });
  it('shows sizes with the largest exact suffix, and readable binary units', () => {
    expect(sizeInput(64 * 1024 * 1024)).toBe('64M');
    expect(sizeInput(1536)).toBe('1536');
    expect(sizeInput(0)).toBe('0');
    expect(humanSize(1536 * 1024)).toBe('1.5 MiB');
    expect(humanSize(820)).toBe('820 B');
  });
});
