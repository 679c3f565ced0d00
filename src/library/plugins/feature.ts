// Wires the Lua plugin host: state and key-value repositories → the manager → management and
// endpoint routes. Discovery and start-up activation run in start(), before the server listens.
import type { FeatureHost } from '../context.js';
import { registerEndpointRoutes } from './endpoints.js';
import { PluginKvRepository } from './kv.repository.js';
import { PluginManager, type LoadedPlugin } from './manager.js';
import type { PluginCatalogue } from './catalogue.js';
import { installDb, type DbServices } from './db.js';
import { HookDispatcher } from './hooks.js';
import { installHttp } from './http.js';
import { installImage } from './image.js';
import { PluginStateRepository } from './repository.js';
import { registerManagementRoutes } from './routes.js';
import { registerPluginPages } from './pages.js';
import { registerDisplayTypeRoutes } from './display-types.js';
import { registerBlockRenderRoute } from './block-types.js';
import type { BlockService } from '../blocks/service.js';

/** What the rendering surfaces read: the loaded plugins, and the blocks they render. */
export interface RenderSurfaces {
  catalogue: PluginCatalogue<LoadedPlugin>;
  blocks: BlockService;
}
import { pluginJobsFeature } from './jobs-feature.js';

export interface PluginsFeature {
  /** null when -plugins-disabled. */
  manager: PluginManager | null;
  start(): Promise<void>;
  close(): Promise<void>;
}

export function pluginsFeature(host: FeatureHost, log: (message: string) => void, services: Omit<DbServices, 'root' | 'db' | 'settings' | 'log'>, jobDeps: Parameters<typeof pluginJobsFeature>[2], surfaces: RenderSurfaces): PluginsFeature {
  const jobs = pluginJobsFeature(host, log, jobDeps);
  const { app, lib, layout } = host;
  const { catalogue } = surfaces;
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
          catalogue,
          extendMah: (plugin, mah) => {
            installDb(plugin, mah, { ...services, db: lib.db, root: () => lib.root, settings: lib.settings, log });
            jobs.install(plugin, mah);
            installHttp(plugin, mah, log);
            installImage(plugin, mah);
          },
        });
  if (manager) new HookDispatcher(manager, lib.audit, log).subscribe(lib.bus);
  registerManagementRoutes(app, manager);
  jobs.attach(manager);
  registerEndpointRoutes(app, manager, log);
  registerPluginPages(app, layout, manager, log);
  registerDisplayTypeRoutes(app, catalogue, log);
  registerBlockRenderRoute(app, { catalogue, blocks: surfaces.blocks, notes: services.notes, log });
  return {
    manager,
    start: async () => {
      await manager?.start();
      jobs.start();
    },
    close: async () => {
      await jobs.close();
      await manager?.close();
    },
  };
}
