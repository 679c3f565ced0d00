// Note pages (companion §6.4): the list with its filters and bulk actions, the note page with its
// blocks (view mode, and the block editor of public/block-editor.js), the reading layout, the
// create/edit form, and the admin page of shared notes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { Library } from '../context.js';
import { can } from '../auth/principal.js';
import { forbidden } from '../../core/http/errors.js';
import { Field, FormPage, Pagination, PostButton, TextArea, Timestamps, firstOf, listOf, queryOf } from '../ui/components.js';
import { BlockList } from '../blocks/render.js';
import type { BlockService } from '../blocks/service.js';
import { loadBlockViews } from '../blocks/view.js';
import type { ShareService } from '../sharing/service.js';
import { styleText, templateHtml } from '../sharing/templates.js';
import { NoteListInput } from './filters.js';
import { formDate } from './dates.js';
import type { NoteService } from './service.js';

const IdInput = Type.Object({ id: Type.Integer() });
type Detail = Awaited<ReturnType<NoteService['read']>>;
type Listed = Awaited<ReturnType<NoteService['present']>>[number];

const SORTS = ['name', 'created_at', 'updated_at', 'start_date', 'end_date'];

function NoteFilters(props: { req: FastifyRequest; types: { id: number; name: string }[] }): SafeHtml {
  const q = queryOf(props.req);
  const v = (k: string) => firstOf(q[k]);
  const sorts = listOf(q.SortBy);
  const shared = v('Shared');
  return (
    <form method="get" action="/notes" class="filters">
      <h2>Filters</h2>
      <Field label="Name" name="Name" value={v('Name')} />
      <Field label="Text" name="Description" value={v('Description')} />
      <label class="field">
        <span>Note type</span>
        <select name="NoteTypeId">
          <option value="">any</option>
          {props.types.map((t) => (
            <option value={t.id} selected={String(t.id) === v('NoteTypeId')}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <Field label="Tags (ids, all of them)" name="Tags" value={listOf(q.Tags).join(',')} />
      <Field label="Groups (ids)" name="Groups" value={listOf(q.Groups).join(',')} />
      <Field label="Owner group id" name="OwnerId" type="number" value={v('OwnerId')} />
      <Field label="Starts after" name="StartDateAfter" type="date" value={v('StartDateAfter')} />
      <Field label="Starts before" name="StartDateBefore" type="date" value={v('StartDateBefore')} />
      <Field label="Ends after" name="EndDateAfter" type="date" value={v('EndDateAfter')} />
      <Field label="Ends before" name="EndDateBefore" type="date" value={v('EndDateBefore')} />
      <Field label="Created after" name="CreatedAfter" type="date" value={v('CreatedAfter')} />
      <Field label="Created before" name="CreatedBefore" type="date" value={v('CreatedBefore')} />
      <label class="field">
        <span>Shared</span>
        <select name="Shared">
          <option value="">all notes</option>
          <option value="true" selected={shared === 'true' || shared === '1'}>
            only shared
          </option>
          <option value="false" selected={shared === 'false' || shared === '0'}>
            only unshared
          </option>
        </select>
      </label>
      <Field label="Meta query (key:value)" name="MetaQuery" value={v('MetaQuery')} />
      <label class="field">
        <span>Sort by</span>
        <select name="SortBy">
          <option value="">Newest first</option>
          {SORTS.flatMap((col) =>
            ['asc', 'desc'].map((dir) => (
              <option value={`${col} ${dir}`} selected={sorts.includes(`${col} ${dir}`)}>
                {col.replace(/_/g, ' ')} {dir === 'asc' ? '↑' : '↓'}
              </option>
            )),
          )}
        </select>
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function NoteCard(props: { n: Listed }): SafeHtml {
  const n = props.n;
  const preview = n.Description.length > 240 ? `${n.Description.slice(0, 240)}…` : n.Description;
  return (
    <li class="card note-card">
      <label class="select">
        <input type="checkbox" name="ID" value={n.ID} form="note-bulk" aria-label={`Select ${n.Name}`} />
      </label>
      {n.NoteType && String(n.NoteType.CustomAvatar ?? '').trim() !== '' ? <span class="avatar">{templateHtml(String(n.NoteType.CustomAvatar), 'page')}</span> : null}
      <a href={`/note?id=${n.ID}`} class="note-title">
        {n.Name}
      </a>
      {n.NoteType ? <small> · {String(n.NoteType.Name)}</small> : null}
      {n.hasShare ? <small class="badge"> shared</small> : null}
      {n.StartDate ? <small class="dates"> {n.StartDate.slice(0, 16).replace('T', ' ')}{n.EndDate ? ` → ${n.EndDate.slice(0, 16).replace('T', ' ')}` : ''}</small> : null}
      {preview ? <p class="preview">{preview}</p> : null}
      <p class="tags">{n.Tags.map((t) => <span class="tag">{t.Name}</span>)}</p>
    </li>
  );
}

function BulkBar(props: { req: FastifyRequest }): SafeHtml {
  return (
    <form id="note-bulk" method="post" action="/v1/notes/addTags" class="bulk card">
      <FormPage req={props.req} />
      <strong>With the selected notes:</strong>
      <input type="text" name="EditedId" placeholder="tag or group ids" aria-label="Tag or group ids" />
      <button type="submit" formaction="/v1/notes/addTags">
        Add tags
      </button>
      <button type="submit" formaction="/v1/notes/removeTags">
        Remove tags
      </button>
      <button type="submit" formaction="/v1/notes/addGroups">
        Add groups
      </button>
      <input type="text" name="Meta" placeholder='{"key": "value"}' aria-label="Meta to merge" />
      <button type="submit" formaction="/v1/notes/addMeta">
        Add meta
      </button>
      <button type="submit" class="danger" formaction="/v1/notes/delete">
        Delete
      </button>
    </form>
  );
}

function NoteForm(props: { req: FastifyRequest; note?: Detail; types: { id: number; name: string }[]; groups: { id: number; name: string }[] }): SafeHtml {
  const q = queryOf(props.req);
  const n = props.note;
  const value = (k: string, fallback: string | number | null | undefined) => (q[k] !== undefined ? firstOf(q[k]) : String(fallback ?? ''));
  const ids = (k: string, list: { ID: number }[] | undefined) => (q[k] !== undefined ? listOf(q[k]).join(',') : (list ?? []).map((x) => x.ID).join(','));
  const typeId = value('NoteTypeId', n?.NoteTypeId);
  const ownerId = value('OwnerId', n?.OwnerId);
  return (
    <form method="post" action="/v1/note" class="card form" data-testid="note-form">
      <FormPage req={props.req} />
      {n ? <input type="hidden" name="ID" value={n.ID} /> : null}
      <Field label="Title" name="Name" required value={value('Name', n?.Name)} />
      <TextArea label="Text" name="Description" rows={8} value={value('Description', n?.Description)} hint="Mirrors the first text block once the note has blocks." />
      <div class="row">
        <Field label="Start" name="StartDate" type="datetime-local" value={value('StartDate', formDate(n?.StartDate ?? null))} />
        <Field label="End" name="EndDate" type="datetime-local" value={value('EndDate', formDate(n?.EndDate ?? null))} />
      </div>
      <label class="field">
        <span>Note type</span>
        <select name="NoteTypeId">
          <option value="0">none</option>
          {props.types.map((t) => (
            <option value={t.id} selected={String(t.id) === typeId}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Owner group</span>
        <select name="OwnerId">
          <option value="0">none</option>
          {ownerId && ownerId !== '0' && !props.groups.some((g) => String(g.id) === ownerId) ? (
            <option value={ownerId} selected>
              {n?.Owner ? n.Owner.Name : `group ${ownerId}`}
            </option>
          ) : null}
          {props.groups.map((g) => (
            <option value={g.id} selected={String(g.id) === ownerId}>
              {g.name}
            </option>
          ))}
        </select>
      </label>
      <Field label="Related groups (ids, comma-separated)" name="Groups" value={ids('Groups', n?.Groups)} hint={n && n.Groups.length ? n.Groups.map((g) => `${g.ID} ${g.Name}`).join(', ') : undefined} />
      <Field label="Tags (ids, comma-separated)" name="Tags" value={ids('Tags', n?.Tags)} hint={n && n.Tags.length ? n.Tags.map((t) => `${t.ID} ${t.Name}`).join(', ') : undefined} />
      <Field label="Resources (ids, comma-separated)" name="Resources" value={ids('Resources', n?.Resources)} hint={n && n.Resources.length ? n.Resources.map((r) => `${r.ID} ${r.Name}`).join(', ') : undefined} />
      <TextArea label="Meta (JSON object)" name="Meta" code value={value('Meta', n ? JSON.stringify(n.Meta, null, 2) : '{}')} />
      <button type="submit">{n ? 'Save' : 'Create note'}</button>
    </form>
  );
}

function Sharing(props: { note: Detail; sharing: ShareService }): SafeHtml {
  const { note, sharing } = props;
  const base = sharing.publicBase;
  if (note.shareToken) {
    const path = `/s/${note.shareToken}`;
    const link = base ? `${base}${path}` : path;
    return (
      <section class="sharing" data-testid="sharing">
        <h2>Sharing</h2>
        <p>
          Shared since {String(note.shareCreatedAt ?? '').slice(0, 10)}: <a href={base ? link : undefined} data-share-url={link} class="share-link">{link}</a>
        </p>
        {!base ? <p class="hint">This is the path on the share server; set -share-public-url to show full links.</p> : null}
        <button type="button" class="copy-share" data-copy={link}>
          Copy link
        </button>{' '}
        <button type="button" class="danger unshare" data-note-id={note.ID}>
          Unshare
        </button>
      </section>
    );
  }
  return (
    <section class="sharing" data-testid="sharing">
      <h2>Sharing</h2>
      {sharing.running ? (
        <PostButton action={`/v1/note/share?noteId=${note.ID}`} label="Share" />
      ) : (
        <p class="hint">Sharing is off: start the service with -share-port to share notes.</p>
      )}
    </section>
  );
}

export function registerNotePages(app: FastifyInstance, layout: Layout, lib: Library, notes: NoteService, blocks: BlockService, sharing: ShareService): void {
  const noteTypes = () => lib.db.selectFrom('note_types').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  const someGroups = () => lib.db.selectFrom('groups').select(['id', 'name']).orderBy('name').limit(500).execute();

  registerPage(app, layout, {
    path: '/notes',
    load: async (req) => {
      const input = readParams(NoteListInput, makeBag(req.query));
      const [{ rows, page, perPage }, total, types] = await Promise.all([notes.list(input), notes.count(input), noteTypes()]);
      // Filtered to one note type, the list shows that type's list header, footer and CSS.
      const oneType = input.NoteTypeId ?? (input.NoteTypeIds?.length === 1 ? input.NoteTypeIds[0] : undefined);
      const typeRow = oneType === undefined ? undefined : await lib.db.selectFrom('note_types').selectAll().where('id', '=', oneType).executeTakeFirst();
      return {
        pageTitle: 'Notes',
        notes: rows,
        _slots: typeRow ? { header: typeRow.custom_list_header, footer: typeRow.custom_list_footer, css: typeRow.custom_css } : null,
        pagination: { page, perPage, total },
        parsedQuery: input,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          sidebar: <NoteFilters req={req} types={types} />,
          actions: (
            <a class="button" href="/note/new">
              New note
            </a>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section>
        <link rel="stylesheet" href="/public/notes.css" />
        {ctx._slots?.css ? <style>{styleText(ctx._slots.css)}</style> : null}
        {ctx._slots?.header ? <div class="custom-list-header">{templateHtml(ctx._slots.header, 'page')}</div> : null}
        <BulkBar req={req} />
        <ul class="cards" data-testid="note-list">
          {ctx.notes.map((n) => (
            <NoteCard n={n} />
          ))}
        </ul>
        {ctx.notes.length === 0 ? <p class="empty">No notes match.</p> : null}
        {ctx._slots?.footer ? <div class="custom-list-footer">{templateHtml(ctx._slots.footer, 'page')}</div> : null}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.notes.length} total={ctx.pagination.total} />
      </section>
    ),
  });

  const loadNote = async (req: FastifyRequest) => {
    const { id } = readParams(IdInput, makeBag(req.query));
    const note = await notes.read(id);
    const list = await blocks.blocksOf(note.ID);
    const data = await loadBlockViews(lib, list);
    return { note, list, data };
  };

  registerPage(app, layout, {
    path: '/note',
    load: async (req) => {
      const { note, list, data } = await loadNote(req);
      const types = await blocks.types();
      const t = note.NoteType as Record<string, string> | null;
      return {
        pageTitle: note.Name,
        note,
        blocks: list,
        blockTypes: types.map((x) => x.type),
        mainEntity: note,
        mainEntityType: 'note',
        shareServerRunning: sharing.running,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _data: data,
        _types: types,
        _layout: {
          sidebar: (
            <div>
              <Timestamps created={note.CreatedAt} updated={note.UpdatedAt} />
              {t?.CustomSidebar ? <div class="custom-sidebar">{templateHtml(t.CustomSidebar, 'page')}</div> : null}
              <p>Owner: {note.Owner ? <a href={`/group?id=${note.Owner.ID}`}>{note.Owner.Name}</a> : 'none'}</p>
              <p>Note type: {t ? <a href={`/noteType?id=${t.ID}`}>{t.Name}</a> : 'none'}</p>
              <p class="tags">
                Tags:{' '}
                {note.Tags.length
                  ? note.Tags.map((tag) => (
                      <a class="tag" href={`/tag?id=${tag.ID}`}>
                        {tag.Name}
                      </a>
                    ))
                  : 'none'}
              </p>
              {Object.keys(note.Meta).length ? <pre class="meta">{JSON.stringify(note.Meta, null, 2)}</pre> : null}
              <Sharing note={note} sharing={sharing} />
            </div>
          ),
          actions: (
            <span>
              <a class="button" href={`/note/text?id=${note.ID}`}>
                Wide display
              </a>{' '}
              <a class="button" href={`/note/edit?id=${note.ID}`}>
                Edit
              </a>{' '}
              <PostButton action={`/v1/note/delete?Id=${note.ID}`} label="Delete" danger confirm={`Delete the note "${note.Name}"?`} />
            </span>
          ),
        },
      };
    },
    view: (ctx) => {
      const n = ctx.note;
      const t = n.NoteType as Record<string, string> | null;
      const hasText = ctx.blocks.some((b) => b.type === 'text');
      return (
        <div class="note-page">
          <link rel="stylesheet" href="/public/notes.css" />
          {t?.CustomCSS ? <style>{styleText(t.CustomCSS)}</style> : null}
          {t?.CustomHeader ? <div class="custom-header">{templateHtml(t.CustomHeader, 'page')}</div> : null}
          {n.StartDate || n.EndDate ? (
            <p class="note-dates">
              {n.StartDate ? `Starts ${n.StartDate.slice(0, 16).replace('T', ' ')}` : ''}
              {n.StartDate && n.EndDate ? ' · ' : ''}
              {n.EndDate ? `Ends ${n.EndDate.slice(0, 16).replace('T', ' ')}` : ''}
            </p>
          ) : null}
          <section class="card note-body" id="note-blocks" data-note-id={n.ID} data-block-types={JSON.stringify(ctx._types)}>
            {!hasText && n.Description ? <div class="block-text note-description">{n.Description}</div> : null}
            <BlockList blocks={ctx.blocks} ctx={{ mode: 'app', data: ctx._data }} />
            {ctx.blocks.length === 0 && !n.Description ? <p class="empty no-blocks">This note is empty. Edit its blocks to add text, todos, tables and more.</p> : null}
            <div class="block-toolbar">
              <button type="button" id="edit-blocks" class="secondary">
                Edit blocks
              </button>
            </div>
          </section>
          <section class="card">
            <h2>Related groups</h2>
            {n.Groups.length ? (
              <ul>
                {n.Groups.map((g) => (
                  <li>
                    <a href={`/group?id=${g.ID}`}>{g.Name}</a>
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">None.</p>
            )}
          </section>
          <section class="card">
            <h2>Resources</h2>
            {n.Resources.length ? (
              <ul>
                {n.Resources.map((r) => (
                  <li>
                    <a href={`/resource?id=${r.ID}`}>{r.Name}</a> <small>{r.ContentType}</small>
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">None.</p>
            )}
          </section>
          {t?.CustomDetailFooter ? <div class="custom-footer">{templateHtml(t.CustomDetailFooter, 'page')}</div> : null}
          <script src="/public/note-blocks.js"></script>
          <script src="/public/block-editor.js"></script>
          <script src="/public/note-page.js"></script>
        </div>
      );
    },
  });

  registerPage(app, layout, {
    path: '/note/text',
    load: async (req) => {
      const { note, list, data } = await loadNote(req);
      return { pageTitle: note.Name, note, blocks: list, mainEntity: note, mainEntityType: 'note', _data: data };
    },
    view: (ctx) => (
      <article class="note-reading">
        <link rel="stylesheet" href="/public/notes.css" />
        {!ctx.blocks.some((b) => b.type === 'text') && ctx.note.Description ? <div class="block-text note-description">{ctx.note.Description}</div> : null}
        <BlockList blocks={ctx.blocks} ctx={{ mode: 'app', data: ctx._data }} />
        <p>
          <a href={`/note?id=${ctx.note.ID}`}>Back to the note</a>
        </p>
        <script src="/public/note-blocks.js"></script>
      </article>
    ),
  });

  registerPage(app, layout, {
    path: '/note/new',
    load: async (req) => ({
      pageTitle: 'New note',
      errorMessage: firstOf(queryOf(req).error) || undefined,
      _types: await noteTypes(),
      _groups: await someGroups(),
    }),
    view: (ctx, req) => <NoteForm req={req} types={ctx._types} groups={ctx._groups} />,
  });

  registerPage(app, layout, {
    path: '/note/edit',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const note = await notes.read(id);
      return { pageTitle: `Edit ${note.Name}`, note, errorMessage: firstOf(queryOf(req).error) || undefined, _types: await noteTypes(), _groups: await someGroups() };
    },
    view: (ctx, req) => <NoteForm req={req} note={ctx.note} types={ctx._types} groups={ctx._groups} />,
  });

  registerPage(app, layout, {
    path: '/admin/shares',
    guard: async (req) => {
      if (!can(req.principal, 'editor')) throw forbidden();
    },
    load: async (req) => {
      const { page } = readParams(Type.Object({ page: Type.Optional(Type.Integer()) }), makeBag(req.query));
      const { rows, page: p, perPage } = await sharing.sharedNotes(page);
      const base = sharing.publicBase;
      return {
        pageTitle: 'Shared notes',
        shares: rows.map((r) => ({ noteId: r.id, name: r.name, shareUrl: `${base}/s/${r.share_token}`, sharedAt: r.share_created_at })),
        pagination: { page: p, perPage },
        shareServerRunning: sharing.running,
      };
    },
    view: (ctx, req) => (
      <section>
        {!ctx.shareServerRunning ? <p class="hint">No share server is running, so these links do not answer right now.</p> : null}
        <form method="post" action="/v1/admin/shares/bulk-revoke" class="card">
          <table class="list" data-testid="share-list">
            <thead>
              <tr>
                <th></th>
                <th>Note</th>
                <th>Share link</th>
                <th>Shared at</th>
              </tr>
            </thead>
            <tbody>
              {ctx.shares.map((s) => (
                <tr>
                  <td>
                    <input type="checkbox" name="ids" value={s.noteId} aria-label={`Select ${s.name}`} />
                  </td>
                  <td>
                    <a href={`/note?id=${s.noteId}`}>{s.name}</a>
                  </td>
                  <td>
                    <code>{s.shareUrl}</code>
                  </td>
                  <td>{String(s.sharedAt ?? '').replace('T', ' ').slice(0, 16)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {ctx.shares.length === 0 ? <p class="empty">No note is shared.</p> : <button type="submit" class="danger">Revoke selected</button>}
        </form>
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.shares.length} />
      </section>
    ),
  });
}
