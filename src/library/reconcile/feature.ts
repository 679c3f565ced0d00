// Wires file reconciliation (docs/storage.md): a run when the server is ready (before it
// serves), then every -reconcile-interval; the admin routes and the /admin/storage page.
import type { FeatureHost } from '../context.js';
import type { Filesystems } from '../resources/storage.js';
import { registerReconcilePages } from './pages.js';
import { FileReferenceRepository } from './repository.js';
import { registerReconcileRoutes } from './routes.js';
import { FileReconciler } from './service.js';

export function reconcileFeature({ app, routes, layout, lib }: FeatureHost, deps: { fs: Filesystems }): FileReconciler {
  const { graceMs, intervalMs } = lib.config.reconcile;
  const reconciler = new FileReconciler(deps.fs, new FileReferenceRepository(lib.db, lib.dialect), graceMs, intervalMs, (msg) => console.log(msg));
  registerReconcileRoutes(routes, reconciler);
  registerReconcilePages(app, layout, reconciler);
  app.addHook('onReady', async () => {
    await reconciler.schedule.now().catch((e: unknown) => console.error('start-up reconciliation failed:', e));
    reconciler.schedule.start();
  });
  app.addHook('onClose', () => reconciler.schedule.stop());
  return reconciler;
}
