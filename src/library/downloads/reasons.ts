// Failure reason buckets of the download history (companion §7.3.1): best-effort matches on
// the stored error text; a row may fall into several, and a row without an error into none.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DbKind } from '../../core/db/connect.js';
import { escapeLike } from '../../core/db/values.js';
import { badRequest } from '../../core/http/errors.js';

export const REASONS = ['http', 'timeout', 'blocked', 'unsupported', 'limit', 'storage', 'cancelled', 'other'] as const;
export type Reason = (typeof REASONS)[number];

const NEEDLES: Record<Exclude<Reason, 'other' | 'http'>, string[]> = {
  timeout: ['timeout', 'timed out', 'deadline exceeded', 'idle'],
  blocked: ['blocked request', 'not permitted to fetch'],
  unsupported: ['unsupported protocol scheme', 'not a valid image', 'unsupported', 'unknown filesystem'],
  limit: ['too large', 'exceeds', 'limit', 'queue is full', 'larger than'],
  storage: ['no space left', 'disk', 'permission denied', 'read-only file system', 'failed to write', 'enospc', 'eacces'],
  cancelled: ['cancelled', 'canceled'],
};

const error = sql`lower(download_history_entries.error)`;

function contains(needle: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${error} LIKE ${`%${escapeLike(needle)}%`} ESCAPE '\\'`;
}

/** "HTTP " followed by a three-digit status code. */
function httpStatus(kind: DbKind): RawBuilder<SqlBool> {
  return kind === 'sqlite' ? sql<SqlBool>`${error} GLOB '*http [0-9][0-9][0-9]*'` : sql<SqlBool>`${error} ~ 'http [0-9]{3}'`;
}

function bucket(kind: DbKind, reason: Exclude<Reason, 'other'>): RawBuilder<SqlBool> {
  if (reason === 'http') return httpStatus(kind);
  return sql<SqlBool>`(${sql.join(NEEDLES[reason].map(contains), sql` OR `)})`;
}

export function reasonCondition(kind: DbKind, reason: Reason): RawBuilder<SqlBool> {
  if (!(REASONS as readonly string[]).includes(reason)) throw badRequest(`Reason must be one of ${REASONS.join(', ')}`);
  if (reason !== 'other') return bucket(kind, reason);
  const any = REASONS.filter((r): r is Exclude<Reason, 'other'> => r !== 'other').map((r) => bucket(kind, r));
  return sql<SqlBool>`(download_history_entries.error <> '' AND NOT (${sql.join(any, sql` OR `)}))`;
}
