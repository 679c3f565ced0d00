// Wires groups: repositories → service → API routes and pages, with the tag, category and
// relation services a group read and write need. Returns the group service.
import type { CarrierService } from '../categories/service.js';
import type { FeatureHost } from '../context.js';
import { mrqlListFilter } from '../mrql/filter.js';
import type { RelationService } from '../relations/service.js';
import type { TagService } from '../tags/service.js';
import type { Shortcodes } from '../templates/index.js';
import type { PickRepository } from '../ui/repository.js';
import { GroupCopyRepository } from './copy.repository.js';
import { groupContent } from './content.js';
import { registerGroupPages } from './pages.js';
import { GroupRepository } from './repository.js';
import { registerGroupRoutes } from './routes.js';
import { GroupService } from './service.js';

export function groupsFeature({ app, routes, layout, lib }: FeatureHost, deps: { tags: TagService; categories: CarrierService; relations: RelationService; shortcodes: Shortcodes; pickers: PickRepository }) {
  const service = new GroupService(new GroupRepository(lib.db, lib.dialect), new GroupCopyRepository(lib.db, lib.dialect), {
    tags: deps.tags,
    categories: deps.categories,
    relations: deps.relations,
    bus: lib.bus,
    transactor: lib.transactor,
    mrqlFilter: (text) => mrqlListFilter(lib, 'group', text, '"groups"'),
  });
  registerGroupRoutes(routes, lib, service);
  registerGroupPages(app, layout, lib, service, deps.categories, deps.shortcodes, deps.pickers);
  return { service, content: groupContent(service) };
}
