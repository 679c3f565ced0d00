// Tag pages: /tags, /tag?id=, /tag/new, /tag/edit?id= (companion §6.4).
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { readParams, makeBag } from '../../core/http/params.js';
import { Type } from '@sinclair/typebox';
import { Field, FormPage, ListFilters, Pagination, Picker, PostButton, TextArea, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { When } from '../ui/dates.js';
import type { TagUsage, Tagged } from './repository.js';
import { tagRecord, type TagService } from './service.js';
import { TagListInput } from './routes.js';

type TagRecord = ReturnType<typeof tagRecord>;
/** How many of each kind the tag page lists before "See all". */
const CARRIERS_SHOWN = 12;
const KINDS = [
  ['resource', 'Resources', '/resources', '/resource'],
  ['note', 'Notes', '/notes', '/note'],
  ['group', 'Groups', '/groups', '/group'],
] as const;

/** "3 resources · 1 note", each linking to the list filtered by the tag. */
function Usage(props: { id: number; usage: TagUsage }): SafeHtml {
  const parts = KINDS.filter(([k]) => props.usage[k] > 0).map(([k, , list]) => (
    <a href={`${list}?Tags=${props.id}`}>
      {props.usage[k]} {props.usage[k] === 1 ? k : `${k}s`}
    </a>
  ));
  if (parts.length === 0) return <span class="empty">unused</span>;
  return <span class="usage">{parts.map((p, i) => (i === 0 ? p : <span> · {p}</span>))}</span>;
}

function Carriers(props: { tagId: number; usage: TagUsage; carriers: Record<Tagged, { id: number; name: string }[]> }): SafeHtml {
  return (
    <div class="carriers" data-testid="tag-carriers">
      {KINDS.map(([kind, title, list, page]) => (
        <section class="card">
          <h2>
            {title} <small class="count">({props.usage[kind]})</small>
          </h2>
          {props.carriers[kind].length === 0 ? (
            <p class="empty">No {title.toLowerCase()} carry this tag yet.</p>
          ) : (
            <ul class="link-list">
              {props.carriers[kind].map((c) => (
                <li>
                  <a href={`${page}?id=${c.id}`}>{c.name}</a>
                </li>
              ))}
            </ul>
          )}
          {props.usage[kind] > props.carriers[kind].length ? <a href={`${list}?Tags=${props.tagId}`}>See all {props.usage[kind]}</a> : null}
        </section>
      ))}
    </div>
  );
}

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
      const usage = await tags.usage(rows.map((r) => r.id));
      return {
        pageTitle: 'Tags',
        tags: rows.map((r) => ({ ...tagRecord(r), Usage: usage.get(r.id) ?? { resource: 0, note: 0, group: 0 } })),
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
              <th>Used by</th>
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
                <td>
                  <Usage id={t.ID} usage={t.Usage} />
                </td>
                <td>
                  <When at={t.CreatedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.tags.length === 0 ? (
          <p class="empty">
            {Object.keys(queryOf(req)).length > 0 ? 'No tags match these filters.' : 'No tags yet. Tags are labels you put on resources, notes and groups to find them again; create one here or type a new one in any tag field.'}
          </p>
        ) : null}
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
      const [usage, carriers] = await Promise.all([tags.usage([id]), tags.carriers(id, CARRIERS_SHOWN)]);
      return {
        pageTitle: tag.Name,
        usage: usage.get(id),
        _carriers: carriers,
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
        <Carriers tagId={ctx.tag.ID} usage={ctx.usage ?? { resource: 0, note: 0, group: 0 }} carriers={ctx._carriers} />
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
