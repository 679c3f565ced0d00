import { describe, expect, it } from 'vitest';
import { fitName } from './temp-files.js';

describe('clipboard temp file names', () => {
  it('keeps short names and shortens long ones to 240 bytes, keeping the extension', () => {
    expect(fitName('7_notes.txt')).toBe('7_notes.txt');
    const long = `9_${'ü'.repeat(200)}.json`;
    const fitted = fitName(long);
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(240);
    expect(fitted.startsWith('9_ü')).toBe(true);
    expect(fitted.endsWith('.json')).toBe(true);
  });
});
