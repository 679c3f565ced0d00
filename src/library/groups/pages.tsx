// Group pages: list with filters, detail (breadcrumb, children, related and owned entities),
// create/edit forms, and a tree that loads children on demand (companion §6.4).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { Library } from '../context.js';
import { seenBy } from '../http/routes.js';
import { EmptyState, Field, FormPage, ListFilters, OptionSelect, Pagination, Picker, PostButton, TextArea, Timestamps, firstOf, queryOf, type PickerItem } from '../ui/components.js';
import { Markdown } from '../ui/markdown.js';
import { UploadTarget } from '../ui/upload.js';
import { picked } from '../ui/picked.js';
import { BulkBar, SelectBox, selectionScope } from '../ui/bulk.js';
import { carrierCss, describedHtml, listSlots, pageSlots } from '../ui/slots.js';
import type { PickRepository } from '../ui/repository.js';
import type { Shortcodes } from '../templates/index.js';
import { GroupListInput } from './filters.js';
import type { GroupService } from './service.js';
import type { CarrierService } from '../categories/service.js';
import type { GroupRecord } from './records.js';

const IdInput = Type.Object({ id: Type.Integer() });
type Detail = Awaited<ReturnType<GroupService['read']>>;

function GroupLink(props: { g: { ID: number; Name: string } }): SafeHtml {
  return <a href={`/group?id=${props.g.ID}`}>{props.g.Name}</a>;
}

function Breadcrumb(props: { chain: GroupRecord[] }): SafeHtml {
  return (
    <nav class="breadcrumb" aria-label="Breadcrumb">
      {props.chain.map((g, i) => (
        <span>
          {i > 0 ? ' › ' : ''}
          <GroupLink g={g} />
        </span>
      ))}
    </nav>
  );
}

function Section(props: { title: string; children?: unknown; empty: boolean; more?: string; moreLabel?: string }): SafeHtml {
  return (
    <section class="card">
      <h2>{props.title}</h2>
      {props.empty ? <p class="empty">None.</p> : (props.children as SafeHtml)}
      {props.more ? <a href={props.more}>{props.moreLabel ?? 'See all'}</a> : null}
    </section>
  );
}

function GroupForm(props: { req: FastifyRequest; group?: Detail; categories: { id: number; name: string }[] }): SafeHtml {
  const q = queryOf(props.req);
  const g = props.group;
  const value = (k: string, fallback: string | number | null | undefined) => firstOf(q[k]) || String(fallback ?? '');
  const categoryId = Number(value('CategoryId', g?.CategoryId));
  const owner = g?.Owner ? [{ id: g.Owner.ID, name: g.Owner.Name }] : [];
  return (
    <form method="post" action="/v1/group" class="card form">
      <FormPage req={props.req} />
      {g ? <input type="hidden" name="ID" value={g.ID} /> : null}
      <Field label="Name" name="Name" required value={value('Name', g?.Name)} />
      <TextArea label="Description" name="Description" value={value('Description', g?.Description)} mentions="resource,note,group,tag" hint="Markdown; type @ to mention a resource, note, group or tag." />
      <Field label="URL" name="URL" value={value('URL', g?.URL)} />
      <OptionSelect label="Category" name="CategoryId" options={[{ id: 0, name: 'none' }, ...props.categories]} selected={categoryId} />
      <Picker label="Owner (parent group)" name="OwnerId" source="/v1/groups" multiple={false} empty="0" selected={owner} />
      <Picker label="Tags" name="Tags" source="/v1/tags/suggest" selected={(g?.Tags ?? []).map((t) => ({ id: t.ID, name: t.Name }))} />
      <Picker label="Related groups" name="Groups" source="/v1/groups" selected={(g?.RelatedGroups ?? []).map((r) => ({ id: r.ID, name: r.Name }))} />
      <TextArea label="Meta (JSON object)" name="Meta" code value={value('Meta', g ? JSON.stringify(g.Meta, null, 2) : '{}')} />
      <button type="submit">{g ? 'Save' : 'Create group'}</button>
    </form>
  );
}

/** The group list's own filters, beside the common ones. */
function GroupFilters(props: { req: FastifyRequest; categories: { id: number; name: string }[]; tags: PickerItem[]; owner: PickerItem[] }): SafeHtml {
  const q = queryOf(props.req);
  return (
    <div class="filters-extra">
      <OptionSelect label="Category" name="CategoryId" options={props.categories} selected={firstOf(q.CategoryId)} empty="any" />
      <Picker label="Tags (all of them)" name="Tags" source="/v1/tags/suggest" selected={props.tags} />
      <Picker label="Owner" name="OwnerId" source="/v1/groups" multiple={false} selected={props.owner} />
      <Field label="URL" name="URL" value={firstOf(q.URL)} />
      <Field label="Meta query" name="MetaQuery" value={firstOf(q.MetaQuery)} placeholder="key:value or key:GT:3" />
    </div>
  );
}

