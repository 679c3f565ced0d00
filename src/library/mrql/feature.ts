// Wires MRQL: repositories → engine → service, the shortcode engine that renders its results
// (render=1), and the API routes and page. Returns the service (list filters of other features
// go through filter.ts) and the shortcode engine (carrier slots on other features' pages).
import type { FeatureHost } from '../context.js';
import type { RuntimeSettings } from '../admin/settings.js';
import { templatesFeature } from '../templates/feature.js';
import type { PluginShortcodes } from '../templates/index.js';
import { MrqlEngine, type MrqlSettings } from './engine.js';
import { registerMrqlPages } from './pages.js';
import { registerMrqlSyntaxPage } from './syntax-page.js';
import { MrqlRepository, SavedMrqlRepository } from './repository.js';
import { registerMrqlRoutes } from './routes.js';
import { SavedMrqlQueries } from './saved.js';
import { MrqlService } from './service.js';

/** The engine's settings, read at every use so a runtime-settings change applies to the next query. */
function mrqlSettings(settings: RuntimeSettings): MrqlSettings {
  return {
    get defaultLimit() {
      return Number(settings.get('mrql_default_limit'));
    },
    get timeoutMs() {
      return settings.millis('mrql_query_timeout');
    },
    get pageQueryBudget() {
      return Number(settings.get('mrql_page_query_budget'));
    },
    get similarityThreshold() {
      return Number(settings.get('hash_similarity_threshold'));
    },
    get ahashThreshold() {
      return Number(settings.get('hash_ahash_threshold'));
    },
  };
}

export function mrqlFeature(host: FeatureHost, deps: { pluginShortcodes: PluginShortcodes }) {
  const { app, routes, layout, lib } = host;
  const engine = new MrqlEngine(new MrqlRepository(lib.db, lib.dialect), lib.dialect, lib.config.fts, mrqlSettings(lib.settings));
  const service = new MrqlService(engine, new SavedMrqlQueries(new SavedMrqlRepository(lib.db, lib.dialect), lib.bus));
  const shortcodes = templatesFeature(host, service, deps.pluginShortcodes);
  registerMrqlRoutes(routes, service, { render: (result, principal) => shortcodes.renderResult(result, principal), generation: lib.config.generation });
  registerMrqlPages(app, layout, service);
  registerMrqlSyntaxPage(app, layout);
  return { service, shortcodes };
}

export type MrqlFeature = ReturnType<typeof mrqlFeature>;
