// Administration of similarity (contract: Administration; companion §7.6): a queue job that
// rebuilds every stored pair from the stored hashes (one at a time, cancellable, never paused,
// not in the download history), and the reset of failed hash rows for the worker to retry.
import { HttpError } from '../../core/http/errors.js';
import { TERMINAL, type JobQueue } from '../../core/jobs/queue.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import type { Library } from '../context.js';
import type { HashWorker } from './hasher.js';

export const RECOMPUTE = 'recompute-similarities';

export function registerSimilarityAdmin(routes: LibraryRoutes, lib: Library, jobs: JobQueue, hasher: HashWorker): void {
  jobs.registerKind(RECOMPUTE, {
    pausable: false,
    runningStatus: 'processing',
    async run(_payload, ctx) {
      ctx.phase('recomputing');
      const pairs = await hasher.recomputePairs(ctx.signal, (done, total) => ctx.progress(done, total));
      ctx.phase('completed', pairs, pairs);
      return {};
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/admin/similarity/recompute',
    tag: 'admin',
    summary: 'Rebuild the stored similarity pairs in a background job (409 while one runs)',
    needs: 'system',
    handler: async ({ req }) => {
      const running = jobs.list().find((j) => j.source === RECOMPUTE && !TERMINAL.has(j.status));
      if (running) throw new HttpError(409, 'similarity recompute already in progress', { jobId: running.id });
      if (!jobs.canAccept(1)) throw new HttpError(503, `the job queue is full (max ${jobs.capacityLimit} jobs)`);
      const job = jobs.submit(RECOMPUTE, { ownerId: req.principal.userId, payload: null });
      await lib.audit.note({ level: 'info', action: 'system', entityType: 'similarity', message: 'Similarity recompute started', origin: actorOf(req).origin });
      return { jobId: job.id };
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/admin/similarity/retry-failed',
    tag: 'admin',
    summary: 'Reset failed hash rows so the background worker hashes those images again',
    needs: 'system',
    handler: async ({ req }) => {
      const reset = await hasher.resetFailed();
      await lib.audit.note({ level: 'info', action: 'system', entityType: 'similarity', message: `Reset ${reset} failed image hashes`, origin: actorOf(req).origin });
      return { reset };
    },
  });
}
