// Relation type and relation pages (companion §6.4): lists, details showing the category flow
// and both ends, and forms; the new-relation form pre-fills from its query parameters.
import type { PickRepository } from '../ui/repository.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { Library } from '../context.js';
import { seenBy } from '../http/routes.js';
import { Field, FormPage, ListFilters, OptionSelect, Pagination, Picker, PostButton, TextArea, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { picked } from '../ui/picked.js';
import { relationTypeRecord, type RelationRecord, type RelationTypeRecord } from './records.js';
import { RelationListInput, RelationTypeListInput } from './routes.js';
import type { RelationTypeService } from './types.js';
import type { RelationService } from './service.js';
import type { CarrierService } from '../categories/service.js';

const IdInput = Type.Object({ id: Type.Integer() });
type Option = { id: number; name: string };

function CategoryName(props: { c: { ID: number; Name: string } | null }): SafeHtml {
  return props.c ? <a href={`/category?id=${props.c.ID}`}>{props.c.Name}</a> : <span class="empty">no category</span>;
}

function TypeForm(props: { req: FastifyRequest; type?: RelationTypeRecord; categories: Option[] }): SafeHtml {
  const q = queryOf(props.req);
  const t = props.type;
  const value = (k: string, fallback: string | number | null | undefined) => firstOf(q[k]) || String(fallback ?? '');
  return (
    <form method="post" action={t ? '/v1/relationType/edit' : '/v1/relationType'} class="card form">
      <FormPage req={props.req} />
      {t ? <input type="hidden" name="Id" value={t.ID} /> : null}
      <Field label="Name" name="Name" required value={value('Name', t?.Name)} />
      <Field label="Reverse name" name="ReverseName" value={value('ReverseName', t?.BackRelation?.Name)} hint="Creates or links the type going the other way; the same name makes the type its own reverse." />
      <TextArea label="Description" name="Description" value={value('Description', t?.Description)} />
      <OptionSelect label="From category" name="FromCategory" options={props.categories} selected={Number(value('FromCategory', t?.FromCategoryId))} />
      <OptionSelect label="To category" name="ToCategory" options={props.categories} selected={Number(value('ToCategory', t?.ToCategoryId))} />
      <button type="submit">{t ? 'Save' : 'Create relation type'}</button>
    </form>
  );
}

/** The picked group for a single picker, by the id the form carries. */
function endOf(ends: Option[], id: string): { id: number; name: string }[] {
  return ends.filter((e) => String(e.id) === id);
}

function RelationForm(props: { req: FastifyRequest; relation?: RelationRecord; types: Option[]; ends: Option[] }): SafeHtml {
  const q = queryOf(props.req);
  const r = props.relation;
  const value = (k: string, fallback: string | number | null | undefined) => firstOf(q[k]) || String(fallback ?? '');
  return (
    <form method="post" action="/v1/relation" class="card form">
      <FormPage req={props.req} />
      {r ? <input type="hidden" name="Id" value={r.Id} /> : null}
      <Picker label="From group" name="FromGroupId" source="/v1/groups" multiple={false} selected={endOf(props.ends, value('FromGroupId', r?.FromGroupId))} />
      <OptionSelect label="Relation type" name="GroupRelationTypeId" options={props.types} selected={Number(value('GroupRelationTypeId', r?.GroupRelationTypeId))} />
      <Picker label="To group" name="ToGroupId" source="/v1/groups" multiple={false} selected={endOf(props.ends, value('ToGroupId', r?.ToGroupId))} />
      <Field label="Name" name="Name" value={value('Name', r?.Name)} />
      <TextArea label="Description" name="Description" value={value('Description', r?.Description)} />
      <button type="submit">{r ? 'Save' : 'Create relation'}</button>
    </form>
  );
}

export function registerRelationPages(
  app: FastifyInstance,
  layout: Layout,
  lib: Library,
  services: { types: RelationTypeService; relations: RelationService; categories: CarrierService; pickers: PickRepository },
): void {
  const { types, relations } = services;
  const categories = () => services.categories.options();
  const typeOptions = () => types.options();
  const errorOf = (req: FastifyRequest) => firstOf(queryOf(req).error) || undefined;
  /** Names of the groups a relation form starts with (from the relation or the query). */
  const endsOf = async (req: FastifyRequest, r?: RelationRecord) => {
    const q = queryOf(req);
    return picked(services.pickers, req, 'groups', [firstOf(q.FromGroupId), firstOf(q.ToGroupId), r?.FromGroupId, r?.ToGroupId].map(Number));
  };

  registerPage(app, layout, {
    path: '/relationTypes',
    needs: 'read',
    load: async (req) => {
      const input = readParams(RelationTypeListInput, makeBag(req.query));
      const [{ rows, page, perPage }, cats] = await Promise.all([types.list(input), categories()]);
      const name = (id: number | null) => cats.find((c) => c.id === id)?.name ?? '';
      return {
        pageTitle: 'Relation types',
        relationTypes: rows.map((r) => ({ ...relationTypeRecord(r), FromCategoryName: name(r.from_category_id), ToCategoryName: name(r.to_category_id) })),
        pagination: { page, perPage },
        parsedQuery: input,
        _layout: {
          sidebar: <ListFilters req={req} action="/relationTypes" sortOptions={['name', 'created_at']} />,
          actions: (
            <a class="button" href="/relationType/new">
              New relation type
            </a>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <table class="list" data-testid="relation-type-list">
          <thead>
            <tr>
              <th>Name</th>
              <th>From</th>
              <th>To</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {ctx.relationTypes.map((t) => (
              <tr>
                <td>
                  <a href={`/relationType?id=${t.ID}`}>{t.Name}</a>
                </td>
                <td>{t.FromCategoryName}</td>
                <td>{t.ToCategoryName}</td>
                <td>{t.Description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.relationTypes.length === 0 ? <p class="empty">No relation types match.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.relationTypes.length} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/relationType',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const relationType = await types.read(id);
      return {
        pageTitle: relationType.Name,
        relationType,
        mainEntity: relationType,
        mainEntityType: 'relationType',
        _layout: {
          sidebar: <Timestamps created={relationType.CreatedAt} updated={relationType.UpdatedAt} />,
          actions: (
            <span>
              <a class="button" href={`/relationType/edit?id=${relationType.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/relationType/delete?Id=${relationType.ID}`} label="Delete" danger confirm={`Delete "${relationType.Name}" and every relation of this type?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => {
      const t = ctx.relationType;
      return (
        <section class="card">
          <p class="flow">
            <CategoryName c={t.FromCategory} /> → <strong>{t.Name}</strong> → <CategoryName c={t.ToCategory} />
          </p>
          <p>
            Reverse:{' '}
            {t.BackRelation ? <a href={`/relationType?id=${t.BackRelation.ID}`}>{t.BackRelation.Name}</a> : <span class="empty">none</span>}
          </p>
          <p class="description">{t.Description}</p>
          <a href={`/relations?GroupRelationTypeId=${t.ID}`}>Relations of this type</a>
        </section>
      );
    },
  });

  registerPage(app, layout, {
    path: '/relationType/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New relation type', errorMessage: errorOf(req), _categories: await categories() }),
    view: (ctx, req) => <TypeForm req={req} categories={ctx._categories} />,
  });

  registerPage(app, layout, {
    path: '/relationType/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const relationType = await types.read(id);
      return { pageTitle: `Edit ${relationType.Name}`, relationType, errorMessage: errorOf(req), _categories: await categories() };
    },
    view: (ctx, req) => <TypeForm req={req} type={ctx.relationType} categories={ctx._categories} />,
  });

  registerPage(app, layout, {
    path: '/relations',
    needs: 'read',
    load: async (req) => {
      const input = readParams(RelationListInput, makeBag(req.query));
      const { rows, page, perPage } = await relations.list(seenBy(req), input);
      return {
        pageTitle: 'Relations',
        relations: rows,
        pagination: { page, perPage },
        parsedQuery: input,
        _layout: {
          actions: (
            <a class="button" href="/relation/new">
              New relation
            </a>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <table class="list" data-testid="relation-list">
          <thead>
            <tr>
              <th>From</th>
              <th>Type</th>
              <th>To</th>
              <th>Name</th>
            </tr>
          </thead>
          <tbody>
            {ctx.relations.map((r) => (
              <tr>
                <td>
                  <a href={`/group?id=${r.FromGroupId}`}>{r.FromGroup?.Name}</a>
                </td>
                <td>
                  <a href={`/relation?id=${r.Id}`}>{r.RelationTypeName}</a>
                </td>
                <td>
                  <a href={`/group?id=${r.ToGroupId}`}>{r.ToGroup?.Name}</a>
                </td>
                <td>{r.Name}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.relations.length === 0 ? <p class="empty">No relations match.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.relations.length} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/relation',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const relation = await relations.read(seenBy(req), id);
      const title = `${relation.FromGroup?.Name} → ${relation.RelationType?.Name} → ${relation.ToGroup?.Name}`;
      return {
        pageTitle: title,
        relation,
        mainEntity: relation,
        mainEntityType: 'relation',
        _layout: {
          sidebar: <Timestamps created={relation.CreatedAt} updated={relation.UpdatedAt} />,
          actions: (
            <span>
              <a class="button" href={`/relation/edit?id=${relation.Id}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/relation/delete?Id=${relation.Id}`} label="Delete" danger confirm="Delete this relation?" />
            </span>
          ),
        },
      };
    },
    view: (ctx) => {
      const r = ctx.relation;
      return (
        <section class="card">
          <p class="flow">
            <a href={`/group?id=${r.FromGroupId}`}>{r.FromGroup?.Name}</a> → <a href={`/relationType?id=${r.GroupRelationTypeId}`}>{r.RelationType?.Name}</a> →{' '}
            <a href={`/group?id=${r.ToGroupId}`}>{r.ToGroup?.Name}</a>
          </p>
          {r.Name ? <p>{r.Name}</p> : null}
          <p class="description">{r.Description}</p>
        </section>
      );
    },
  });

  registerPage(app, layout, {
    path: '/relation/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New relation', errorMessage: errorOf(req), _types: await typeOptions(), _ends: await endsOf(req) }),
    view: (ctx, req) => <RelationForm req={req} types={ctx._types} ends={ctx._ends} />,
  });

  registerPage(app, layout, {
    path: '/relation/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const relation = await relations.read(seenBy(req), id);
      return { pageTitle: 'Edit relation', relation, errorMessage: errorOf(req), _types: await typeOptions(), _ends: await endsOf(req, relation) };
    },
    view: (ctx, req) => <RelationForm req={req} relation={ctx.relation} types={ctx._types} ends={ctx._ends} />,
  });
}
