// Saved SQL query pages: list, detail (runs the query with an input per :name parameter and
// shows a table or the query's own Template), new, edit.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, raw } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { PostButton, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { EntityForm, registerListPage, type FormField } from '../ui/simple-pages.js';
import { parameterNames } from './readonly.js';
import { QueryListInput } from './routes.js';
import { queryRecord, type QueryService } from './service.js';
import { savedRecord } from '../mrql/saved.js';
import type { MrqlService } from '../mrql/service.js';

type SavedMrqlRecord = ReturnType<typeof savedRecord>;

const IdInput = Type.Object({ id: Type.Integer() });
const FIELDS: FormField[] = [
  { name: 'Name', label: 'Name', required: true },
  { name: 'Description', label: 'Description', kind: 'area' },
  { name: 'Text', label: 'SQL (read-only; :name placeholders become inputs)', kind: 'code' },
  { name: 'Template', label: 'Template (HTML with Alpine.js; results, columns and rows are in scope)', kind: 'code' },
];

/** Saved MRQL queries (mrql.md §14.7), listed with the SQL ones: each opens and runs on /mrql. */
function SavedMrql(props: { saved: SavedMrqlRecord[] }) {
  return (
    <section class="card saved-mrql" data-testid="saved-mrql">
      <h2>Saved MRQL queries</h2>
      {props.saved.length === 0 ? (
        <p class="empty">
          No saved MRQL queries yet. Write one on the <a href="/mrql">MRQL page</a> and save it to find it here.
        </p>
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Query</th>
              <th>
                <span class="visually-hidden">Run</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.saved.map((q) => (
              <tr>
                <td>
                  {q.name}
                  {q.description ? <small>{q.description}</small> : null}
                </td>
                <td>
                  <code>{q.query}</code>
                </td>
                <td>
                  <a class="button" href={`/mrql?saved=${q.id}`} aria-label={`${q.params.length ? 'Open' : 'Run'} ${q.name}`}>
                    {q.params.length ? 'Fill in and run' : 'Run'}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function registerQueryPages(app: FastifyInstance, layout: Layout, queries: QueryService, mrql: MrqlService): void {
  registerListPage<ReturnType<typeof queryRecord>>(app, layout, {
    path: '/queries',
    title: 'Queries',
    key: 'queries',
    detail: '/query',
    newLabel: 'New query',
    columns: [['Description', (r) => r.Description]],
    load: async (req) => {
      const input = readParams(QueryListInput, makeBag(req.query));
      const { rows, page, perPage } = await queries.named.list(input);
      return { rows: rows.map(queryRecord), page, perPage };
    },
    after: async () => <SavedMrql saved={(await mrql.saved.list(undefined, true)).map(savedRecord)} />,
  });

  registerPage(app, layout, {
    path: '/query',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const query = queryRecord(await queries.named.require(id));
      const params = [...new Set(parameterNames(query.Text))];
      return {
        pageTitle: query.Name,
        query,
        params,
        mainEntity: query,
        mainEntityType: 'query',
        _layout: {
          sidebar: <Timestamps created={query.CreatedAt} updated={query.UpdatedAt} />,
          actions: (
            <span>
              <a class="button" href={`/query/edit?id=${query.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/query/delete?Id=${query.ID}`} label="Delete" danger confirm={`Delete the query "${query.Name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => (
      <div x-data={`queryRunner(${JSON.stringify({ id: ctx.query.ID, params: ctx.params })})`}>
        <section class="card">
          <p>{ctx.query.Description}</p>
          <pre>{ctx.query.Text}</pre>
          <form class="form" x-on:submit="$event.preventDefault(); run()">
            {ctx.params.map((p) => (
              <label class="field">
                <span>{p}</span>
                <input type="text" x-model={`values[${JSON.stringify(p)}]`} />
              </label>
            ))}
            <button type="submit">Run</button>
          </form>
        </section>
        <div class="error-banner" x-show="error" x-text="error"></div>
        <section class="card" x-show="ran">
          {ctx.query.Template.trim() ? (
            // The Template is HTML written by an editor for this query; it renders as written.
            <div class="query-template">{raw(ctx.query.Template)}</div>
          ) : (
            <table class="list">
              <thead>
                <tr>
                  <template x-for="(c, i) in columns" x-bind:key="i">
                    <th x-text="c" x-on:click="sortBy(i)"></th>
                  </template>
                </tr>
              </thead>
              <tbody>
                <template x-for="(row, r) in rows" x-bind:key="r">
                  <tr>
                    <template x-for="(cell, i) in row" x-bind:key="i">
                      <td x-text="typeof cell === 'object' && cell !== null ? JSON.stringify(cell) : cell"></td>
                    </template>
                  </tr>
                </template>
              </tbody>
            </table>
          )}
        </section>
        <script src="/public/query-runner.js"></script>
      </div>
    ),
  });

  registerPage(app, layout, {
    path: '/query/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New query', errorMessage: firstOf(queryOf(req).error) || undefined }),
    view: (_ctx, req) => <EntityForm req={req} action="/v1/query" fields={FIELDS} submit="Create query" />,
  });

  registerPage(app, layout, {
    path: '/query/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const query = queryRecord(await queries.named.require(id));
      return { pageTitle: `Edit ${query.Name}`, query, errorMessage: firstOf(queryOf(req).error) || undefined };
    },
    view: (ctx, req) => <EntityForm req={req} action="/v1/query" fields={FIELDS} record={ctx.query} submit="Save" />,
  });
}
