// /search?q= (companion §6.3): up to 50 results of the global search, grouped by type in a
// fixed order, with a hint when the ceiling was reached.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { SearchResult, SearchService } from './service.js';

const ORDER: [string, string][] = [
  ['resource', 'Resources'],
  ['note', 'Notes'],
  ['group', 'Groups'],
  ['tag', 'Tags'],
  ['category', 'Categories'],
  ['resourceCategory', 'Resource Categories'],
  ['query', 'Queries'],
  ['mrqlQuery', 'Saved Queries (MRQL)'],
  ['noteType', 'Note Types'],
  ['relationType', 'Relation Types'],
];

export function registerSearchPage(app: FastifyInstance, layout: Layout, search: SearchService): void {
  registerPage(app, layout, {
    path: '/search',
    needs: 'read',
    load: async (req) => {
      const { q } = readParams(Type.Object({ q: Type.Optional(Type.String()) }), makeBag(req.query));
      const found = await search.search(req.principal, q ?? '', 50, undefined);
      return { pageTitle: q ? `Search: ${q}` : 'Search', query: q ?? '', total: found.total, totalCapped: found.totalCapped, results: found.results };
    },
    view: (ctx) => {
      const byType = new Map<string, SearchResult[]>();
      for (const r of ctx.results) byType.set(r.type, [...(byType.get(r.type) ?? []), r]);
      return (
        <section class="search-page">
          <form method="get" action="/search" class="card inline-form" role="search">
            <label class="field">
              <span>Search everything</span>
              <input type="search" name="q" value={ctx.query} />
            </label>
            <button type="submit">Search</button>
          </form>
          {ctx.query === '' ? (
            <p class="empty">Type a word to search names and descriptions of resources, notes, groups, tags and more. Quotes match exactly, a trailing * matches prefixes, ~ tolerates typos.</p>
          ) : ctx.results.length === 0 ? (
            <p class="empty">Nothing matches “{ctx.query}”.</p>
          ) : (
            <div>
              {ctx.totalCapped ? <p class="hint">Showing the best {ctx.total} matches; refine the search to see others.</p> : null}
              {ORDER.filter(([t]) => byType.has(t)).map(([t, title]) => (
                <section class="card">
                  <h2>
                    {title} <small class="count">({byType.get(t)!.length})</small>
                  </h2>
                  <ul class="link-list">
                    {byType.get(t)!.map((r) => (
                      <li>
                        <a href={r.url}>{r.name}</a>
                        {r.description ? <small class="hint"> — {r.description.length > 140 ? `${r.description.slice(0, 140)}…` : r.description}</small> : null}
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          )}
        </section>
      );
    },
  });
}
