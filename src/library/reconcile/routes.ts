// /v1/admin/reconcile (docs/storage.md): GET is the dry-run report (what a run would remove,
// with sizes), POST runs the reconciliation now. Admin-only under -auth, like /v1/admin/*.
import { sendWrite } from '../../core/http/respond.js';
import type { LibraryRoutes } from '../http/routes.js';
import type { FileReconciler } from './service.js';

export function registerReconcileRoutes(routes: LibraryRoutes, reconciler: FileReconciler): void {
  routes.add({
    method: 'GET',
    path: '/v1/admin/reconcile',
    tag: 'admin',
    summary: 'Dry run of the file reconciliation: stored files no row references, stale upload parts, sizes',
    needs: 'system',
    handler: () => reconciler.schedule.dryRun(),
  });
  routes.add({
    method: 'POST',
    path: '/v1/admin/reconcile',
    tag: 'admin',
    summary: 'Remove stored files no row references (older than -orphan-grace) and stale upload parts now',
    needs: 'system',
    handler: async ({ req, reply }) => {
      const report = await reconciler.schedule.now();
      const done = new URLSearchParams({ removed: String(report.removed.files), bytes: String(report.removed.bytes), parts: String(report.removed.tempParts) });
      return sendWrite(req, reply, report, `/admin/storage?${done.toString()}`);
    },
  });
}
