// Wires tags: repository → service → API routes and pages.
import type { FeatureHost } from '../context.js';
import { registerTagPages } from './pages.js';
import { TagRepository } from './repository.js';
import { registerTagRoutes } from './routes.js';
import { TagService } from './service.js';

export function tagsFeature({ app, routes, layout, lib }: FeatureHost) {
  const service = new TagService(new TagRepository(lib.db, lib.dialect), lib);
  registerTagRoutes(routes, service);
  registerTagPages(app, layout, service);
  return { service };
}
