// Which download_limits rule paces a download (§15.5): the first whose host rule matches.
import { describe, expect, it } from 'vitest';
import { limitFor, parseDownloadLimits } from './download-limits.js';

const limits = parseDownloadLimits([
  { host: '*.example.com', concurrency: 1 },
  { host: '10.0.0.0/8', min_interval: '5s' },
  { host: 'cdn.example.com', backoff: '60s' },
  { host: 'example.com', backoff: '1m' },
]);

describe('limitFor', () => {
  it('applies the first rule that matches the host', () => {
    expect(limitFor(limits, 'cdn.example.com')).toBe(limits[0]);
    expect(limitFor(limits, 'CDN.Example.COM.')).toBe(limits[0]);
    expect(limitFor(limits, 'example.com')).toBe(limits[3]);
    expect(limitFor(limits, '10.1.2.3')).toMatchObject({ minIntervalMs: 5000 });
  });

  it('leaves hosts no rule names unpaced', () => {
    expect(limitFor(limits, 'example.org')).toBeUndefined();
    expect(limitFor(limits, '11.0.0.1')).toBeUndefined();
    expect(limitFor([], 'cdn.example.com')).toBeUndefined();
  });
});
