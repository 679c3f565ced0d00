// Wires group export: the job kind on the shared queue, the API and the export page.
import type { FastifyInstance } from 'fastify';
import type { Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import type { LibraryRoutes } from '../http/routes.js';
import type { Filesystems } from '../resources/storage.js';
import { GROUP_EXPORT, exportKind } from './job.js';
import { registerExportPages } from './pages.js';
import { registerExportRoutes } from './routes.js';
import { ExportStore } from './store.js';

export function registerExportFeature(app: FastifyInstance, routes: LibraryRoutes, layout: Layout, lib: Library, fs: Filesystems): ExportStore {
  const store = new ExportStore(lib.config.filePath);
  lib.jobs.registerKind(GROUP_EXPORT, exportKind({ db: lib.db, fs, store, ownerOf: (id) => lib.jobs.ownerOf(id) }));
  registerExportRoutes(routes, lib, fs, store);
  registerExportPages(app, layout, lib);
  return store;
}
