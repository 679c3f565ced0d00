// Registers every feature's API routes and pages. Each feature owns one line here.
import type { FastifyInstance } from 'fastify';
import type { Library } from './context.js';
import type { LibraryRoutes } from './http/routes.js';
import { layout } from './ui/layout.js';
import type { Layout } from '../core/http/pages.js';
import { AuditLog } from './audit/service.js';
import { LogRepository } from './audit/repository.js';
import { registerAuditRoutes } from './audit/routes.js';
import { registerAuditPages } from './audit/pages.js';
import { TagService } from './tags/service.js';
import { registerTagRoutes } from './tags/routes.js';
import { registerTagPages } from './tags/pages.js';
import { GroupService } from './groups/service.js';
import { registerGroupRoutes } from './groups/routes.js';
import { registerGroupPages } from './groups/pages.js';
import { registerDashboard } from './ui/dashboard.js';
import { PartialService } from './partials/service.js';
import { registerPartialRoutes } from './partials/routes.js';
import { registerPartialPages } from './partials/pages.js';
import { SeriesService } from './series/service.js';
import { registerSeriesRoutes } from './series/routes.js';
import { registerSeriesPages } from './series/pages.js';
import { QueryService } from './queries/service.js';
import { registerQueryRoutes } from './queries/routes.js';
import { registerQueryPages } from './queries/pages.js';
import { registerMetaKeyRoutes } from './metaKeys/routes.js';
import { CARRIERS } from './categories/kinds.js';
import { CarrierService } from './categories/service.js';
import { registerCarrierRoutes } from './categories/routes.js';
import { registerCarrierPages } from './categories/pages.js';
import { MrqlService } from './mrql/service.js';
import { registerMrqlRoutes } from './mrql/routes.js';
import { registerMrqlPages } from './mrql/pages.js';
import { SearchService } from './search/service.js';
import { installShortcodes } from './templates/index.js';
import { registerSearchRoutes } from './search/routes.js';

export function registerFeatures(app: FastifyInstance, routes: LibraryRoutes, lib: Library): void {
  const pageLayout = layout as Layout;
  const audit = new AuditLog(new LogRepository(lib.db, lib.kind));
  audit.subscribe(lib.bus);
  registerAuditRoutes(routes, audit);
  registerAuditPages(app, pageLayout, audit);

  const tags = new TagService(lib);
  registerTagRoutes(routes, tags);
  registerTagPages(app, pageLayout, tags);

  const groups = new GroupService(lib);
  registerGroupRoutes(routes, lib, groups);
  registerGroupPages(app, pageLayout, lib, groups);

  for (const kind of CARRIERS) {
    const carriers = new CarrierService(lib, kind);
    registerCarrierRoutes(routes, carriers);
    registerCarrierPages(app, pageLayout, carriers);
  }

  const partials = new PartialService(lib);
  registerPartialRoutes(routes, partials);
  registerPartialPages(app, pageLayout, partials);

  const series = new SeriesService(lib);
  registerSeriesRoutes(routes, lib, series);
  registerSeriesPages(app, pageLayout, series);

  const queries = new QueryService(lib);
  registerQueryRoutes(routes, queries);
  registerQueryPages(app, pageLayout, queries);

  registerMetaKeyRoutes(routes, lib);

  const mrql = new MrqlService(lib);
  installShortcodes(mrql, routes);
  registerMrqlRoutes(routes, mrql);
  registerMrqlPages(app, pageLayout, mrql);
  registerSearchRoutes(routes, new SearchService(lib));

  registerDashboard(app, pageLayout, tags, groups);
}
