// List and form pages for the simple named entities (partials, series, saved queries), so each
// feature only states its columns and fields.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { Field, FormPage, ListFilters, Pagination, TextArea, firstOf, queryOf } from './components.js';

export interface ListPageSpec<R extends { ID: number; Name: string }> {
  path: string;
  title: string;
  /** Key of the list in the page's JSON form. */
  key: string;
  detail: string;
  newLabel: string;
  columns: [string, (r: R) => string][];
  load: (req: FastifyRequest) => Promise<{ rows: R[]; page: number; perPage: number }>;
  /** A section shown under the list (a related list of another kind). */
  after?: (req: FastifyRequest) => Promise<SafeHtml>;
}

export function registerListPage<R extends { ID: number; Name: string }>(app: FastifyInstance, layout: Layout, spec: ListPageSpec<R>): void {
  registerPage(app, layout, {
    path: spec.path,
    needs: 'read',
    load: async (req) => {
      const { rows, page, perPage } = await spec.load(req);
      return {
        pageTitle: spec.title,
        [spec.key]: rows,
        _rows: rows,
        _after: spec.after ? await spec.after(req) : null,
        pagination: { page, perPage },
        _layout: {
          sidebar: <ListFilters req={req} action={spec.path} sortOptions={['name', 'created_at', 'updated_at']} />,
          actions: <a class="button" href={`${spec.detail}/new`}>{spec.newLabel}</a>,
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <table class="list">
          <thead>
            <tr>
              <th>Name</th>
              {spec.columns.map(([label]) => (
                <th>{label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ctx._rows.map((r) => (
              <tr>
                <td>
                  <a href={`${spec.detail}?id=${r.ID}`}>{r.Name}</a>
                </td>
                {spec.columns.map(([, cell]) => (
                  <td>{cell(r)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {ctx._rows.length === 0 ? <p class="empty">Nothing matches.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx._rows.length} />
        {ctx._after}
      </section>
    ),
  });
}

export interface FormField {
  name: string;
  label: string;
  kind?: 'text' | 'area' | 'code';
  required?: boolean;
  hint?: string;
}

/** A create/edit form posting to a /v1 write route; the query string refills it after an error. */
export function EntityForm(props: { req: FastifyRequest; action: string; fields: FormField[]; record?: Record<string, unknown>; submit: string }): SafeHtml {
  const q = queryOf(props.req);
  const value = (name: string) => firstOf(q[name]) || String(props.record?.[name] ?? '');
  return (
    <form method="post" action={props.action} class="card form">
      <FormPage req={props.req} />
      {props.record ? <input type="hidden" name="ID" value={String(props.record.ID)} /> : null}
      {props.fields.map((f) =>
        f.kind === 'area' || f.kind === 'code' ? (
          <TextArea label={f.label} name={f.name} code={f.kind === 'code'} rows={f.kind === 'code' ? 8 : 4} value={value(f.name)} hint={f.hint} />
        ) : (
          <Field label={f.label} name={f.name} required={f.required} value={value(f.name)} hint={f.hint} />
        ),
      )}
      <button type="submit">{props.submit}</button>
    </form>
  );
}
