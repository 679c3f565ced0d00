// Everything a feature module needs, built once by main.ts.
import type { Dialect } from '../core/db/dialect/index.js';
import type { Transactor } from '../core/db/repository.js';
import type { Database } from './schema/database.js';
import type { EventBus } from '../core/events/bus.js';
import type { LibraryConfig } from './config.js';
import type { LibraryDb } from './schema/database.js';
import type { Principal } from './auth/principal.js';
import type { ReadonlyRunner } from './queries/readonly.js';
import type { AuditLog } from './audit/service.js';
import type { RuntimeSettings } from './admin/settings.js';
import type { JobQueue } from '../core/jobs/queue.js';

export interface Library {
  db: LibraryDb;
  /** How this database spells what the engines spell differently. */
  dialect: Dialect;
  /** Runs several repositories' statements in one transaction. */
  transactor: Transactor<Database>;
  bus: EventBus<Principal>;
  config: LibraryConfig;
  /** The implicit actor while authentication is off. */
  root: Principal;
  /** Executes saved SQL read-only. */
  readonlySql: ReadonlyRunner;
  audit: AuditLog;
  settings: RuntimeSettings;
  /** Downloads, exports, imports and similarity recomputes share this queue. */
  jobs: JobQueue;
  /** When the process started (server stats). */
  startedAt: Date;
}

/** What a feature's wiring (its feature.ts) receives: where to register, and the core services. */
export interface FeatureHost {
  app: import('fastify').FastifyInstance;
  routes: import('./http/routes.js').LibraryRoutes;
  layout: import('../core/http/pages.js').Layout;
  lib: Library;
}
