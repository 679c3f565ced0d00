// Wires global search: repository → service → the API route.
import type { FeatureHost } from '../context.js';
import { SearchRepository } from './repository.js';
import { registerSearchRoutes } from './routes.js';
import { registerSearchPage } from './pages.js';
import { SearchService } from './service.js';

export function searchFeature({ app, routes, layout, lib }: FeatureHost) {
  const service = new SearchService(new SearchRepository(lib.db, lib.dialect), lib.config.fts);
  registerSearchRoutes(routes, service);
  registerSearchPage(app, layout, service);
  return { service };
}
