// Wires the audit log: it listens to every change event, and serves /v1/logs and the log pages.
// The log itself is built at start-up (lib.audit), before any feature can change anything.
import type { FeatureHost } from '../context.js';
import { registerAuditPages } from './pages.js';
import { registerAuditRoutes } from './routes.js';
import type { PickSource } from '../ui/picked.js';

export function auditFeature({ app, routes, layout, lib }: FeatureHost) {
  lib.audit.subscribe(lib.bus);
  registerAuditRoutes(routes, lib.audit);
  // The pages name the filtered entity through the picker lookups, which the ui feature builds.
  return { pages: (pickers: PickSource) => registerAuditPages(app, layout, lib.audit, pickers) };
}