export function registerGroupPages(app: FastifyInstance, layout: Layout, lib: Library, groups: GroupService, categoryService: CarrierService, shortcodes: Shortcodes, pickers: PickRepository): void {
  const categories = () => categoryService.options();

  registerPage(app, layout, {
    path: '/groups',
    needs: 'read',
    load: async (req) => {
      const input = readParams(GroupListInput, makeBag(req.query));
      const [{ rows, page, perPage }, cats, tagRows, ownerRows] = await Promise.all([
        groups.list(seenBy(req), input),
        categories(),
        picked(pickers, req, 'tags', input.Tags ?? []),
        picked(pickers, req, 'groups', [input.OwnerId]),
      ]);
      const extra = <GroupFilters req={req} categories={cats} tags={tagRows} owner={ownerRows} />;
      // Filtered to exactly one category, the list shows its list header, footer and CSS.
      const oneCategory = input.CategoryId ?? (input.Categories?.length === 1 ? input.Categories[0] : undefined);
      return {
        pageTitle: 'Groups',
        groups: rows,
        pagination: { page, perPage },
        parsedQuery: input,
        _slots: await listSlots(lib, shortcodes, req.principal, 'group', oneCategory),
        _layout: {
          sidebar: <ListFilters req={req} action="/groups" extra={extra} sortOptions={['name', 'created_at', 'updated_at']} />,
          actions: (
            <span>
              <a class="button" href="/group/tree">
                Tree
              </a>{' '}
              <a class="button" href="/group/new">
                New group
              </a>
            </span>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section x-data={selectionScope(ctx.groups.map((g) => g.ID))}>
        {ctx._slots.css}
        {ctx._slots.header}
        <BulkBar req={req} kind="groups" ops={{ tags: true, meta: true, compare: { path: '/group/compare', first: 'g1', second: 'g2' }, deleteConfirm: 'Delete the selected groups?' }} />
        <ul class="cards" data-testid="group-list">
          {ctx.groups.map((g) => (
            <li class="card">
              <SelectBox id={g.ID} name={g.Name} /> <GroupLink g={g} />
              {g.Category ? <small> · {g.Category.Name}</small> : null}
              <Markdown text={g.Description} />
              <p class="tags">{g.Tags.map((t) => <span class="tag">{t.Name}</span>)}</p>
            </li>
          ))}
        </ul>
        {ctx.groups.length === 0 ? <EmptyState req={req} filtered="No groups match these filters." intro="Groups hold resources, notes and other groups: a project, a person, a trip. They can nest, carry tags and relate to each other." start={{ href: '/group/new', label: 'Create the first group.' }} /> : null}
        {ctx._slots.footer}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.groups.length} />
      </section>
    ),
  });

  registerPage(app, layout, {
    path: '/group',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const [group, parents] = await Promise.all([groups.read(seenBy(req), id), groups.parents(seenBy(req), id)]);
      const slots = await pageSlots(shortcodes, req.principal, 'group', group, ['custom_header', 'custom_sidebar', 'custom_own_entities', 'custom_detail_footer']);
      return {
        _description: await describedHtml(shortcodes, req.principal, 'group', group, group.Description, { class: 'description', empty: 'No description.' }),
        pageTitle: group.Name,
        group,
        mainEntity: group,
        mainEntityType: 'group',
        _slots: slots,
        _css: await carrierCss(lib, 'group', group.CategoryId),
        _layout: {
          pluginTarget: { entity: 'group', id: group.ID, categoryId: group.CategoryId ?? undefined },
          breadcrumb: <Breadcrumb chain={parents} />,
          sidebar: (
            <div>
              <Timestamps created={group.CreatedAt} updated={group.UpdatedAt} />
              {slots.custom_sidebar}
              <p>Category: {group.Category ? group.Category.Name : 'none'}</p>
              <p>Owner: {group.Owner ? <GroupLink g={group.Owner} /> : 'none'}</p>
              <p>
                <a href={`/group/tree?containing=${group.ID}`}>Show in tree</a>
              </p>
              <p>
                <a href={`/admin/export?groups=${group.ID}`}>Export</a>
              </p>
              <PostButton action="/v1/group/clone" label="Clone" fields={{ ID: group.ID }} />
              <form method="post" action="/v1/groups/merge" class="card form" data-testid="merge-form">
                <FormPage req={req} />
                <input type="hidden" name="Winner" value={group.ID} />
                <Picker label="Merge into this group" name="Losers" source="/v1/groups" selected={[]} hint="The picked groups are deleted; everything they held moves here." />
                <button type="submit">Merge</button>
              </form>
            </div>
          ),
          actions: (
            <span>
              <a class="button" href={`/group/edit?id=${group.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/group/delete?Id=${group.ID}`} label="Delete" danger confirm={`Delete the group "${group.Name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => {
      const g = ctx.group;
      return (
        <div>
          {ctx._css}
          {ctx._slots.custom_header}
          <section class="card">
            {ctx._description}
            {g.URL ? <a href={g.URL} rel="noopener noreferrer">{g.URL}</a> : null}
            <p class="tags">{g.Tags.map((t) => <a class="tag" href={`/tag?id=${t.ID}`}>{t.Name}</a>)}</p>
            <pre>{JSON.stringify(g.Meta, null, 2)}</pre>
          </section>
          {ctx._slots.custom_own_entities ? (
            <section class="card">
              <h2>Own entities</h2>
              {ctx._slots.custom_own_entities}
            </section>
          ) : (
            <div>
          <Section title="Sub-groups" empty={g.OwnGroups.length === 0} more={`/groups?OwnerId=${g.ID}`}>
            <ul>{g.OwnGroups.map((c) => <li><GroupLink g={c} /></li>)}</ul>
          </Section>
          <Section title="Own notes" empty={g.OwnNotes.length === 0} more={`/notes?OwnerId=${g.ID}`}>
            <ul>{g.OwnNotes.map((n) => <li><a href={`/note?id=${n.ID}`}>{n.Name}</a></li>)}</ul>
          </Section>
          <Section title="Own resources" empty={g.OwnResources.length === 0} more={`/resources?OwnerId=${g.ID}`}>
            <ul>{g.OwnResources.map((r) => <li><a href={`/resource?id=${r.ID}`}>{r.Name}</a></li>)}</ul>
          </Section>
            </div>
          )}
          <Section title="Related groups" empty={g.RelatedGroups.length === 0}>
            <ul>{g.RelatedGroups.map((c) => <li><GroupLink g={c} /></li>)}</ul>
          </Section>
          <Section title="Related notes" empty={g.RelatedNotes.length === 0}>
            <ul>{g.RelatedNotes.map((n) => <li><a href={`/note?id=${n.ID}`}>{n.Name}</a></li>)}</ul>
          </Section>
          <Section title="Related resources" empty={g.RelatedResources.length === 0}>
            <ul>{g.RelatedResources.map((r) => <li><a href={`/resource?id=${r.ID}`}>{r.Name}</a></li>)}</ul>
          </Section>
          <Section title="Relations" empty={g.Relationships.length === 0} more={`/relation/new?FromGroupId=${g.ID}`} moreLabel="Add relation">
            <ul>
              {g.Relationships.map((r) => (
                <li>
                  <a href={`/relation?id=${r.Id}`}>{r.RelationType.Name}</a> → <GroupLink g={r.ToGroup!} />
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Reverse relations" empty={g.BackRelations.length === 0} more={`/relation/new?ToGroupId=${g.ID}`} moreLabel="Add relation">
            <ul>
              {g.BackRelations.map((r) => (
                <li>
                  <GroupLink g={r.FromGroup!} /> → <a href={`/relation?id=${r.Id}`}>{r.RelationType.Name}</a>
                </li>
              ))}
            </ul>
          </Section>
          <UploadTarget ownerId={g.ID} groupId={g.ID} where="to this group" />
          {ctx._slots.custom_detail_footer}
        </div>
      );
    },
  });

  registerPage(app, layout, {
    path: '/group/new',
    needs: 'read',
    load: async (req) => ({ pageTitle: 'New group', errorMessage: firstOf(queryOf(req).error) || undefined, _categories: await categories() }),
    view: (ctx, req) => <GroupForm req={req} categories={ctx._categories} />,
  });

  registerPage(app, layout, {
    path: '/group/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const group = await groups.read(seenBy(req), id);
      return { pageTitle: `Edit ${group.Name}`, group, errorMessage: firstOf(queryOf(req).error) || undefined, _categories: await categories() };
    },
    view: (ctx, req) => <GroupForm req={req} group={ctx.group} categories={ctx._categories} />,
  });

  registerPage(app, layout, {
    path: '/group/tree',
    needs: 'read',
    load: async (req) => {
      const q = readParams(Type.Object({ root: Type.Optional(Type.Integer()), containing: Type.Optional(Type.Integer()) }), makeBag(req.query));
      // With `containing`, open the path from its root down to it.
      const path = q.containing ? (await groups.parents(seenBy(req), q.containing)).map((g) => g.ID) : [];
      const rootId = q.root ?? path[0] ?? 0;
      const roots = rootId ? [await groups.named.require(rootId, seenBy(req))].map((g) => ({ id: g.id, name: g.name, categoryName: null, childCount: 1, ownerId: g.owner_id })) : await groups.treeChildren(seenBy(req), 0, 50);
      return { pageTitle: 'Group tree', roots, open: path, highlight: q.containing ?? null };
    },
    view: (ctx) => (
      <section class="card">
        <ul id="group-tree" class="tree" data-open={JSON.stringify(ctx.open)} data-highlight={ctx.highlight ?? ''}>
          {ctx.roots.map((n) => (
            <li data-id={n.id} data-count={n.childCount}>
              <a href={`/group?id=${n.id}`}>{n.name}</a>
              {n.categoryName ? <small> · {n.categoryName}</small> : null}
            </li>
          ))}
        </ul>
        {ctx.roots.length === 50 ? <p class="empty">Showing the first 50 root groups.</p> : null}
        <script src="/public/group-tree.js"></script>
      </section>
    ),
  });
}
