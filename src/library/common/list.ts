// The common list machinery (contract, general conventions 6–8): page, Name, Description,
// CreatedBefore/After, SortBy with its validation pattern, and the X-Page/X-Per-Page headers.
// Every list is filtered, sorted and paged in SQL (list.repository.ts builds those clauses).
import { Type, type Static } from '@sinclair/typebox';
import type { RawBuilder } from 'kysely';
import type { FastifyReply } from 'fastify';
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

export interface SortSpec {
  /** Columns of the table that may be sorted on. */
  columns: readonly string[];
  /** Whether the table has a `meta` JSON column (enables meta->>'key'). */
  meta: boolean;
  /** Extra sort keys computed by expressions (e.g. usage counts). */
  computed?: Record<string, RawBuilder<unknown>>;
}
