// The timeline endpoints: the list's filters plus granularity, anchor and columns; one SQL
// statement counts created and updated rows for every bucket.
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema/database.js';
import type { Crud, NamedTable } from '../common/crud.js';
import type { CommonListInput } from '../common/list.js';
import type { LibraryRoutes } from '../http/routes.js';
import { buildBuckets, normaliseColumns, normaliseGranularity, parseAnchor } from './buckets.js';

const timelineFields = {
  granularity: Type.Optional(Type.String({ description: 'yearly, monthly or weekly (default monthly)' })),
  anchor: Type.Optional(Type.String({ description: 'YYYY-MM-DD, default today' })),
  columns: Type.Optional(Type.String({ description: '1 to 60, default 15; other values are ignored' })),
};

type TimelineInput = CommonListInput & { granularity?: string; anchor?: string; columns?: string };

export interface TimelineOptions<T extends NamedTable, S extends TObject> {
  path: string;
  tag: string;
  crud: Crud<T>;
  /** The list endpoint's input schema; its filters apply to the timeline too. */
  input: S;
  /**
   * The list's own filtered query, for lists with more than the common filters; without it
   * the common filters apply.
   */
  filtered?: (input: Static<S>) => SelectQueryBuilder<Database, keyof Database, object>;
}

export async function timeline<T extends NamedTable>(
  crud: Crud<T>,
  input: TimelineInput,
  base: SelectQueryBuilder<Database, keyof Database, object> = crud.filtered(input) as unknown as SelectQueryBuilder<Database, keyof Database, object>,
  now = new Date(),
) {
  const g = normaliseGranularity(input.granularity);
  const buckets = buildBuckets(g, parseAnchor(input.anchor, now), normaliseColumns(input.columns));
  const table = crud.kind.table;
  const created = sql.ref(`${table}.created_at`);
  const updated = sql.ref(`${table}.updated_at`);
  const from = buckets[0].start.toISOString();
  const to = buckets[buckets.length - 1].end.toISOString();
  const sums = buckets.flatMap((b, i) => {
    const s = b.start.toISOString();
    const e = b.end.toISOString();
    return [
      sql<number>`sum(CASE WHEN ${created} >= ${s} AND ${created} < ${e} THEN 1 ELSE 0 END)`.as(`c${i}`),
      sql<number>`sum(CASE WHEN ${updated} >= ${s} AND ${updated} < ${e} AND ${updated} > ${created} THEN 1 ELSE 0 END)`.as(`u${i}`),
    ];
  });
  const row = (await base
    .where(sql<boolean>`((${created} >= ${from} AND ${created} < ${to}) OR (${updated} >= ${from} AND ${updated} < ${to}))`)
    .select(sums)
    .executeTakeFirst()) as Record<string, number | null> | undefined;
  const last = buckets[buckets.length - 1];
  return {
    buckets: buckets.map((b, i) => ({
      label: b.label,
      start: b.start.toISOString().replace('.000Z', 'Z'),
      end: b.end.toISOString().replace('.000Z', 'Z'),
      created: Number(row?.[`c${i}`] ?? 0),
      updated: Number(row?.[`u${i}`] ?? 0),
    })),
    hasMore: { left: true, right: now.getTime() >= last.end.getTime() },
  };
}

export function registerTimeline<T extends NamedTable, S extends TObject>(routes: LibraryRoutes, opts: TimelineOptions<T, S>): void {
  routes.add({
    method: 'GET',
    path: opts.path,
    tag: opts.tag,
    summary: `Counts of created and updated ${opts.crud.kind.label} rows per time bucket`,
    needs: 'read',
    input: Type.Object({ ...opts.input.properties, ...timelineFields }),
    handler: async ({ input }) => {
      const typed = input as Static<S> & TimelineInput;
      return timeline(opts.crud, typed, opts.filtered?.(typed));
    },
  });
}
