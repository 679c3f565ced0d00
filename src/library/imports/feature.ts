// Wires group import: the plan and apply repositories, the parse and apply job kinds on the
// shared queue, the API and the import page.
import type { FeatureHost } from '../context.js';
import type { BlockService } from '../blocks/service.js';
import type { ResourceContext } from '../resources/context.js';
import type { IngestService } from '../resources/ingest.js';
import { IMPORT_APPLY, applyKind } from './apply-job.js';
import { ImportApplyRepository } from './apply/repository.js';
import { ImportResourceRepository } from './apply/resources.repository.js';
import { IMPORT_PARSE, parseKind } from './parse-job.js';
import { registerImportPages } from './pages.js';
import { ImportPlanRepository } from './plan.repository.js';
import { registerImportRoutes } from './routes.js';
import { ImportStore } from './staging.js';

export interface ImportFeatureDeps {
  /** Resource storage and ingest rules (file placement, default categories, hash locks). */
  resources: { ctx: ResourceContext; ingest: IngestService };
  /** Imported notes' descriptions follow their first text block. */
  blocks: BlockService;
}

export function importsFeature({ app, routes, layout, lib }: FeatureHost, deps: ImportFeatureDeps) {
  const plans = new ImportPlanRepository(lib.db, lib.dialect);
  const store = new ImportStore(lib.config.filePath);
  lib.jobs.registerKind(IMPORT_PARSE, parseKind({ repo: plans, store, settings: lib.settings }));
  const apply = {
    repo: new ImportApplyRepository(lib.db, lib.dialect),
    resourceRepo: new ImportResourceRepository(lib.db, lib.dialect),
    transactor: lib.transactor,
    blocks: deps.blocks,
    resources: deps.resources,
  };
  lib.jobs.registerKind(IMPORT_APPLY, applyKind({ bus: lib.bus, apply, store }));
  registerImportRoutes(routes, lib, plans, store);
  registerImportPages(app, layout, lib, store);
  return { store };
}
