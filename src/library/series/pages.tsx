// Series pages: list, detail (name, slug, shared meta and its resources), new, edit.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { PostButton, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { EntityForm, registerListPage, type FormField } from '../ui/simple-pages.js';
import { SeriesListInput } from './routes.js';
import { seriesRecord, type SeriesService } from './service.js';

const IdInput = Type.Object({ id: Type.Integer() });
const MEMBERS = 100;

export function registerSeriesPages(app: FastifyInstance, layout: Layout, series: SeriesService): void {
  registerListPage<ReturnType<typeof seriesRecord>>(app, layout, {
    path: '/seriesList',
    title: 'Series',
    key: 'series',
    detail: '/series',
    newLabel: 'New series',
    columns: [['Slug', (r) => r.Slug]],
    load: async (req) => {
      const { rows, page, perPage } = await series.named.list(readParams(SeriesListInput, makeBag(req.query)));
      return { rows: rows.map(seriesRecord), page, perPage };
    },
  });

  registerPage(app, layout, {
    path: '/series',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const s = seriesRecord(await series.named.require(id));
      const members = await series.members(s.ID, MEMBERS);
      return {
        pageTitle: s.Name,
        series: { ...s, Resources: members.map((m) => ({ ID: m.id, Name: m.name })) },
        mainEntity: s,
        mainEntityType: 'series',
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          sidebar: <Timestamps created={s.CreatedAt} updated={s.UpdatedAt} />,
          actions: <PostButton action={`/v1/series/delete?Id=${s.ID}`} label="Delete" danger confirm={`Delete the series "${s.Name}"? Its resources stay.`} />,
        },
      };
    },
    view: (ctx, req) => (
      <div>
        <section class="card">
          <p>
            Slug: <code>{ctx.series.Slug}</code>
          </p>
          <h2>Resources</h2>
          {ctx.series.Resources.length === 0 ? <p class="empty">No resources in this series yet.</p> : null}
          <ol>
            {ctx.series.Resources.map((r) => (
              <li>
                <a href={`/resource?id=${r.ID}`}>{r.Name}</a>
              </li>
            ))}
          </ol>
        </section>
        <EntityForm
          req={req}
          action="/v1/series"
          record={{ ID: ctx.series.ID, Name: ctx.series.Name, Meta: JSON.stringify(ctx.series.Meta, null, 2) }}
          fields={[
            { name: 'Name', label: 'Name', required: true },
            { name: 'Meta', label: 'Shared meta (JSON object, inherited by every resource of the series)', kind: 'code' },
          ]}
          submit="Save"
        />
      </div>
    ),
  });

  const createFields: FormField[] = [
    { name: 'Name', label: 'Name', required: true },
    { name: 'Slug', label: 'Slug', hint: 'defaults to the name' },
  ];
  registerPage(app, layout, {
    path: '/series/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New series', errorMessage: firstOf(queryOf(req).error) || undefined }),
    view: (_ctx, req) => <EntityForm req={req} action="/v1/series/create" fields={createFields} submit="Create series" />,
  });
}
