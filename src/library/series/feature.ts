// Wires series: repository → service → API routes and pages.
import type { FeatureHost } from '../context.js';
import { registerSeriesPages } from './pages.js';
import { SeriesRepository } from './repository.js';
import { registerSeriesRoutes } from './routes.js';
import { SeriesService } from './service.js';

export function seriesFeature({ app, routes, layout, lib }: FeatureHost) {
  const service = new SeriesService(new SeriesRepository(lib.db, lib.dialect), lib);
  registerSeriesRoutes(routes, service);
  registerSeriesPages(app, layout, service);
  return { service };
}
