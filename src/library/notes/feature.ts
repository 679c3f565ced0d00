// Wires notes: the note repository (with MRQL as a list filter) → the note rules → the API
// routes (with bulk edits, mass edit and edit-meta of the shared content engine) and the pages.
import type { FeatureHost } from '../context.js';
import type { BlockService } from '../blocks/service.js';
import type { BlockViews } from '../blocks/view.js';
import { mrqlListFilter } from '../mrql/filter.js';
import type { ShareService } from '../sharing/service.js';
import type { TagService } from '../tags/service.js';
import type { Shortcodes } from '../templates/index.js';
import type { PickRepository } from '../ui/repository.js';
import { noteContent } from './content.js';
import { registerNotePages } from './pages.js';
import { NoteRepository } from './repository.js';
import { registerNoteRoutes } from './routes.js';
import { NoteService, type NoteTypeRecords } from './service.js';

export interface NoteFeatureDeps {
  tags: TagService;
  /** Shapes the note type a note record embeds. */
  noteTypes: NoteTypeRecords;
  blocks: { service: BlockService; views: BlockViews };
  sharing: ShareService;
  shortcodes: Shortcodes;
  pickers: PickRepository;
}

export function notesFeature(host: FeatureHost, deps: NoteFeatureDeps) {
  const { app, routes, layout, lib } = host;
  const repo = new NoteRepository(lib.db, lib.dialect, (text) => mrqlListFilter(lib, 'note', text, 'notes'));
  const service = new NoteService(repo, { bus: lib.bus, transactor: lib.transactor, tags: deps.tags, noteTypes: deps.noteTypes, blocks: deps.blocks.service });
  registerNoteRoutes(routes, lib, service);
  registerNotePages(app, layout, lib, { notes: service, blocks: deps.blocks.service, views: deps.blocks.views, sharing: deps.sharing, shortcodes: deps.shortcodes, pickers: deps.pickers });
  return { service, content: noteContent(service) };
}
