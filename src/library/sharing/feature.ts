// Wires note sharing: share tokens (API and the admin shares page) and the share server, the
// second listener that serves shared notes read-only (started by main.ts when configured).
import type { FeatureHost } from '../context.js';
import type { CalendarService } from '../blocks/calendar/events.js';
import type { BlockService } from '../blocks/service.js';
import type { BlockViews } from '../blocks/view.js';
import { registerSharePages } from './pages.js';
import { ShareRepository } from './repository.js';
import { registerShareRoutes } from './routes.js';
import { ShareServer } from './server.js';
import { ShareService } from './service.js';
import type { Shortcodes } from '../templates/index.js';

export interface SharingFeatureDeps {
  blocks: { service: BlockService; views: BlockViews; calendars: CalendarService };
  shortcodes: Shortcodes;
}

export function sharingFeature({ app, routes, layout, lib }: FeatureHost, deps: SharingFeatureDeps) {
  const service = new ShareService(new ShareRepository(lib.db, lib.dialect), lib);
  registerShareRoutes(routes, service);
  registerSharePages(app, layout, service);
  const server = new ShareServer(lib, { sharing: service, blocks: deps.blocks.service, views: deps.blocks.views, calendars: deps.blocks.calendars, shortcodes: deps.shortcodes });
  return { service, server };
}
