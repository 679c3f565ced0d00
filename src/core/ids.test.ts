import { describe, expect, it } from 'vitest';
import { uuidV7 } from './ids.js';

describe('uuidV7', () => {
  it('has the version 7 layout and carries the millisecond timestamp', () => {
    const at = Date.UTC(2024, 5, 1, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by creation time and does not repeat', () => {
    const ids = [uuidV7(1000), uuidV7(2000), uuidV7(3000)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => uuidV7())).size).toBe(1000);
  });
});
