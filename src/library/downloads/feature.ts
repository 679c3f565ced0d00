// Wires downloads: the queue service and the history pages and routes first (resources submit
// background downloads through the service), then, once the resources feature exists, the
// download job kind that hands finished bodies to its importer.
import type { FeatureHost } from '../context.js';
import { VisibilityRepository } from '../auth/visibility.repository.js';
import { UserRepository } from '../accounts/repository.js';
import { currentPrincipal } from '../auth/service.js';
import type { Principal } from '../auth/principal.js';
import type { DownloadHistory } from './history.js';
import { downloadKind, type DownloadImporter } from './kind.js';
import { DownloadPacer } from './pacing.js';
import { registerDownloadPages } from './pages.js';
import { registerDownloadRoutes } from './routes.js';
import { DOWNLOAD, DownloadService } from './service.js';
import type { DownloadPayload } from './payload.js';

export function downloadsFeature({ app, routes, layout, lib }: FeatureHost, history: DownloadHistory) {
  const service = new DownloadService(lib.jobs, history, new VisibilityRepository(lib.db, lib.dialect));
  registerDownloadRoutes(routes, service);
  registerDownloadPages(app, layout, service);
  return { service };
}

/**
 * Registers the download job kind; `importer` turns a fetched body into a resource. A job acts
 * as its submitter: without accounts that is the root administrator under the submitter's id
 * (as before), with accounts the account as it stands when the job starts, its targets checked
 * against its current scope (companion §10.10: re-checked on resume and retry).
 */
export function downloadJobsFeature({ lib }: FeatureHost, importer: DownloadImporter, service: DownloadService): void {
  const users = new UserRepository(lib.db, lib.dialect);
  const actingAs = async (ownerId: number | null, payload: DownloadPayload): Promise<Principal> => {
    if (!lib.config.auth.enabled || ownerId === null) return { ...lib.root, userId: ownerId ?? lib.root.userId };
    const owner = await currentPrincipal(users, ownerId);
    if (!owner) throw new Error('the account that queued this download no longer exists or is disabled');
    await service.checkTargets(owner, payload);
    return owner;
  };
  lib.jobs.registerKind(
    DOWNLOAD,
    downloadKind({
      policy: lib.config.fetchPolicy,
      settings: lib.settings,
      ownerOf: (id) => lib.jobs.ownerOf(id),
      actingAs,
      importer,
      pluginEgress: (plugin) => service.pluginEgress(plugin),
      pacer: new DownloadPacer((plugin, url) => service.pacingRule(plugin, url)),
      onBlocked: (url, detail) =>
        void lib.audit.note({ level: 'warning', action: 'system', entityType: 'download', message: `refused to fetch ${url.slice(0, 500)}: private address`, details: { url, ...detail } }),
    }),
  );
}
