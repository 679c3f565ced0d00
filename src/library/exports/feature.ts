// Wires group export: its repository, the job kind on the shared queue, the API and the page.
import type { FeatureHost } from '../context.js';
import type { Filesystems } from '../resources/storage.js';
import { GROUP_EXPORT, exportKind } from './job.js';
import { registerExportPages } from './pages.js';
import { ExportRepository } from './repository.js';
import { registerExportRoutes } from './routes.js';
import { ExportStore } from './store.js';

export interface ExportFeatureDeps {
  /** Where resource files and cached previews are read from. */
  fs: Filesystems;
}

export function exportsFeature({ app, routes, layout, lib }: FeatureHost, { fs }: ExportFeatureDeps) {
  const repo = new ExportRepository(lib.db, lib.dialect);
  const store = new ExportStore(lib.config.filePath);
  lib.jobs.registerKind(GROUP_EXPORT, exportKind({ repo, fs, store, ownerOf: (id) => lib.jobs.ownerOf(id) }));
  registerExportRoutes(routes, lib, repo, fs, store);
  registerExportPages(app, layout, lib, repo);
  return { store };
}
