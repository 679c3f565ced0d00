// Wires the Lua plugin host: state and key-value repositories → the manager → management and
// endpoint routes. Discovery and start-up activation run in start(), before the server listens.
import type { FeatureHost } from '../context.js';
import { registerEndpointRoutes } from './endpoints.js';
import { PluginKvRepository } from './kv.repository.js';
import { PluginManager } from './manager.js';
import { installDb, type DbServices } from './db.js';
import { HookDispatcher } from './hooks.js';
import { PluginStateRepository } from './repository.js';
import { registerManagementRoutes } from './routes.js';
import { registerPluginPages } from './pages.js';
import type { ActionJobStore } from './action-jobs.js';
import { registerActionRoutes } from './action-routes.js';
import { ActionRunner } from './action-run.js';
import { ActionTargetsRepository } from './action-targets.repository.js';
import { installActions } from './actions.js';
import { installJobs } from './jobs.js';
import { scopedAccess } from '../auth/scoped-access.js';

export interface PluginsFeature {
  /** null when -plugins-disabled. */
  manager: PluginManager | null;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function pluginsFeature({ app, lib, layout }: FeatureHost, log: (message: string) => void, services: Omit<DbServices, 'root'>, actionJobs: ActionJobStore): PluginsFeature {
  const path = lib.config.plugins.path;
  const manager =
    path === null
      ? null
      : new PluginManager({
          states: new PluginStateRepository(lib.db, lib.dialect),
          kv: new PluginKvRepository(lib.db, lib.dialect),
          audit: lib.audit,
          path,
          memoryLimitBytes: lib.config.plugins.memoryLimitBytes,
          log,
          extendMah: (plugin, mah) => {
            installDb(plugin, mah, { ...services, root: () => lib.root });
            installActions(plugin, mah);
            installJobs(plugin, mah, actionJobs);
          },
        });
  if (manager) new HookDispatcher(manager, lib.audit, log).subscribe(lib.bus);
  registerManagementRoutes(app, manager);
  const runner = manager && new ActionRunner(manager, actionJobs, new ActionTargetsRepository(lib.db, lib.dialect), scopedAccess(lib.db, lib.dialect), lib.config.plugins.maxActionEntities);
  registerActionRoutes(app, runner, actionJobs);
  registerEndpointRoutes(app, manager, log);
  registerPluginPages(app, layout, manager, log);
  return {
    manager,
    start: async () => manager?.start(),
    close: async () => {
      await manager?.close();
      actionJobs.close();
    },
  };
}
