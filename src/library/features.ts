// Registers every feature's API routes and pages. Each feature owns one line here.
import type { FastifyInstance } from 'fastify';
import type { FeatureHost, Library } from './context.js';
import type { LibraryRoutes } from './http/routes.js';
import { createLayout } from './ui/layout.js';
import type { Layout } from '../core/http/pages.js';
import { auditFeature } from './audit/feature.js';
import { mentionsFeature } from './mentions/feature.js';
import { tagsFeature } from './tags/feature.js';
import { accountsFeature, type Accounts } from './accounts/feature.js';
import { authFeature } from './auth/feature.js';
import { savedSearchesFeature } from './savedSearches/feature.js';
import { groupsFeature } from './groups/feature.js';
import { uiFeature } from './ui/feature.js';
import type { DownloadHistory } from './downloads/history.js';
import { downloadJobsFeature, downloadsFeature } from './downloads/feature.js';
import { jobsFeature } from './jobs/feature.js';
import { adminFeature } from './admin/feature.js';
import { relationsFeature } from './relations/feature.js';
import { partialsFeature } from './partials/feature.js';
import { seriesFeature } from './series/feature.js';
import { queriesFeature } from './queries/feature.js';
import { metaKeysFeature } from './metaKeys/feature.js';
import { categoriesFeature } from './categories/feature.js';
import { resourcesFeature } from './resources/feature.js';
import { notesFeature } from './notes/feature.js';
import { blocksFeature } from './blocks/feature.js';
import { sharingFeature } from './sharing/feature.js';
import type { ShareServer } from './sharing/server.js';
import { mrqlFeature, type MrqlFeature } from './mrql/feature.js';
import { searchFeature } from './search/feature.js';
import { exportsFeature } from './exports/feature.js';
import { importsFeature } from './imports/feature.js';
import { startTransferSweeps } from './archive/sweep.js';
import { reconcileFeature } from './reconcile/feature.js';
import { pluginsFeature, type PluginsFeature } from './plugins/feature.js';
import { PluginCatalogue } from './plugins/catalogue.js';
import type { LoadedPlugin } from './plugins/manager.js';
import { PluginShortcodeRenderer } from './plugins/shortcodes.js';
import { PluginBlockTypeSource } from './plugins/block-types.js';
import { PluginInjections } from './plugins/injections.js';
import { ActionJobStore } from './plugins/action-jobs.js';

/** Listeners besides the main one, started by main.ts once the main server listens. */
export interface FeatureServers {
  share: ShareServer;
  /** The MRQL feature, for in-process callers (tests, benchmarks). */
  mrql: MrqlFeature;
  /** The Lua plugin host: started (discovery, activation) before the server listens. */
  plugins: PluginsFeature;
}

export function registerFeatures(app: FastifyInstance, routes: LibraryRoutes, lib: Library, history: DownloadHistory, accounts: Accounts, log: (message: string) => void = console.log): FeatureServers {
  // Loaded plugins are published here by the plugin manager and read by every surface that
  // shows what they registered (shortcodes, blocks, pages, the layout's menu and slots).
  const pluginCatalogue = new PluginCatalogue<LoadedPlugin>(lib.config.plugins.path !== null);
  const pluginShortcodes = new PluginShortcodeRenderer(pluginCatalogue, log);
  const pageLayout: Layout = createLayout(new PluginInjections(pluginCatalogue, log));
  const host: FeatureHost = { app, routes, layout: pageLayout, lib };
  const audit = auditFeature(host);
  authFeature(host, accounts);
  accountsFeature(host, accounts);
  savedSearchesFeature(host);
  const tags = tagsFeature(host);
  const mrql = mrqlFeature(host, { pluginShortcodes });
  searchFeature(host);
  const ui = uiFeature(host);
  audit.pages(ui.pickers);
  const { categories, noteTypes, resourceCategories } = categoriesFeature(host);
  const { relations, types: relationTypes } = relationsFeature(host, { categories, pickers: ui.pickers });
  const groups = groupsFeature(host, { tags: tags.service, categories, relations, shortcodes: mrql.shortcodes, pickers: ui.pickers });
  partialsFeature(host);
  seriesFeature(host);
  const queries = queriesFeature(host, { mrql: mrql.service }).service;
  metaKeysFeature(host);

  const downloads = downloadsFeature(host, history);
  const actionJobs = new ActionJobStore();
  jobsFeature(host, downloads.service, actionJobs);
  adminFeature(host);

  const resourceFeature = resourcesFeature(host, { downloads: downloads.service, tags: tags.service, pickers: ui.pickers, shortcodes: mrql.shortcodes });
  downloadJobsFeature(host, resourceFeature.importDownload, downloads.service);
  reconcileFeature(host, { fs: resourceFeature.ctx.fs });
  const blocks = blocksFeature(host, { queries, pluginTypes: new PluginBlockTypeSource(pluginCatalogue, log) });
  const exportStore = exportsFeature(host, { fs: resourceFeature.ctx.fs }).store;
  const importStore = importsFeature(host, { resources: resourceFeature, blocks: blocks.service }).store;
  startTransferSweeps(app, lib, exportStore, importStore);

  const sharing = sharingFeature(host, { blocks, shortcodes: mrql.shortcodes });
  const notes = notesFeature(host, { tags: tags.service, noteTypes, blocks, sharing: sharing.service, shortcodes: mrql.shortcodes, pickers: ui.pickers });
  mentionsFeature(host, { resource: resourceFeature.content, note: notes.content, group: groups.content });
  const share = sharing.server;
  const plugins = pluginsFeature(host, log, {
    tags: tags.service,
    notes: notes.service,
    groups: groups.service,
    categories,
    resourceCategories,
    noteTypes,
    resources: resourceFeature.resources,
    ingest: resourceFeature.ingest,
    versions: resourceFeature.versions,
    relations,
    relationTypes,
    files: resourceFeature.ctx.fs,
    mrql: mrql.service,
    account: (id) => accounts.users.find(id),
  }, { actionJobs, downloads: downloads.service }, { catalogue: pluginCatalogue, blocks: blocks.service });

  return { share, mrql, plugins };
}
