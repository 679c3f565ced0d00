// Wires the shared page parts: the picker lookups pages start their pickers with, and the
// dashboard.
import type { FeatureHost } from '../context.js';
import { registerDashboard } from './dashboard.js';
import { registerFlash } from './flash.js';
import { DashboardRepository, PickRepository } from './repository.js';

export function uiFeature({ app, layout, lib }: FeatureHost) {
  registerFlash(app);
  registerDashboard(app, layout, new DashboardRepository(lib.db, lib.dialect));
  return { pickers: new PickRepository(lib.db, lib.dialect) };
}
