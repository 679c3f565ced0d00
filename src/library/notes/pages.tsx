// Note pages (companion §6.4): the list with its filters and bulk actions, the note page with its
// blocks (view mode, and the block editor of public/block-editor.js), the reading layout and the
// create/edit form.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { Library } from '../context.js';
import { seenBy } from '../http/routes.js';
import { EmptyState, Pagination, Picker, PostButton, Timestamps, firstOf, queryOf } from '../ui/components.js';
import { Markdown } from '../ui/markdown.js';
import { UploadTarget } from '../ui/upload.js';
import { selectionScope } from '../ui/bulk.js';
import { BlockList } from '../blocks/render.js';
import type { BlockService } from '../blocks/service.js';
import type { BlockViews } from '../blocks/view.js';
import type { ShareService } from '../sharing/service.js';
import { carrierCss, describedHtml, listSlots, pageSlots } from '../ui/slots.js';
import { cardAvatars } from './avatars.js';
import type { PickRepository } from '../ui/repository.js';
import type { Shortcodes } from '../templates/index.js';
import { NoteListInput } from './filters.js';
import { NoteBulkBar, NoteCard, NoteFilters, NoteForm, Sharing } from './components.js';
import { formPicks, picked } from '../ui/picked.js';
import type { NoteService } from './service.js';

const IdInput = Type.Object({ id: Type.Integer() });

export interface NotePageDeps {
  notes: NoteService;
  blocks: BlockService;
  views: BlockViews;
  sharing: ShareService;
  shortcodes: Shortcodes;
  pickers: PickRepository;
}

