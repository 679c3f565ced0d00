// Failure reason buckets of the download history (companion §7.3.1): best-effort matches on
// the stored error text; a row may fall into several, and a row without an error into none.
// The repository turns a bucket into SQL over the lower-cased error.
import { badRequest } from '../../core/http/errors.js';

export const REASONS = ['http', 'timeout', 'blocked', 'unsupported', 'limit', 'storage', 'cancelled', 'other'] as const;
export type Reason = (typeof REASONS)[number];
export type MatchedReason = Exclude<Reason, 'other'>;

/** Substrings (lower case) whose presence puts an error into a bucket. */
export const NEEDLES: Record<Exclude<Reason, 'other' | 'http'>, string[]> = {
  timeout: ['timeout', 'timed out', 'deadline exceeded', 'idle'],
  blocked: ['blocked request', 'not permitted to fetch'],
  unsupported: ['unsupported protocol scheme', 'not a valid image', 'unsupported', 'unknown filesystem'],
  limit: ['too large', 'exceeds', 'limit', 'queue is full', 'larger than'],
  storage: ['no space left', 'disk', 'permission denied', 'read-only file system', 'failed to write', 'enospc', 'eacces'],
  cancelled: ['cancelled', 'canceled'],
};

/** "HTTP " followed by a three-digit status code, as a glob over the lower-cased error. */
export const HTTP_STATUS_GLOB = '*http [0-9][0-9][0-9]*';

/** The buckets a row can match; "other" is an error in none of them. */
export const MATCHED_REASONS = REASONS.filter((r): r is MatchedReason => r !== 'other');

export function parseReason(text: string): Reason {
  if (!(REASONS as readonly string[]).includes(text)) throw badRequest(`Reason must be one of ${REASONS.join(', ')}`);
  return text as Reason;
}
