// Tag pages: /tags, /tag?id=, /tag/new, /tag/edit?id= (companion §6.4).
import type { FastifyInstance } from 'fastify';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { readParams, makeBag } from '../../core/http/params.js';
import { Type } from '@sinclair/typebox';
import { Field, FormPage, ListFilters, Pagination, Picker, PostButton, TextArea, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { tagRecord, type TagService } from './service.js';
import { TagListInput } from './routes.js';

type TagRecord = ReturnType<typeof tagRecord>;
const IdInput = Type.Object({ id: Type.Integer() });

function TagForm(props: { req: import('fastify').FastifyRequest; tag?: TagRecord }) {
  const q = queryOf(props.req);
  const t = props.tag;
  return (
    <form method="post" action="/v1/tag" class="card form">
      <FormPage req={props.req} />
      {t ? <input type="hidden" name="ID" value={t.ID} /> : null}
      <Field label="Name" name="Name" required value={firstOf(q.Name) || t?.Name} />
      <TextArea label="Description" name="Description" value={firstOf(q.Description) || t?.Description} />
      <button type="submit">{t ? 'Save' : 'Create tag'}</button>
    </form>
  );
}

export function registerTagPages(app: FastifyInstance, layout: Layout, tags: TagService): void {
  registerPage(app, layout, {
    path: '/tags',
    needs: 'read',
    load: async (req) => {
      const input = readParams(TagListInput, makeBag(req.query));
      const { rows, page, perPage } = await tags.named.list(input);
      const total = await tags.named.count(input);
      return {
        pageTitle: 'Tags',
        tags: rows.map(tagRecord),
        pagination: { page, perPage, total },
        parsedQuery: input,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          sidebar: <ListFilters req={req} action="/tags" sortOptions={['name', 'created_at', 'updated_at', 'most_used_resource', 'most_used_note', 'most_used_group']} />,
          actions: <a class="button" href="/tag/new">New tag</a>,
        },
      };
    },
    view: (ctx, req) => (
      <section x-data="{ selected: [] }">
        <form method="post" action="/v1/tags/delete" class="bulk" x-show="selected.length > 0">
          <template x-for="id in selected">
            <input type="hidden" name="ID" x-bind:value="id" />
          </template>
          <span x-text="selected.length + ' selected'"></span>
          <button type="submit" class="danger">Delete selected</button>
        </form>
        <table class="list" data-testid="tag-list">
          <thead>
            <tr>
              <th></th>
              <th>Name</th>
              <th>Description</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {ctx.tags.map((t) => (
              <tr>
                <td>
                  <input type="checkbox" aria-label={`Select ${t.Name}`} value={t.ID} x-model="selected" />
                </td>
                <td>
                  <a href={`/tag?id=${t.ID}`}>{t.Name}</a>
                </td>
                <td>{t.Description}</td>
                <td>{t.CreatedAt.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.tags.length === 0 ? <p class="empty">No tags match.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.tags.length} total={ctx.pagination.total} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/tag',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const tag = tagRecord(await tags.named.require(id));
      return {
        pageTitle: tag.Name,
        tag,
        mainEntity: tag,
        mainEntityType: 'tag',
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          sidebar: <Timestamps created={tag.CreatedAt} updated={tag.UpdatedAt} />,
          actions: (
            <span>
              <a class="button" href={`/tag/edit?id=${tag.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/tag/delete?Id=${tag.ID}`} label="Delete" danger confirm={`Delete the tag "${tag.Name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <div class="card">
          <p class="description">{ctx.tag.Description || 'No description.'}</p>
        </div>
        <form method="post" action="/v1/tags/merge" class="card form">
          <h2>Merge other tags into this one</h2>
          <FormPage req={req} />
          <input type="hidden" name="Winner" value={ctx.tag.ID} />
          <Picker label="Tags to merge (they are deleted; their links move here)" name="Losers" source="/v1/tags/suggest" selected={[]} noEmpty />
          <button type="submit">Merge</button>
        </form>
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/tag/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New tag', errorMessage: firstOf(queryOf(req).error) || undefined }),
    view: (_ctx, req) => <TagForm req={req} />,
  });

  registerPage(app, layout, {
    path: '/tag/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const tag = tagRecord(await tags.named.require(id));
      return { pageTitle: `Edit ${tag.Name}`, tag, errorMessage: firstOf(queryOf(req).error) || undefined };
    },
    view: (ctx, req) => <TagForm req={req} tag={ctx.tag} />,
  });
}