export function registerNotePages(app: FastifyInstance, layout: Layout, lib: Library, { notes, blocks, views, sharing, shortcodes, pickers }: NotePageDeps): void {
  const noteTypes = () => notes.noteTypeChoices();
  type Detail = Awaited<ReturnType<NoteService['read']>>;
  const notePicks = async (req: FastifyRequest, note?: Detail) => ({
    tags: await formPicks(pickers, req, 'tags', 'Tags', note?.Tags ?? []),
    groups: await formPicks(pickers, req, 'groups', 'Groups', note?.Groups ?? []),
    resources: await formPicks(pickers, req, 'resources', 'Resources', note?.Resources ?? []),
    owner: await formPicks(pickers, req, 'groups', 'OwnerId', note?.Owner ? [note.Owner] : []),
  });

  registerPage(app, layout, {
    path: '/notes',
    needs: 'read',
    load: async (req) => {
      const input = readParams(NoteListInput, makeBag(req.query));
      const [{ rows, page, perPage }, total, types, tags, groups, owner] = await Promise.all([
        notes.list(seenBy(req), input),
        notes.count(seenBy(req), input),
        noteTypes(),
        picked(pickers, req, 'tags', input.Tags ?? []),
        picked(pickers, req, 'groups', input.Groups ?? []),
        picked(pickers, req, 'groups', [input.OwnerId]),
      ]);
      // Filtered to one note type, the list shows that type's list header, footer and CSS.
      const oneType = input.NoteTypeId ?? (input.NoteTypeIds?.length === 1 ? input.NoteTypeIds[0] : undefined);
      return {
        pageTitle: 'Notes',
        notes: rows,
        _slots: await listSlots(lib, shortcodes, req.principal, 'note', oneType),
        _avatars: await cardAvatars(shortcodes, req.principal, rows),
        pagination: { page, perPage, total },
        parsedQuery: input,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _layout: {
          sidebar: <NoteFilters req={req} types={types} picks={{ tags, groups, owner }} />,
          actions: (
            <a class="button" href="/note/new">
              New note
            </a>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <section x-data={selectionScope(ctx.notes.map((n) => n.ID))}>
        <link rel="stylesheet" href="/public/notes.css" />
        {ctx._slots.css}
        {ctx._slots.header}
        <NoteBulkBar req={req} />
        <ul class="cards" data-testid="note-list">
          {ctx.notes.map((n) => (
            <NoteCard n={n} avatar={ctx._avatars.get(n.ID)} />
          ))}
        </ul>
        {ctx.notes.length === 0 ? <EmptyState req={req} filtered="No notes match these filters." intro="Notes are texts made of blocks (paragraphs, to-dos, tables, galleries), with dates, tags and attached files." start={{ href: '/note/new', label: 'Write the first note.' }} /> : null}
        {ctx._slots.footer}
        <Pagination req={req} page={ctx.pagination.page} perPage={ctx.pagination.perPage} count={ctx.notes.length} total={ctx.pagination.total} />
      </section>
    ),
  });

  const loadNote = async (req: FastifyRequest) => {
    const { id } = readParams(IdInput, makeBag(req.query));
    const note = await notes.read(seenBy(req), id);
    const list = await blocks.blocksOf(note.ID);
    const data = await views.load(list, req.principal, { id: note.ID, name: note.Name, noteTypeId: note.NoteTypeId ?? null });
    return { note, list, data };
  };

  registerPage(app, layout, {
    path: '/note',
    needs: 'read',
    load: async (req) => {
      const { note, list, data } = await loadNote(req);
      const types = await blocks.types(seenBy(req));
      const t = note.NoteType as Record<string, string> | null;
      const slots = await pageSlots(shortcodes, req.principal, 'note', note, ['custom_header', 'custom_sidebar', 'custom_detail_footer']);
      return {
        _description: await describedHtml(shortcodes, req.principal, 'note', note, note.Description, { class: 'block-text note-description' }),
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
        _slots: slots,
        _css: await carrierCss(lib, 'note', note.NoteTypeId),
        _layout: {
          pluginTarget: { entity: 'note', id: note.ID, noteTypeId: note.NoteTypeId ?? undefined },
          sidebar: (
            <div>
              <Timestamps created={note.CreatedAt} updated={note.UpdatedAt} />
              {slots.custom_sidebar}
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
      const hasText = ctx.blocks.some((b) => b.type === 'text');
      return (
        <div class="note-page">
          <link rel="stylesheet" href="/public/notes.css" />
          {ctx._css}
          {ctx._slots.custom_header}
          {n.StartDate || n.EndDate ? (
            <p class="note-dates">
              {n.StartDate ? `Starts ${n.StartDate.slice(0, 16).replace('T', ' ')}` : ''}
              {n.StartDate && n.EndDate ? ' · ' : ''}
              {n.EndDate ? `Ends ${n.EndDate.slice(0, 16).replace('T', ' ')}` : ''}
            </p>
          ) : null}
          <section class="card note-body" id="note-blocks" data-note-id={n.ID} data-block-types={JSON.stringify(ctx._types)}>
            {!hasText && n.Description ? ctx._description : null}
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
                  <li class="note-resource">
                    <a href={`/resource?id=${r.ID}`} data-lightbox-id={r.ID} data-lightbox-name={r.Name}>
                      <img src={`/v1/resource/preview?ID=${r.ID}&Height=40`} alt={`View ${r.Name}`} height={40} loading="lazy" />
                    </a>{' '}
                    <a href={`/resource?id=${r.ID}`}>{r.Name}</a> <small>{r.ContentType}</small>
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">None.</p>
            )}
          </section>
          <UploadTarget noteId={n.ID} ownerId={n.Owner?.ID} where="to this note" />
          {ctx._slots.custom_detail_footer}
          {/* The block editor clones these for gallery and references blocks (inert until then). */}
          <template id="picker-gallery">
            <Picker label="Resources" name="resourceIds" source="/v1/resources" selected={[]} hint="Shown in the order picked." />
          </template>
          <template id="picker-references">
            <Picker label="Groups" name="groupIds" source="/v1/groups" selected={[]} />
          </template>
          <script src="/public/note-blocks.js"></script>
          <script src="/public/block-editor.js"></script>
          <script src="/public/note-page.js"></script>
        </div>
      );
    },
  });

  registerPage(app, layout, {
    path: '/note/text',
    needs: 'read',
    load: async (req) => {
      const { note, list, data } = await loadNote(req);
      return { pageTitle: note.Name, note, blocks: list, mainEntity: note, mainEntityType: 'note', _data: data };
    },
    view: (ctx) => (
      <article class="note-reading">
        <link rel="stylesheet" href="/public/notes.css" />
        {!ctx.blocks.some((b) => b.type === 'text') && ctx.note.Description ? <Markdown class="block-text note-description" text={ctx.note.Description} /> : null}
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
    needs: 'read',
    load: async (req) => ({
      pageTitle: 'New note',
      errorMessage: firstOf(queryOf(req).error) || undefined,
      _types: await noteTypes(),
      _picks: await notePicks(req),
    }),
    view: (ctx, req) => <NoteForm req={req} types={ctx._types} picks={ctx._picks} />,
  });

  registerPage(app, layout, {
    path: '/note/edit',
    needs: 'read',
    load: async (req) => {
      const { id } = readParams(IdInput, makeBag(req.query));
      const note = await notes.read(seenBy(req), id);
      return { pageTitle: `Edit ${note.Name}`, note, errorMessage: firstOf(queryOf(req).error) || undefined, _types: await noteTypes(), _picks: await notePicks(req, note) };
    },
    view: (ctx, req) => <NoteForm req={req} note={ctx.note} types={ctx._types} picks={ctx._picks} />,
  });
}
