// Wires the three carriers (categories, resource categories, note types): one repository and
// service per kind, their API routes and pages. Returns the services other features check
// carriers and their MetaSchemas with.
import type { FeatureHost } from '../context.js';
import { CATEGORY, NOTE_TYPE, RESOURCE_CATEGORY, type CarrierKind } from './kinds.js';
import { registerCarrierPages } from './pages.js';
import { CarrierRepository } from './repository.js';
import { registerCarrierRoutes } from './routes.js';
import { CarrierService } from './service.js';

export function categoriesFeature({ app, routes, layout, lib }: FeatureHost) {
  const carrier = (kind: CarrierKind) => {
    const service = new CarrierService(new CarrierRepository(lib.db, lib.dialect, kind), lib);
    registerCarrierRoutes(routes, service);
    registerCarrierPages(app, layout, service);
    return service;
  };
  return { categories: carrier(CATEGORY), resourceCategories: carrier(RESOURCE_CATEGORY), noteTypes: carrier(NOTE_TYPE) };
}
