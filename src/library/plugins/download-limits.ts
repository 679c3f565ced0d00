// The manifest's download_limits (library-plugins.md §15.5): rules pacing a plugin's own queued
// downloads, each naming a host rule (§13.5 grammar) and optional concurrency, minimum interval
// and backoff. A malformed list refuses the plugin at discovery; the error says which entry.
import { DurationError, parseDuration } from './duration.js';
import { NetworkRuleError, parseNetworkRule, ruleMatchesHost, type NetworkRule } from './network.js';

export interface DownloadLimit {
  host: NetworkRule;
  /** At most this many of the plugin's matching jobs at once; null = unlimited. */
  concurrency: number | null;
  minIntervalMs: number;
  /** Wait after a 429 or 503 answer; 0 disables. */
  backoffMs: number;
}

function duration(v: unknown, where: string, key: string): number {
  if (v === undefined) return 0;
  if (typeof v !== 'string') throw new Error(`${where}: ${key} must be a duration string such as "5s"`);
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch (e) {
    if (e instanceof DurationError) throw new Error(`${where}: ${key} ${JSON.stringify(v)} is not a duration: ${e.message}`);
    throw e;
  }
  if (ms < 0) throw new Error(`${where}: ${key} must not be negative, got ${JSON.stringify(v)}`);
  return ms;
}

/** The rules of a download_limits value as converted out of Lua; throws Error on a bad entry. */
export function parseDownloadLimits(value: unknown): DownloadLimit[] {
  // An empty Lua table converts to an empty object.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value)) throw new Error('download_limits must be an array of tables');
  return value.map((entry: unknown, i) => {
    const where = `download_limits[${i + 1}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`${where} must be a table`);
    const e = entry as Record<string, unknown>;
    if (typeof e.host !== 'string' || e.host === '') throw new Error(`${where}: host must be a network rule such as "*.example.com"`);
    let host: NetworkRule;
    try {
      host = parseNetworkRule(e.host);
    } catch (err) {
      if (err instanceof NetworkRuleError) throw new Error(`${where}: ${err.message}`);
      throw err;
    }
    let concurrency: number | null = null;
    if (e.concurrency !== undefined) {
      if (typeof e.concurrency !== 'number' || !Number.isInteger(e.concurrency) || e.concurrency < 1) throw new Error(`${where}: concurrency must be a positive whole number`);
      concurrency = e.concurrency;
    }
    return { host, concurrency, minIntervalMs: duration(e.min_interval, where, 'min_interval'), backoffMs: duration(e.backoff, where, 'backoff') };
  });
}

/** The rule pacing a download from `host`: the first whose host rule matches. */
export function limitFor(limits: readonly DownloadLimit[], host: string): DownloadLimit | undefined {
  return limits.find((l) => ruleMatchesHost(l.host, host));
}

/** A stable form of the rules for the determinism check of §4.5. */
export function limitsKey(limits: readonly DownloadLimit[]): unknown[] {
  return limits.map((l) => [l.host.canonical, l.concurrency, l.minIntervalMs, l.backoffMs]);
}
