// Wires template partials: repository → service → API routes and pages.
import type { FeatureHost } from '../context.js';
import { registerPartialPages } from './pages.js';
import { PartialRepository } from './repository.js';
import { registerPartialRoutes } from './routes.js';
import { PartialService } from './service.js';

export function partialsFeature({ app, routes, layout, lib }: FeatureHost) {
  const service = new PartialService(new PartialRepository(lib.db, lib.dialect), lib);
  registerPartialRoutes(routes, service);
  registerPartialPages(app, layout, service);
  return { service };
}
