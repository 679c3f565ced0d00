// Wires the audit log: it listens to every change event, and serves /v1/logs and the log pages.
// The log itself is built at start-up (lib.audit), before any feature can change anything.
import type { FeatureHost } from '../context.js';
import { registerAuditPages } from './pages.js';
import { registerAuditRoutes } from './routes.js';

export function auditFeature({ app, routes, layout, lib }: FeatureHost): void {
  lib.audit.subscribe(lib.bus);
  registerAuditRoutes(routes, lib.audit);
  registerAuditPages(app, layout, lib.audit);
}
