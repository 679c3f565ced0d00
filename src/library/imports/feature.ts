// Wires group import: the parse and apply job kinds, the API and the import page.
import type { FastifyInstance } from 'fastify';
import type { Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import type { LibraryRoutes } from '../http/routes.js';
import type { ResourceContext } from '../resources/context.js';
import type { IngestService } from '../resources/ingest.js';
import { IMPORT_APPLY, applyKind } from './apply-job.js';
import { IMPORT_PARSE, parseKind } from './parse-job.js';
import { registerImportPages } from './pages.js';
import { registerImportRoutes } from './routes.js';
import { ImportStore } from './staging.js';

export function registerImportFeature(app: FastifyInstance, routes: LibraryRoutes, layout: Layout, lib: Library, resources: { ctx: ResourceContext; ingest: IngestService }): ImportStore {
  const store = new ImportStore(lib.config.filePath);
  lib.jobs.registerKind(IMPORT_PARSE, parseKind({ db: lib.db, store, settings: lib.settings }));
  lib.jobs.registerKind(IMPORT_APPLY, applyKind({ lib, resources, store }));
  registerImportRoutes(routes, lib, store);
  registerImportPages(app, layout, lib, store);
  return store;
}
