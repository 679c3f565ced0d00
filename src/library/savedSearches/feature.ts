// Wires saved searches: repository → service → /v1/account/saved-searches.
import type { FeatureHost } from '../context.js';
import { SavedSearchRepository } from './repository.js';
import { registerSavedSearchRoutes } from './routes.js';
import { SavedSearchService } from './service.js';

export function savedSearchesFeature({ routes, lib }: FeatureHost): SavedSearchService {
  const service = new SavedSearchService(new SavedSearchRepository(lib.db, lib.dialect));
  registerSavedSearchRoutes(routes, service);
  return service;
}
