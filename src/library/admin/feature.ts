// Wires administration: the statistics over their repository, and the routes and pages of
// figures and runtime settings (the settings themselves are built at start-up, before any
// feature, because the rest of the library reads them).
import type { FeatureHost } from '../context.js';
import { registerAdminPages } from './pages.js';
import { StatsRepository } from './repository.js';
import { registerAdminRoutes } from './routes.js';
import { AdminStats } from './stats.js';

export function adminFeature({ app, routes, layout, lib }: FeatureHost): void {
  const stats = new AdminStats(lib, new StatsRepository(lib.db, lib.dialect));
  registerAdminRoutes(routes, lib, stats);
  registerAdminPages(app, layout, lib, stats);
}
