import { describe, expect, it } from 'vitest';
import { DownloadPacer, retryAfterMs, type PaceRule } from './pacing.js';

/** A pacer on a clock the test moves; `rules` maps a host to its rule for every plugin. */
function pacer(rules: Record<string, Partial<PaceRule>>) {
  const clock = { now: 1_000_000 };
  const p = new DownloadPacer((_plugin, url) => {
    const rule = rules[url.hostname];
    return rule ? { key: url.hostname, rule: { concurrency: null, minIntervalMs: 0, backoffMs: 0, ...rule } } : null;
  }, () => clock.now);
  return { p, clock };
}

const job = (host: string, plugin = 'p') => ({ url: `https://${host}/f.bin`, plugin });

describe('download pacing', () => {
  it('lets unpaced jobs start at once: no plugin, no matching rule, or a bad URL', () => {
    const { p } = pacer({ 'a.example': { concurrency: 1 } });
    p.admit(job('a.example'));
    expect(p.waitMs({ url: 'https://a.example/f.bin' })).toBe(0);
    expect(p.waitMs(job('b.example'))).toBe(0);
    expect(p.waitMs({ url: 'not a url', plugin: 'p' })).toBe(0);
  });

  it('holds jobs beyond concurrency until a running one is released, once per release', () => {
    const { p } = pacer({ 'a.example': { concurrency: 2 } });
    const first = p.admit(job('a.example'));
    expect(p.waitMs(job('a.example'))).toBe(0);
    p.admit(job('a.example'));
    expect(p.waitMs(job('a.example'))).toBe(Infinity);
    first();
    first();
    expect(p.waitMs(job('a.example'))).toBe(0);
    p.admit(job('a.example'));
    expect(p.waitMs(job('a.example'))).toBe(Infinity);
  });

  it('keeps each plugin\'s state apart for the same rule', () => {
    const { p } = pacer({ 'a.example': { concurrency: 1 } });
    p.admit(job('a.example', 'one'));
    expect(p.waitMs(job('a.example', 'one'))).toBe(Infinity);
    expect(p.waitMs(job('a.example', 'two'))).toBe(0);
  });

  it('spaces starts by min_interval from the last start', () => {
    const { p, clock } = pacer({ 'a.example': { minIntervalMs: 5000 } });
    p.admit(job('a.example'));
    expect(p.waitMs(job('a.example'))).toBe(5000);
    clock.now += 3000;
    expect(p.waitMs(job('a.example'))).toBe(2000);
    clock.now += 2000;
    expect(p.waitMs(job('a.example'))).toBe(0);
    p.admit(job('a.example'));
    expect(p.waitMs(job('a.example'))).toBe(5000);
  });

  it('pauses the rule after 429 or 503: Retry-After honoured, capped at backoff, backoff without one', () => {
    const { p, clock } = pacer({ 'a.example': { backoffMs: 60_000 } });
    p.answered(job('a.example'), 404, '5');
    expect(p.waitMs(job('a.example'))).toBe(0);
    p.answered(job('a.example'), 429, '5');
    expect(p.waitMs(job('a.example'))).toBe(5000);
    clock.now += 5000;
    p.answered(job('a.example'), 503, '3600');
    expect(p.waitMs(job('a.example'))).toBe(60_000);
    clock.now += 60_000;
    p.answered(job('a.example'), 503, undefined);
    expect(p.waitMs(job('a.example'))).toBe(60_000);
    // A shorter later answer never shortens a pause already in force.
    p.answered(job('a.example'), 429, '1');
    expect(p.waitMs(job('a.example'))).toBe(60_000);
  });

  it('ignores 429 and 503 when backoff is absent or zero', () => {
    const { p } = pacer({ 'a.example': { concurrency: 3 } });
    p.answered(job('a.example'), 429, '30');
    expect(p.waitMs(job('a.example'))).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('-5', now)).toBeNull();
  });
});
