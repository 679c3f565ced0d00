// Wires global search: repository → service → the API route.
import type { FeatureHost } from '../context.js';
import { SearchRepository } from './repository.js';
import { registerSearchRoutes } from './routes.js';
import { SearchService } from './service.js';

export function searchFeature({ routes, lib }: FeatureHost) {
  const service = new SearchService(new SearchRepository(lib.db, lib.dialect), lib.config.fts);
  registerSearchRoutes(routes, service);
  return { service };
}
