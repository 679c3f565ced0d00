// /admin/reconcile (an extension beyond the contract, docs/storage.md; GET /status may carry no
// clip data): GET is the dry run of the blob reconciliation, POST runs it now. Admin keys only,
// and not tag-scoped ones: the report covers every clip's bytes.
import { HttpError } from '../../core/http/errors.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import type { ClipReconciler } from './reconcile.js';

export function registerReconcileRoutes(routes: ClipRoutes, reconciler: ClipReconciler): void {
  const unscoped = (req: Parameters<typeof callerOf>[0]) => {
    if (callerOf(req).scope) throw new HttpError(403, 'reconciliation is not available for tag-scoped keys');
  };
  routes.add({
    method: 'GET',
    path: `${API}/admin/reconcile`,
    tag: 'admin',
    summary: 'Dry run: blobs no clip refers to and stale upload parts that a reconciliation would remove, with sizes',
    needs: 'admin',
    handler: async ({ req }) => {
      unscoped(req);
      return reconciler.schedule.dryRun();
    },
  });
  routes.add({
    method: 'POST',
    path: `${API}/admin/reconcile`,
    tag: 'admin',
    summary: 'Remove blobs no clip refers to (older than -orphan-grace-ms) and stale upload parts now',
    needs: 'admin',
    handler: async ({ req }) => {
      unscoped(req);
      return reconciler.schedule.now();
    },
  });
}
