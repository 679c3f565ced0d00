// The 21 scenarios of mrql.md §23.3. Each returns the number of rows (entities, aggregated rows,
// bucket items or rendered cards) it produced; statements are counted by the engine.
import type { RunningLibrary } from '../../src/library/main.js';
import type { MrqlResult, Stats } from '../../src/library/mrql/engine.js';
import type { MrqlService } from '../../src/library/mrql/service.js';
import type { Shortcodes } from '../../src/library/templates/index.js';

export interface Ctx {
  lib: RunningLibrary;
  svc: MrqlService;
  shortcodes: Shortcodes;
  stats: Stats;
}

export interface Scenario {
  id: string;
  run: (c: Ctx) => Promise<number>;
}

function rows(r: MrqlResult): number {
  if ('mode' in r) return r.mode === 'aggregated' ? r.rows.length : r.buckets.reduce((s, b) => s + b.items.length, 0);
  return r.resources.length + r.notes.length + r.groups.length;
}

const direct = (id: string, query: string, opts: { limit?: number; page?: number } = {}): Scenario => ({
  id,
  run: async ({ svc, stats }) => rows(await svc.engine.execute(query, opts, stats)),
});

/** A shortcode rendered in the context of a group, as a page slot would be. */
const shortcode = (id: string, text: string, countMarker: string): Scenario => ({
  id,
  run: async ({ shortcodes, stats }) => {
    const state = shortcodes.state(undefined, stats);
    const html = await shortcodes.render(text, { type: 'group', entity: { ID: 1, Name: 'benchmark-group-000001', Meta: {}, OwnerId: null, CategoryId: 1 } }, state);
    return html.split(countMarker).length - 1;
  },
});

const RECENT = 'type = "resource" ORDER BY created DESC LIMIT 20';

/** The scenarios that call the engine directly: id, query, request paging. */
export const QUERIES: [string, string, { limit?: number; page?: number }][] = [
  ['scalar-selective', 'type = "resource" AND fileSize > 10000000 ORDER BY created DESC LIMIT 50', {}],
  ['relation-common-tag', 'type = "resource" AND tags = "common" ORDER BY created DESC LIMIT 50', {}],
  ['scope-shallow', 'type = "resource" SCOPE 1 ORDER BY created DESC LIMIT 50', {}],
  ['scope-deep', 'type = "resource" SCOPE 2 ORDER BY created DESC LIMIT 50', {}],
  ['scope-empty', 'type = "resource" SCOPE 3 LIMIT 50', {}],
  ['hierarchy-descendants', 'type = "group" AND descendants.name = "benchmark-leaf" LIMIT 50', {}],
  ['metadata-numeric', 'type = "resource" AND meta.rating >= 3 LIMIT 50', {}],
  ['fts-common', 'type = "resource" AND TEXT ~ "benchmarkneedle" ORDER BY RANK LIMIT 50', {}],
  ['similarity', 'type = "resource" AND SIMILAR TO resource(1) WITHIN 10 LIMIT 50', {}],
  ['page-first', 'type = "resource" ORDER BY created DESC', { limit: 50, page: 1 }],
  ['page-middle', 'type = "resource" ORDER BY created DESC', { limit: 50, page: 10 }],
  ['page-deep', 'type = "resource" ORDER BY created DESC', { limit: 50, page: 100 }],
  ['aggregate-content-type', 'type = "resource" GROUP BY contentType COUNT() ORDER BY count DESC LIMIT 20', {}],
  ['bucket-content-type', 'type = "resource" GROUP BY contentType LIMIT 10', {}],
  ['cross-entity-top-n', 'name ~ "benchmark" ORDER BY created DESC LIMIT 50', {}],
  ['cross-entity-random', 'name ~ "benchmark" ORDER BY RANDOM() LIMIT 50', {}],
];

export const SCENARIOS: Scenario[] = [
  ...QUERIES.map(([id, query, opts]) => direct(id, query, opts)),
  {
    id: 'raw-json',
    run: async ({ lib, svc, stats }) => {
      const before = svc.engine.statementsRun;
      const res = await fetch(`${lib.url}/v1/mrql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: RECENT }) });
      const body = (await res.json()) as MrqlResult;
      stats.statements += svc.engine.statementsRun - before;
      return rows(body);
    },
  },
  shortcode('compact-render', `[mrql query='${RECENT}' format="compact" scope="global"]`, '<a '),
  shortcode('table-render', `[mrql query='${RECENT}' format="table" scope="global"]`, '<tr data-id'),
  shortcode('custom-render', `[mrql query='${RECENT}' scope="global"]`, '<article>'),
  shortcode('nested-mrql', `[mrql query='type = "group" ORDER BY created DESC LIMIT 20' scope="global"]`, '<section>'),
];
