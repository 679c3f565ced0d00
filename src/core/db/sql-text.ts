// SQL written as text (MRQL's compiler, the dialect's fragments): values never enter the text.
// Each one is recorded and stands in the text as a marker, which `finish` turns into the
// driver's placeholders in text order, and `raw` turns into a Kysely expression, so text
// fragments and query builders bind values the same way.
import { sql, type RawBuilder } from 'kysely';
import type { Binder, Dialect } from './dialect/types.js';

// eslint-disable-next-line no-control-regex -- markers are control characters no SQL text contains
const MARK = /\u0001(\d+)\u0002/g;

export interface Statement {
  label: string;
  sql: string;
  params: unknown[];
  /**
   * The same text recurs with other values (a template's nested query, once per render), so the
   * engine may keep the statement and one generic plan for it on the connection.
   */
  reusePlan?: boolean;
}

export class SqlText implements Binder {
  readonly values: unknown[] = [];
  private aliases = 0;

  constructor(readonly dialect: Dialect) {}

  p(value: unknown): string {
    this.values.push(value);
    return `\u0001${this.values.length - 1}\u0002`;
  }

  /** A bound text value, typed where the engine would otherwise have to guess. */
  t(value: string): string {
    return this.dialect.textParam(this.p(value));
  }

  /** A fresh table alias for a subquery. */
  alias(prefix: string): string {
    return `${prefix}${++this.aliases}`;
  }

  /** The executable statement: markers become placeholders, values follow text order. */
  finish(label: string, text: string): Statement {
    const params: unknown[] = [];
    const out = text.replace(MARK, (_, i: string) => {
      params.push(this.values[Number(i)]);
      return this.dialect.placeholder(params.length);
    });
    return { label, sql: out, params };
  }

  /** The text as a Kysely expression with the same values bound. */
  raw<T = unknown>(text: string): RawBuilder<T> {
    const parts: string[] = [];
    const values: unknown[] = [];
    let last = 0;
    for (const m of text.matchAll(MARK)) {
      parts.push(text.slice(last, m.index));
      values.push(this.values[Number(m[1])]);
      last = m.index + m[0].length;
    }
    parts.push(text.slice(last));
    // The sql tag reads only the fragments; a built array stands in for a template literal's.
    return sql<T>(Object.assign(parts, { raw: parts }) as unknown as TemplateStringsArray, ...values);
  }
}

/** Builds a Kysely expression from a text fragment written against a binder. */
export function fragment<T = unknown>(dialect: Dialect, build: (b: SqlText) => string): RawBuilder<T> {
  const b = new SqlText(dialect);
  return b.raw<T>(build(b));
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
