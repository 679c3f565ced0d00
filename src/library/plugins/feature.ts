// Wires the Lua plugin host: state and key-value repositories → the manager → management and
// endpoint routes. Discovery and start-up activation run in start(), before the server listens.
import type { FeatureHost } from '../context.js';
import { registerEndpointRoutes } from './endpoints.js';
import { PluginKvRepository } from './kv.repository.js';
import { PluginManager } from './manager.js';
import { installDb, type DbServices } from './db.js';
import { HookDispatcher } from './hooks.js';
import { installHttp } from './http.js';
import { installImage } from './image.js';
import { PluginStateRepository } from './repository.js';
import { registerManagementRoutes } from './routes.js';
import { registerPluginPages } from './pages.js';

export interface PluginsFeature {
  /** null when -plugins-disabled. */
  manager: PluginManager | null;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function pluginsFeature({ app, lib, layout }: FeatureHost, log: (message: string) => void, services: Omit<DbServices, 'root' | 'db'>): PluginsFeature {
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
            installDb(plugin, mah, { ...services, db: lib.db, root: () => lib.root });
            installHttp(plugin, mah, log);
            installImage(plugin, mah);
          },
        });
  if (manager) new HookDispatcher(manager, lib.audit, log).subscribe(lib.bus);
  registerManagementRoutes(app, manager);
  registerEndpointRoutes(app, manager, log);
  registerPluginPages(app, layout, manager, log);
  return {
    manager,
    start: async () => manager?.start(),
    close: async () => manager?.close(),
  };
}
