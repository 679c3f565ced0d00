// The MRQL page (mrql.md §14.9): editor with live validation and completion, placeholder inputs,
// Run (render=1) with results as cards or a table, Explain, CSV/JSON export, saved queries.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { savedRecord } from './saved.js';
import type { MrqlService } from './service.js';

const PageInput = Type.Object({ q: Type.Optional(Type.String()), saved: Type.Optional(Type.Integer()) });

export function registerMrqlPages(app: FastifyInstance, layout: Layout, mrql: MrqlService): void {
  registerPage(app, layout, {
    path: '/mrql',
    needs: 'read',
    load: async (req) => {
      const input = readParams(PageInput, makeBag(req.query));
      const saved = (await mrql.saved.list(undefined, true)).map(savedRecord);
      const current = input.saved ? saved.find((s) => s.id === input.saved) : undefined;
      const query = current?.query ?? input.q ?? '';
      // Run at once for ?q=, and for ?saved= unless the query has placeholders to fill first.
      const autorun = query.trim() !== '' && (current ? current.params.length === 0 : input.q !== undefined);
      return { pageTitle: 'MRQL', query, savedId: current?.id ?? null, autorun, saved };
    },
    view: (ctx) => {
      const init = JSON.stringify({ query: ctx.query, savedId: ctx.savedId, autorun: ctx.autorun, saved: ctx.saved });
      return (
        <div class="mrql-page" data-init={init} x-data="mrqlPage(JSON.parse($el.dataset.init))">
          <script src="/public/mrql.js"></script>
          <form class="mrql-editor" x-on:submit="$event.preventDefault(); run(1)">
            <label for="mrql-query">Query</label>
            <div class="mrql-input">
              <textarea
                id="mrql-query"
                name="query"
                rows="4"
                spellcheck="false"
                x-model="query"
                x-on:input="changed()"
                x-on:keydown="keydown($event)"
                x-on:click="suggest()"
                x-on:blur="blur()"
                data-testid="mrql-query"
              ></textarea>
              <pre class="mrql-underline" aria-hidden="true" x-html="underline"></pre>
              <ul class="mrql-suggestions" x-show="suggestions.length" role="listbox" data-testid="mrql-suggestions">
                <template x-for="(s, i) in suggestions" x-bind:key="i">
                  <li role="option" x-bind:class="{ active: i === picked }" x-on:mousedown="$event.preventDefault(); accept(s)">
                    <span x-text="s.value"></span> <small x-text="s.label || s.type"></small>
                  </li>
                </template>
              </ul>
            </div>
            <p class="mrql-status" role="status" data-testid="mrql-status" x-text="status" x-bind:class="{ error: !valid }"></p>
            <template x-for="p in params" x-bind:key="p">
              <label class="mrql-param">
                <span x-text="'$' + p"></span>
                <input type="text" x-model="values[p]" x-bind:name="'param.' + p" x-bind:data-param="p" />
              </label>
            </template>
            <div class="mrql-actions">
              <button type="submit" data-testid="mrql-run">Run</button>
              <button type="button" x-on:click="explain()">Explain</button>
              <a href="/mrql/syntax">Syntax and examples</a>
              <a class="button" x-bind:href="exportUrl('csv')">CSV</a>
              <a class="button" x-bind:href="exportUrl('json')">JSON</a>
              <label>
                View{' '}
                <select x-model="view">
                  <option value="cards">Cards</option>
                  <option value="table">Table</option>
                </select>
              </label>
            </div>
          </form>
          <div class="error-banner" role="alert" x-show="error" x-text="error"></div>
          <pre class="mrql-explain" x-show="plan" x-text="plan"></pre>
          <section class="mrql-results-area" data-testid="mrql-results" x-show="result">
            <p class="mrql-summary" x-text="summary()"></p>
            <template x-if="result && !result.mode && view === 'cards'">
              <div class="mrql-cards">
                <template x-for="item in items()" x-bind:key="item.type + item.entity.ID">
                  <div class="mrql-item">
                    <template x-if="item.entity.renderedHTML">
                      <div x-html="item.entity.renderedHTML"></div>
                    </template>
                    <template x-if="!item.entity.renderedHTML">
                      <div class="mrql-card">
                        <template x-if="item.type === 'resource'">
                          <img class="mrql-thumb" loading="lazy" alt="" height="120" x-bind:src="'/v1/resource/preview?ID=' + item.entity.ID + '&Height=120'" />
                        </template>
                        <a x-bind:href="'/' + item.type + '?id=' + item.entity.ID" x-text="item.entity.Name"></a>{' '}
                        <small x-text="item.type"></small>
                        <p x-text="item.entity.Description"></p>
                      </div>
                    </template>
                  </div>
                </template>
              </div>
            </template>
            <template x-if="result && !result.mode && view === 'table'">
              <table class="mrql-table">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Type</th>
                    <th>Created</th>
                    <th>Description</th>
                  </tr>
                </thead>
                <tbody>
                  <template x-for="item in items()" x-bind:key="item.type + item.entity.ID">
                    <tr>
                      <td>
                        <a x-bind:href="'/' + item.type + '?id=' + item.entity.ID" x-text="item.entity.Name"></a>
                      </td>
                      <td x-text="item.type"></td>
                      <td x-text="item.entity.CreatedAt"></td>
                      <td x-text="item.entity.Description"></td>
                    </tr>
                  </template>
                </tbody>
              </table>
            </template>
            <template x-if="result && result.mode === 'aggregated'">
              <table class="mrql-table">
                <thead>
                  <tr>
                    <template x-for="c in result.columns" x-bind:key="c">
                      <th x-text="c"></th>
                    </template>
                  </tr>
                </thead>
                <tbody>
                  <template x-for="(row, i) in result.rows" x-bind:key="i">
                    <tr>
                      <template x-for="c in result.columns" x-bind:key="c">
                        <td x-text="row[c] === null ? '—' : row[c]"></td>
                      </template>
                    </tr>
                  </template>
                </tbody>
              </table>
            </template>
            <template x-if="result && result.mode === 'bucketed'">
              <div>
                <template x-for="(b, i) in result.buckets" x-bind:key="i">
                  <div class="mrql-bucket">
                    <div class="mrql-bucket-header" x-text="bucketLabel(b)"></div>
                    <ul>
                      <template x-for="item in b.items" x-bind:key="item.ID">
                        <li>
                          <a x-bind:href="'/' + result.entityType + '?id=' + item.ID" x-text="item.Name"></a>
                        </li>
                      </template>
                    </ul>
                  </div>
                </template>
                <button type="button" x-show="result.nextOffset" x-on:click="run(0, result.nextOffset)">
                  More groups
                </button>
              </div>
            </template>
            <nav class="pager" x-show="result && !result.mode">
              <button type="button" x-show="page > 1" x-on:click="run(page - 1)">
                Previous
              </button>
              <button type="button" x-show="hasMore()" x-on:click="run(page + 1)">
                Next
              </button>
            </nav>
          </section>
          <section class="mrql-saved">
            <h2>Saved queries</h2>
            <form class="mrql-save" x-on:submit="$event.preventDefault(); save()">
              <input type="text" placeholder="Name" x-model="saveName" aria-label="Name of the saved query" />
              <input type="text" placeholder="Description" x-model="saveDescription" aria-label="Description" />
              <button type="submit">Save query</button>
            </form>
            <ul data-testid="mrql-saved-list">
              <template x-for="s in saved" x-bind:key="s.id">
                <li>
                  <a x-bind:href="'/mrql?saved=' + s.id" x-text="s.name"></a> <code x-text="s.query"></code>{' '}
                  <button type="button" class="danger" x-on:click="remove(s)">
                    Delete
                  </button>
                </li>
              </template>
            </ul>
          </section>
        </div>
      );
    },
  });
}
