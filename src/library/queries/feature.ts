// Wires saved SQL queries: repository → service → API routes and pages.
import type { FeatureHost } from '../context.js';
import { registerQueryPages } from './pages.js';
import { QueryRepository } from './repository.js';
import { registerQueryRoutes } from './routes.js';
import { QueryService } from './service.js';
import type { MrqlService } from '../mrql/service.js';

export function queriesFeature({ app, routes, layout, lib }: FeatureHost, deps: { mrql: MrqlService }) {
  const service = new QueryService(new QueryRepository(lib.db, lib.dialect), lib);
  registerQueryRoutes(routes, service);
  registerQueryPages(app, layout, service, deps.mrql);
  return { service };
}
