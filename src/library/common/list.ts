// The common list machinery (contract, general conventions 6–8): page, Name, Description,
// CreatedBefore/After, SortBy with its validation pattern, and the X-Page/X-Per-Page headers.
// Every list is filtered, sorted and paged in SQL.
import { Type, type Static } from '@sinclair/typebox';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText } from '../../core/db/fragments.js';
import { jsonPathExpr } from '../../core/db/fragments.js';
import { badRequest } from '../../core/http/errors.js';

export const PAGE_SIZE = 50;

export const commonListFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'page number, default 1' })),
  Name: Type.Optional(Type.String({ description: 'partial match' })),
  Description: Type.Optional(Type.String({ description: 'partial match' })),
  CreatedBefore: Type.Optional(Type.String({ description: 'YYYY-MM-DD or RFC 3339' })),
  CreatedAfter: Type.Optional(Type.String({ description: 'YYYY-MM-DD or RFC 3339' })),
  SortBy: Type.Optional(Type.Array(Type.String(), { description: "column or meta->>'key', optionally followed by asc or desc" })),
};
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is needed
const CommonList = Type.Object(commonListFields);
export type CommonListInput = Static<typeof CommonList>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A filter date as a stored-timestamp string; bounds compare inclusively against it. */
export function parseDateBound(text: string, field: string): string {
  const t = text.trim();
  const valid = DATE_ONLY.test(t) || RFC3339.test(t);
  const date = valid ? new Date(DATE_ONLY.test(t) ? `${t}T00:00:00Z` : t) : null;
  // A day that does not exist (2024-02-30) must not roll over into the next month.
  const real = date !== null && !Number.isNaN(date.getTime()) && (!DATE_ONLY.test(t) || date.toISOString().startsWith(t));
  if (!date || !real) {
    throw badRequest(`${field} is not a valid date (expected YYYY-MM-DD or RFC 3339)`);
  }
  return date.toISOString();
}

export function pageOf(page: number | undefined, perPage = PAGE_SIZE) {
  const p = page ?? 1;
  if (!Number.isInteger(p) || p < 1) throw badRequest('page must be a positive integer');
  return { page: p, perPage, offset: (p - 1) * perPage };
}

export function setPageHeaders(reply: FastifyReply, page: number, perPage: number, total?: number): void {
  reply.header('X-Page', String(page)).header('X-Per-Page', String(perPage));
  if (total !== undefined) reply.header('X-Total-Count', String(total));
}

/** Applies Name, Description and the created-date bounds to `table`. */
export function applyCommonFilters<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
  table: string,
  input: CommonListInput,
): SelectQueryBuilder<DB, TB, O> {
  let q = qb;
  if (input.Name) q = q.where(containsText(dialect, `${table}.name`, input.Name));
  if (input.Description) q = q.where(containsText(dialect, `${table}.description`, input.Description));
  q = applyDateBounds(q, table, 'created_at', input.CreatedBefore, input.CreatedAfter, 'Created');
  return q;
}

export function applyDateBounds<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  table: string,
  column: string,
  before: string | undefined,
  after: string | undefined,
  label: string,
): SelectQueryBuilder<DB, TB, O> {
  let q = qb;
  const col = sql.ref(`${table}.${column}`);
  if (before) q = q.where(sql<boolean>`${col} <= ${parseDateBound(before, `${label}Before`)}`);
  if (after) q = q.where(sql<boolean>`${col} >= ${parseDateBound(after, `${label}After`)}`);
  return q;
}

const SORT_PATTERN = /^(meta->>?'[a-z_]+'|[a-z_]+)(\s(desc|asc))?$/;

export interface SortSpec {
  /** Columns of the table that may be sorted on. */
  columns: readonly string[];
  /** Whether the table has a `meta` JSON column (enables meta->>'key'). */
  meta: boolean;
  /** Extra sort keys computed by expressions (e.g. usage counts). */
  computed?: Record<string, RawBuilder<unknown>>;
}

/** Validates SortBy entries and returns ORDER BY terms, ending with created_at desc, id desc. */
export function sortTerms(dialect: Dialect, table: string, sortBy: string[] | undefined, spec: SortSpec): RawBuilder<unknown>[] {
  const terms: RawBuilder<unknown>[] = [];
  for (const entry of sortBy ?? []) {
    if (entry.trim() === '') continue;
    const m = SORT_PATTERN.exec(entry);
    if (!m) throw badRequest(`invalid SortBy "${entry}": expected a column name or meta->>'key', optionally followed by asc or desc`);
    // Missing values sort last in both directions on both engines.
    const dir = sql.raw(m[3] === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS LAST');
    const key = m[1];
    if (key.startsWith('meta')) {
      if (!spec.meta) throw badRequest(`invalid SortBy "${entry}": this list has no metadata`);
      const metaKey = /'([a-z_]+)'/.exec(key)![1];
      terms.push(sql`${jsonPathExpr(dialect, `${table}.meta`, [metaKey], (e) => e.value)} ${dir}`);
    } else if (spec.computed?.[key]) {
      terms.push(sql`${spec.computed[key]} ${dir}`);
    } else if (spec.columns.includes(key)) {
      terms.push(sql`${sql.ref(`${table}.${key}`)} ${dir}`);
    } else {
      throw badRequest(`invalid SortBy "${entry}": unknown column ${key}`);
    }
  }
  terms.push(sql`${sql.ref(`${table}.created_at`)} DESC`, sql`${sql.ref(`${table}.id`)} DESC`);
  return terms;
}

export function applySort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  terms: RawBuilder<unknown>[],
): SelectQueryBuilder<DB, TB, O> {
  return terms.reduce((q, t) => q.orderBy(t), qb);
}
