// Wires the shortcode engine: repository → Shortcodes over the MRQL service → the deferred
// route. Pages of other features receive the Shortcodes it returns.
import type { FeatureHost } from '../context.js';
import type { MrqlService } from '../mrql/service.js';
import { Sealer } from './deferred.js';
import { Shortcodes, type PluginShortcodes } from './index.js';
import { TemplateRepository } from './repository.js';
import { registerShortcodeRoutes } from './routes.js';

export function templatesFeature({ routes, lib }: FeatureHost, mrql: MrqlService, plugins: PluginShortcodes): Shortcodes {
  const shortcodes = new Shortcodes(mrql, new TemplateRepository(lib.db, lib.dialect), new Sealer(lib.config.templateSigningKey), plugins);
  registerShortcodeRoutes(routes, shortcodes);
  return shortcodes;
}
