// Wires downloads: the queue service and the history pages and routes first (resources submit
// background downloads through the service), then, once the resources feature exists, the
// download job kind that hands finished bodies to its importer.
import type { FeatureHost } from '../context.js';
import { VisibilityRepository } from '../auth/visibility.repository.js';
import type { DownloadHistory } from './history.js';
import { downloadKind, type DownloadImporter } from './kind.js';
import { registerDownloadPages } from './pages.js';
import { registerDownloadRoutes } from './routes.js';
import { DOWNLOAD, DownloadService } from './service.js';

export function downloadsFeature({ app, routes, layout, lib }: FeatureHost, history: DownloadHistory) {
  const service = new DownloadService(lib.jobs, history, new VisibilityRepository(lib.db, lib.dialect));
  registerDownloadRoutes(routes, service);
  registerDownloadPages(app, layout, service);
  return { service };
}

/** Registers the download job kind; `importer` turns a fetched body into a resource. */
export function downloadJobsFeature({ lib }: FeatureHost, importer: DownloadImporter): void {
  lib.jobs.registerKind(
    DOWNLOAD,
    downloadKind({
      policy: lib.config.fetchPolicy,
      settings: lib.settings,
      ownerOf: (id) => lib.jobs.ownerOf(id),
      importer,
      onBlocked: (url, detail) =>
        void lib.audit.note({ level: 'warning', action: 'system', entityType: 'download', message: `refused to fetch ${url.slice(0, 500)}: private address`, details: { url, ...detail } }),
    }),
  );
}
