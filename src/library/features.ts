// Registers every feature's API routes and pages. Each feature owns one line here.
import type { FastifyInstance } from 'fastify';
import type { FeatureHost, Library } from './context.js';
import type { LibraryRoutes } from './http/routes.js';
import { layout } from './ui/layout.js';
import type { Layout } from '../core/http/pages.js';
import { registerAuditRoutes } from './audit/routes.js';
import { registerAuditPages } from './audit/pages.js';
import { tagsFeature } from './tags/feature.js';
import { groupsFeature } from './groups/feature.js';
import { registerDashboard } from './ui/dashboard.js';
import type { DownloadHistory } from './downloads/history.js';
import { DOWNLOAD, DownloadService } from './downloads/service.js';
import { downloadKind, type DownloadImporter } from './downloads/kind.js';
import { registerJobRoutes } from './jobs/routes.js';
import { registerDownloadRoutes } from './downloads/routes.js';
import { registerAdminRoutes } from './admin/routes.js';
import { registerAdminPages } from './admin/pages.js';
import { registerDownloadPages } from './downloads/pages.js';

const unavailableImporter: DownloadImporter = async () => {
  throw new Error('resource import is not available');
};
import { relationsFeature } from './relations/feature.js';
import { partialsFeature } from './partials/feature.js';
import { seriesFeature } from './series/feature.js';
import { queriesFeature } from './queries/feature.js';
import { metaKeysFeature } from './metaKeys/feature.js';
import { categoriesFeature } from './categories/feature.js';
import { registerResourceFeature } from './resources/feature.js';
import { NoteService } from './notes/service.js';
import { registerNoteRoutes } from './notes/routes.js';
import { registerNotePages } from './notes/pages.js';
import { BlockService } from './blocks/service.js';
import { registerBlockRoutes } from './blocks/routes.js';
import { CalendarService } from './blocks/calendar/events.js';
import { ShareService } from './sharing/service.js';
import { registerShareRoutes } from './sharing/routes.js';
import { registerSharePages } from './sharing/pages.js';
import { ShareServer } from './sharing/server.js';
import { MrqlService } from './mrql/service.js';
import { registerMrqlRoutes } from './mrql/routes.js';
import { registerMrqlPages } from './mrql/pages.js';
import { SearchService } from './search/service.js';
import { installShortcodes } from './templates/index.js';
import { registerSearchRoutes } from './search/routes.js';
import { registerExportFeature } from './exports/feature.js';
import { registerImportFeature } from './imports/feature.js';
import { startTransferSweeps } from './archive/sweep.js';

/** Listeners besides the main one, started by main.ts once the main server listens. */
export interface FeatureServers {
  share: ShareServer;
}

export function registerFeatures(app: FastifyInstance, routes: LibraryRoutes, lib: Library, history: DownloadHistory): FeatureServers {
  const pageLayout = layout as Layout;
  const audit = lib.audit;
  audit.subscribe(lib.bus);
  registerAuditRoutes(routes, audit);
  registerAuditPages(app, pageLayout, audit);

  const host: FeatureHost = { app, routes, layout: pageLayout, lib };
  const tags = tagsFeature(host);
  const { categories } = categoriesFeature(host);
  const { relations } = relationsFeature(host, { categories });
  groupsFeature(host, { tags: tags.service, categories, relations });
  partialsFeature(host);
  seriesFeature(host);
  queriesFeature(host);
  metaKeysFeature(host);

  const downloads = new DownloadService(lib.jobs, history);
  lib.jobs.registerKind(
    DOWNLOAD,
    downloadKind({
      policy: lib.config.fetchPolicy,
      settings: lib.settings,
      ownerOf: (id) => lib.jobs.ownerOf(id),
      importer: () => lib.importDownload ?? unavailableImporter,
      onBlocked: (url, detail) =>
        void audit.note({ level: 'warning', action: 'system', entityType: 'download', message: `refused to fetch ${url.slice(0, 500)}: private address`, details: { url, ...detail } }),
    }),
  );
  registerJobRoutes(routes, lib.jobs, downloads);
  registerDownloadRoutes(routes, downloads);
  registerDownloadPages(app, pageLayout, downloads);
  registerAdminRoutes(routes, lib);
  registerAdminPages(app, pageLayout, lib);

  const resourceFeature = registerResourceFeature(app, routes, pageLayout, lib, downloads);
  const exportStore = registerExportFeature(app, routes, pageLayout, lib, resourceFeature.ctx.fs);
  const importStore = registerImportFeature(app, routes, pageLayout, lib, resourceFeature);
  startTransferSweeps(app, lib, exportStore, importStore);

  const notes = new NoteService(lib);
  const blocks = new BlockService(lib);
  const calendars = new CalendarService(lib);
  const sharing = new ShareService(lib);
  registerNoteRoutes(routes, lib, notes);
  registerBlockRoutes(routes, lib, blocks, calendars);
  registerShareRoutes(routes, sharing);
  registerNotePages(app, pageLayout, lib, notes, blocks, sharing);
  registerSharePages(app, pageLayout, sharing);
  const share = new ShareServer(lib, { sharing, blocks, calendars });
  const mrql = new MrqlService(lib);
  installShortcodes(mrql, routes);
  registerMrqlRoutes(routes, mrql);
  registerMrqlPages(app, pageLayout, mrql);
  registerSearchRoutes(routes, new SearchService(lib));

  registerDashboard(app, pageLayout, lib);
  return { share };
}
