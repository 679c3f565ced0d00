// Wires relation types and relations: repositories → services → API routes and pages. Returns
// the relation service, whose per-group read the group detail embeds.
import type { CarrierService } from '../categories/service.js';
import type { FeatureHost } from '../context.js';
import type { PickRepository } from '../ui/repository.js';
import { registerRelationPages } from './pages.js';
import { RelationRepository, RelationTypeRepository } from './repository.js';
import { registerRelationRoutes } from './routes.js';
import { RelationService } from './service.js';
import { RelationTypeService } from './types.js';

export function relationsFeature({ app, routes, layout, lib }: FeatureHost, deps: { categories: CarrierService; pickers: PickRepository }) {
  const typeRepo = new RelationTypeRepository(lib.db, lib.dialect);
  const relationRepo = new RelationRepository(lib.db, lib.dialect);
  const types = new RelationTypeService(typeRepo, relationRepo, deps.categories, lib);
  const relations = new RelationService(relationRepo, typeRepo, deps.categories, lib);
  registerRelationRoutes(routes, types, relations);
  registerRelationPages(app, layout, lib, { types, relations, categories: deps.categories, pickers: deps.pickers });
  return { types, relations };
}
