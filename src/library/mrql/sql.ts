// A tiny SQL text builder for MRQL translation. Values never enter the SQL text: each one is
// recorded and stands in the text as a marker, which `finish` turns into the driver's
// placeholder (`?` on SQLite, `$n` on PostgreSQL) in text order.
import type { DbKind } from '../../core/db/connect.js';

// eslint-disable-next-line no-control-regex -- markers are control characters no SQL text contains
const MARK = /\u0001(\d+)\u0002/g;

export class Binds {
  readonly values: unknown[] = [];
  private aliases = 0;

  constructor(readonly kind: DbKind) {}

  /** A bound value. */
  p(value: unknown): string {
    this.values.push(value);
    return `\u0001${this.values.length - 1}\u0002`;
  }

  /** A bound text value; typed on PostgreSQL so functions resolve without guessing. */
  t(value: string): string {
    return this.kind === 'postgres' ? `CAST(${this.p(value)} AS text)` : this.p(value);
  }

  /** A fresh table alias for a subquery. */
  alias(prefix: string): string {
    return `${prefix}${++this.aliases}`;
  }
}

export interface Statement {
  label: string;
  sql: string;
  params: unknown[];
}

export function finish(label: string, text: string, b: Binds): Statement {
  const params: unknown[] = [];
  const sql = text.replace(MARK, (_, i: string) => {
    params.push(b.values[Number(i)]);
    return b.kind === 'sqlite' ? '?' : `$${params.length}`;
  });
  return { label, sql, params };
}

/** Display form only (never executed): values inlined, strings single-quoted. */
export function interpolate(s: Statement): string {
  let i = 0;
  const lit = (v: unknown) => (typeof v === 'number' ? String(v) : v === null ? 'NULL' : `'${String(v).replace(/'/g, "''")}'`);
  if (s.sql.includes('$1') || s.params.length === 0) {
    return s.sql.replace(/\$(\d+)/g, (_, n: string) => lit(s.params[Number(n) - 1]));
  }
  return s.sql.replace(/\?/g, () => lit(s.params[i++]));
}

/** Meta path segments are inlined (so expression indexes apply) after this re-check (§21.1). */
export function safeSegments(path: string[]): string[] {
  for (const seg of path) if (!/^[A-Za-z0-9_]+$/.test(seg)) throw new Error(`invalid meta path segment`);
  return path;
}
