// Template partial pages: list, detail, new, edit.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { PostButton, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { EntityForm, registerListPage, type FormField } from '../ui/simple-pages.js';
import { PartialListInput } from './routes.js';
import { partialRecord, type PartialService } from './service.js';

const IdInput = Type.Object({ id: Type.Integer() });
const FIELDS: FormField[] = [
  { name: 'Name', label: 'Name', required: true, hint: 'kebab-case: lowercase letters, digits and hyphens, starting with a letter' },
  { name: 'Description', label: 'Description', kind: 'area' },
  { name: 'Content', label: 'Content (HTML and shortcodes)', kind: 'code' },
];

export function registerPartialPages(app: FastifyInstance, layout: Layout, partials: PartialService): void {
  registerListPage<ReturnType<typeof partialRecord>>(app, layout, {
    path: '/templatePartials',
    title: 'Template partials',
    key: 'templatePartials',
    detail: '/templatePartial',
    newLabel: 'New partial',
    columns: [['Description', (r) => r.Description]],
    load: async (req) => {
      const { rows, page, perPage } = await partials.named.list(readParams(PartialListInput, makeBag(req.query)));
      return { rows: rows.map(partialRecord), page, perPage };
    },
  });

  registerPage(app, layout, {
    path: '/templatePartial',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const partial = partialRecord(await partials.named.require(id));
      return {
        pageTitle: partial.Name,
        templatePartial: partial,
        mainEntity: partial,
        mainEntityType: 'templatePartial',
        _layout: {
          sidebar: <Timestamps created={partial.CreatedAt} updated={partial.UpdatedAt} />,
          actions: (
            <span>
              <a class="button" href={`/templatePartial/edit?id=${partial.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/templatePartial/delete?Id=${partial.ID}`} label="Delete" danger confirm={`Delete the partial "${partial.Name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => (
      <section class="card">
        <p>{ctx.templatePartial.Description || 'No description.'}</p>
        <p>
          Use it in any template slot as <code>[partial name="{ctx.templatePartial.Name}"]</code>.
        </p>
        <pre>{ctx.templatePartial.Content}</pre>
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/templatePartial/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New template partial', errorMessage: firstOf(queryOf(req).error) || undefined }),
    view: (_ctx, req) => <EntityForm req={req} action="/v1/templatePartial" fields={FIELDS} submit="Create partial" />,
  });

  registerPage(app, layout, {
    path: '/templatePartial/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const partial = partialRecord(await partials.named.require(id));
      return { pageTitle: `Edit ${partial.Name}`, templatePartial: partial, errorMessage: firstOf(queryOf(req).error) || undefined };
    },
    view: (ctx, req) => <EntityForm req={req} action="/v1/templatePartial/edit" fields={FIELDS} record={ctx.templatePartial} submit="Save" />,
  });
}
