// The SQL clauses of the common list machinery, for repositories: Name/Description/created-date
// filters, and SortBy validated into ORDER BY terms (ending with created_at desc, id desc).
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { containsText, jsonPathExpr } from '../../core/db/fragments.js';
import { badRequest } from '../../core/http/errors.js';
import { parseDateBound, type CommonListInput, type SortSpec } from './list.js';

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
