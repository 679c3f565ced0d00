// Wires note blocks: the block repository and rules, what showing blocks needs (gallery
// resources, referenced groups, query-backed tables), calendar events, and the API routes.
import type { FeatureHost } from '../context.js';
import { CalendarService } from './calendar/events.js';
import { BlockRepository } from './repository.js';
import { registerBlockRoutes } from './routes.js';
import { BlockService } from './service.js';
import type { SavedQueryRunner } from './table.js';
import type { PluginBlockTypes } from './plugin-types.js';
import { BlockViewRepository } from './view.repository.js';
import { BlockViews } from './view.js';

export interface BlockFeatureDeps {
  /** Runs the saved query behind a table block. */
  queries: SavedQueryRunner;
  /** Block types of loaded plugins (library-plugins.md §22). */
  pluginTypes: PluginBlockTypes;
}

export function blocksFeature({ routes, lib }: FeatureHost, deps: BlockFeatureDeps) {
  const service = new BlockService(new BlockRepository(lib.db, lib.dialect), lib, deps.pluginTypes);
  const viewRepo = new BlockViewRepository(lib.db, lib.dialect);
  const views = new BlockViews(viewRepo, deps.queries, deps.pluginTypes);
  const calendars = new CalendarService(viewRepo, lib.config);
  registerBlockRoutes(routes, service, calendars, deps.queries);
  return { service, views, calendars };
}
