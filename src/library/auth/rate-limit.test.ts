import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './rate-limit.js';

describe('LoginLimiter', () => {
  it('counts attempts still in flight, so a burst cannot pass the limit', () => {
    const limiter = new LoginLimiter(2, 60_000);
    const a = limiter.begin('1.1.1.1', 'ann');
    const b = limiter.begin('1.1.1.1', 'ann');
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(limiter.begin('1.1.1.1', 'ann')).toBeNull();
    a!.abandoned(); // an infrastructure failure frees its slot and counts nowhere
    expect(limiter.begin('2.2.2.2', 'bob')).not.toBeNull();
    const c = limiter.begin('1.1.1.1', 'ann');
    expect(c).not.toBeNull();
    b!.failed();
    c!.failed();
    expect(limiter.begin('1.1.1.1', 'someone')).toBeNull();
    expect(limiter.begin('3.3.3.3', 'ANN ')).toBeNull(); // username keys are trimmed and lower-cased
  });

  it('forgets failures after the window and drops empty keys', () => {
    let now = 0;
    const limiter = new LoginLimiter(1, 1000, () => now);
    limiter.begin('1.1.1.1', 'ann')!.failed();
    expect(limiter.begin('1.1.1.1', 'zed')).toBeNull();
    now = 1001;
    const ok = limiter.begin('1.1.1.1', 'ann');
    expect(ok).not.toBeNull();
    ok!.succeeded();
    now = 5000;
    limiter.begin('9.9.9.9', 'x')!.succeeded();
    expect(limiter.size).toBeLessThanOrEqual(2);
  });

  it('is a no-op when off', () => {
    const limiter = new LoginLimiter(0, 1000);
    for (let i = 0; i < 100; i++) limiter.begin('1.1.1.1', 'ann')!.failed();
    expect(limiter.begin('1.1.1.1', 'ann')).not.toBeNull();
    expect(limiter.size).toBe(0);
  });

  it('stays bounded under a flood of distinct keys', () => {
    const limiter = new LoginLimiter(5, 60_000);
    for (let i = 0; i < 60_000; i++) limiter.begin(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, '')!.failed();
    expect(limiter.size).toBeLessThanOrEqual(50_000);
  });
});
