// Pages of one carrier kind: list, detail (configuration summary and a capped page of the
// entities it types, with the true total), new and edit forms with every slot.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { Checkbox, FormPage, Field, ListFilters, Pagination, PostButton, TextArea, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { CarrierListInput } from './routes.js';
import type { CarrierService } from './service.js';

const IdInput = Type.Object({ id: Type.Integer() });
const MEMBER_PAGE = 20;
const MEMBER_LINK = { groups: ['/group', '/groups?CategoryId='], resources: ['/resource', '/resources?ResourceCategoryId='], notes: ['/note', '/notes?NoteTypeId='] } as const;

function CarrierForm(props: { req: FastifyRequest; carriers: CarrierService; record?: Record<string, unknown> }): SafeHtml {
  const k = props.carriers.kind;
  const q = queryOf(props.req);
  const r = props.record;
  const value = (name: string) => firstOf(q[name]) || String(r?.[name] ?? '');
  return (
    <form method="post" action={r && k.api.edit ? k.api.edit : k.api.create} class="card form">
      <FormPage req={props.req} />
      {r ? <input type="hidden" name="ID" value={String(r.ID)} /> : null}
      <Field label="Name" name="Name" required value={value('Name')} />
      <TextArea label="Description" name="Description" value={value('Description')} />
      {Object.keys(k.flags).map((json) => (
        <Checkbox label="Apply templates to public share pages" name={json} checked={r?.[json] === true} />
      ))}
      {Object.keys(k.slots).map((json) => (
        <TextArea label={json} name={json} code rows={3} value={value(json)} />
      ))}
      {Object.keys(k.texts).map((json) => (
        <TextArea label={json} name={json} code rows={4} value={value(json)} hint="JSON rules that assign this category on upload" />
      ))}
      <TextArea label="Meta schema (JSON Schema)" name="MetaSchema" code rows={6} value={value('MetaSchema')} />
      <TextArea label="Section config (JSON object)" name="SectionConfig" code rows={4} value={value('SectionConfig')} />
      <button type="submit">{r ? 'Save' : `Create ${k.label}`}</button>
    </form>
  );
}

export function registerCarrierPages(app: FastifyInstance, layout: Layout, carriers: CarrierService): void {
  const k = carriers.kind;

  registerPage(app, layout, {
    path: k.pages.list,
    needs: 'read',
    load: async (req) => {
      const input = readParams(CarrierListInput, makeBag(req.query));
      const { rows, page, perPage } = await carriers.named.list(input);
      return {
        pageTitle: k.pages.title,
        [k.pages.list.slice(1)]: rows.map((r) => carriers.record(r)),
        items: rows.map((r) => ({ id: r.id, name: r.name, description: r.description })),
        pagination: { page, perPage },
        parsedQuery: input,
        _layout: {
          sidebar: <ListFilters req={req} action={k.pages.list} sortOptions={['name', 'created_at', 'updated_at']} />,
          actions: <a class="button" href={`${k.pages.detail}/new`}>New {k.label}</a>,
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <table class="list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {ctx.items.map((c) => (
              <tr>
                <td>
                  <a href={`${k.pages.detail}?id=${c.id}`}>{c.name}</a>
                </td>
                <td>{c.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {ctx.items.length === 0 ? <p class="empty">Nothing matches.</p> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.items.length} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: k.pages.detail,
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const row = await carriers.named.require(id);
      const record = carriers.record(row);
      const members = await carriers.members(row.id, MEMBER_PAGE);
      const slotsSet = Object.keys(k.slots).filter((s) => String(record[s] ?? '').trim() !== '');
      return {
        pageTitle: row.name,
        [k.entityType === 'resource_category' ? 'resourceCategory' : k.entityType === 'note_type' ? 'noteType' : 'category']: record,
        mainEntity: record,
        mainEntityType: k.entityType,
        summary: {
          schema: String(record.MetaSchema).trim() ? 'Defined' : 'None',
          sections: record.SectionConfig === '{}' ? 'Default' : 'Custom',
          slotsSet,
        },
        members: { total: members.total, items: members.rows },
        _membersTable: members.table,
        _layout: {
          sidebar: <Timestamps created={row.created_at} updated={row.updated_at} />,
          actions: (
            <span>
              <a class="button" href={`${k.pages.detail}/edit?id=${row.id}`}>
                Edit
              </a>{' '}
              <PostButton action={`${k.api.delete}?Id=${row.id}`} label="Delete" danger confirm={`Delete the ${k.label} "${row.name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => {
      const [detail, listBase] = MEMBER_LINK[ctx._membersTable];
      const id = (ctx.mainEntity as { ID: number }).ID;
      return (
        <div>
          <section class="card">
            <p class="description">{String((ctx.mainEntity as { Description: string }).Description) || 'No description.'}</p>
            <dl class="timestamps">
              <dt>Meta schema</dt>
              <dd>{ctx.summary.schema}</dd>
              <dt>Sections</dt>
              <dd>{ctx.summary.sections}</dd>
              <dt>Template slots set</dt>
              <dd>{ctx.summary.slotsSet.length ? ctx.summary.slotsSet.join(', ') : 'none'}</dd>
            </dl>
          </section>
          <section class="card">
            <h2>
              {ctx._membersTable} ({ctx.members.total})
            </h2>
            <ul>
              {ctx.members.items.map((m) => (
                <li>
                  <a href={`${detail}?id=${m.id}`}>{m.name}</a>
                </li>
              ))}
            </ul>
            {ctx.members.total > ctx.members.items.length ? <a href={`${listBase}${id}`}>See all {ctx.members.total}</a> : null}
          </section>
        </div>
      );
    },
  });

  registerPage(app, layout, {
    path: `${k.pages.detail}/new`,
    needs: 'read',
    load: async (req) => ({ pageTitle: `New ${k.label}`, errorMessage: firstOf(queryOf(req).error) || undefined }),
    view: (_ctx, req) => <CarrierForm req={req} carriers={carriers} />,
  });

  registerPage(app, layout, {
    path: `${k.pages.detail}/edit`,
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const record = carriers.record(await carriers.named.require(id));
      return { pageTitle: `Edit ${String(record.Name)}`, record, errorMessage: firstOf(queryOf(req).error) || undefined };
    },
    view: (ctx, req) => <CarrierForm req={req} carriers={carriers} record={ctx.record} />,
  });
}
