// Registers every feature's API routes and pages. Each feature owns one line here.
import type { FastifyInstance } from 'fastify';
import type { FeatureHost, Library } from './context.js';
import type { LibraryRoutes } from './http/routes.js';
import { layout } from './ui/layout.js';
import type { Layout } from '../core/http/pages.js';
import { auditFeature } from './audit/feature.js';
import { tagsFeature } from './tags/feature.js';
import { accountsFeature, type Accounts } from './accounts/feature.js';
import { authFeature } from './auth/feature.js';
import { savedSearchesFeature } from './savedSearches/feature.js';
import { GroupService } from './groups/service.js';
import { registerGroupRoutes } from './groups/routes.js';
import { registerGroupPages } from './groups/pages.js';
import { uiFeature } from './ui/feature.js';
import type { DownloadHistory } from './downloads/history.js';
import { downloadJobsFeature, downloadsFeature } from './downloads/feature.js';
import { jobsFeature } from './jobs/feature.js';
import { adminFeature } from './admin/feature.js';
import { RelationTypeService } from './relations/types.js';
import { RelationService } from './relations/service.js';
import { registerRelationRoutes } from './relations/routes.js';
import { registerRelationPages } from './relations/pages.js';
import { PartialService } from './partials/service.js';
import { registerPartialRoutes } from './partials/routes.js';
import { registerPartialPages } from './partials/pages.js';
import { SeriesService } from './series/service.js';
import { registerSeriesRoutes } from './series/routes.js';
import { registerSeriesPages } from './series/pages.js';
import { QueryService } from './queries/service.js';
import { registerQueryRoutes } from './queries/routes.js';
import { registerQueryPages } from './queries/pages.js';
import { registerMetaKeyRoutes } from './metaKeys/routes.js';
import { CARRIERS } from './categories/kinds.js';
import { CarrierService } from './categories/service.js';
import { registerCarrierRoutes } from './categories/routes.js';
import { registerCarrierPages } from './categories/pages.js';
import { resourcesFeature } from './resources/feature.js';
import { NOTE_TYPE } from './categories/kinds.js';
import { notesFeature } from './notes/feature.js';
import { blocksFeature } from './blocks/feature.js';
import { sharingFeature } from './sharing/feature.js';
import type { ShareServer } from './sharing/server.js';
import { mrqlFeature, type MrqlFeature } from './mrql/feature.js';
import { searchFeature } from './search/feature.js';
import { exportsFeature } from './exports/feature.js';
import { importsFeature } from './imports/feature.js';
import { startTransferSweeps } from './archive/sweep.js';

/** Listeners besides the main one, started by main.ts once the main server listens. */
export interface FeatureServers {
  share: ShareServer;
  /** The MRQL feature, for in-process callers (tests, benchmarks). */
  mrql: MrqlFeature;
}

export function registerFeatures(app: FastifyInstance, routes: LibraryRoutes, lib: Library, history: DownloadHistory, accounts: Accounts): FeatureServers {
  const pageLayout = layout as Layout;
  const host: FeatureHost = { app, routes, layout: pageLayout, lib };
  auditFeature(host);
  authFeature(host, accounts);
  accountsFeature(host, accounts);
  savedSearchesFeature(host);
  const tags = tagsFeature(host);
  const mrql = mrqlFeature(host);
  searchFeature(host);
  const ui = uiFeature(host);

  const groups = new GroupService(lib);
  registerGroupRoutes(routes, lib, groups);
  registerGroupPages(app, pageLayout, lib, groups, mrql.shortcodes);

  const relationTypes = new RelationTypeService(lib);
  const relations = new RelationService(lib);
  registerRelationRoutes(routes, relationTypes, relations);
  registerRelationPages(app, pageLayout, lib, relationTypes, relations);

  for (const kind of CARRIERS) {
    const carriers = new CarrierService(lib, kind);
    registerCarrierRoutes(routes, carriers);
    registerCarrierPages(app, pageLayout, carriers);
  }

  const partials = new PartialService(lib);
  registerPartialRoutes(routes, partials);
  registerPartialPages(app, pageLayout, partials);

  const series = new SeriesService(lib);
  registerSeriesRoutes(routes, lib, series);
  registerSeriesPages(app, pageLayout, series);

  const queries = new QueryService(lib);
  registerQueryRoutes(routes, queries);
  registerQueryPages(app, pageLayout, queries);

  registerMetaKeyRoutes(routes, lib);

  const downloads = downloadsFeature(host, history);
  jobsFeature(host, downloads.service);
  adminFeature(host);

  const resourceFeature = resourcesFeature(host, { downloads: downloads.service, tags: tags.service, pickers: ui.pickers, shortcodes: mrql.shortcodes });
  downloadJobsFeature(host, resourceFeature.importDownload);
  const blocks = blocksFeature(host, { queries });
  const exportStore = exportsFeature(host, { fs: resourceFeature.ctx.fs }).store;
  const importStore = importsFeature(host, { resources: resourceFeature, blocks: blocks.service }).store;
  startTransferSweeps(app, lib, exportStore, importStore);

  const sharing = sharingFeature(host, { blocks, shortcodes: mrql.shortcodes });
  notesFeature(host, { tags: tags.service, noteTypes: new CarrierService(lib, NOTE_TYPE), blocks, sharing: sharing.service, shortcodes: mrql.shortcodes });
  const share = sharing.server;

  return { share, mrql };
}
