// The timeline endpoints: the list's filters plus granularity, anchor and columns; the list's
// repository counts created and updated rows for every bucket in one statement.
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { CommonListInput } from '../common/list.js';
import type { NamedEntities } from '../common/named.js';
import type { NamedTable, Seen, TimeBucket } from '../common/named.repository.js';
import type { Visibility } from '../auth/visibility.js';
import { seenBy, type LibraryRoutes } from '../http/routes.js';
import { buildBuckets, normaliseColumns, normaliseGranularity, parseAnchor } from './buckets.js';

const timelineFields = {
  granularity: Type.Optional(Type.String({ description: 'yearly, monthly or weekly (default monthly)' })),
  anchor: Type.Optional(Type.String({ description: 'YYYY-MM-DD, default today' })),
  columns: Type.Optional(Type.String({ description: '1 to 60, default 15; other values are ignored' })),
};

type TimelineInput = CommonListInput & { granularity?: string; anchor?: string; columns?: string };

/** Where a timeline's counts come from: the list's filters over one table. */
export interface TimelineSource<I> {
  /** Entity label for the route summary ("tag"). */
  label: string;
  counts(vis: Visibility, input: I, buckets: readonly TimeBucket[]): Promise<{ created: number; updated: number }[]>;
}

/** A named list as a timeline source; confined tables apply the caller's visibility, global ones ignore it. */
export function namedTimeline<T extends NamedTable, I extends CommonListInput, S extends Seen>(named: NamedEntities<T, I, S>): TimelineSource<I> {
  return { label: named.kind.label, counts: (vis, input, buckets) => named.repo.timeline(input, buckets, ...([vis] as Seen as S)) };
}

export interface TimelineOptions<S extends TObject> {
  path: string;
  tag: string;
  source: TimelineSource<Static<S>>;
  /** The list endpoint's input schema; its filters apply to the timeline too. */
  input: S;
}

export async function timeline<I extends TimelineInput>(source: TimelineSource<I>, vis: Visibility, input: I, now = new Date()) {
  const g = normaliseGranularity(input.granularity);
  const buckets = buildBuckets(g, parseAnchor(input.anchor, now), normaliseColumns(input.columns));
  const counts = await source.counts(
    vis,
    input,
    buckets.map((b) => ({ start: b.start.toISOString(), end: b.end.toISOString() })),
  );
  const last = buckets[buckets.length - 1];
  return {
    buckets: buckets.map((b, i) => ({
      label: b.label,
      start: b.start.toISOString().replace('.000Z', 'Z'),
      end: b.end.toISOString().replace('.000Z', 'Z'),
      created: counts[i].created,
      updated: counts[i].updated,
    })),
    hasMore: { left: true, right: now.getTime() >= last.end.getTime() },
  };
}

export function registerTimeline<S extends TObject>(routes: LibraryRoutes, opts: TimelineOptions<S>): void {
  routes.add({
    method: 'GET',
    path: opts.path,
    tag: opts.tag,
    summary: `Counts of created and updated ${opts.source.label} rows per time bucket`,
    needs: 'read',
    input: Type.Object({ ...opts.input.properties, ...timelineFields }),
    handler: async ({ req, input }) => timeline(opts.source as TimelineSource<Static<S> & TimelineInput>, seenBy(req), input as Static<S> & TimelineInput),
  });
}
