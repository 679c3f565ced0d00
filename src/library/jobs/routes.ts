// /v1/jobs/* with their legacy /v1/download/* aliases (contract: Jobs and the download queue,
// Events). Every listing and control is confined to the jobs the caller may see.
import { Type } from '@sinclair/typebox';
import { notFound } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { JobQueue } from '../../core/jobs/queue.js';
import { openSse } from '../../core/sse/stream.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { RemoteInput } from '../downloads/payload.js';
import { jobVisibility, type DownloadService } from '../downloads/service.js';

const IdInput = Type.Object({ id: Type.String({ description: 'job id' }) });

const CONTROLS = [
  ['cancel', 'cancelled', 'Cancel a job'],
  ['pause', 'paused', 'Pause a download (it restarts from the beginning when resumed)'],
  ['resume', 'resumed', 'Resume a paused download from byte 0'],
  ['retry', 'retrying', 'Run a failed or cancelled job again'],
] as const;

/** Plugin action jobs (library-plugins.md §17.6): outside the queue, in the same stream. */
export interface ActionJobSource {
  list(visible: (ownerId: number | null) => boolean): unknown[];
  subscribe(listener: (e: { type: string; job: unknown; ownerId: number | null }) => void): () => void;
  clearCompleted(visible: (ownerId: number | null) => boolean): string[];
}

export function registerJobRoutes(routes: LibraryRoutes, queue: JobQueue, downloads: DownloadService, actionJobs?: ActionJobSource): void {
  routes.add({
    method: 'GET',
    path: ['/v1/jobs/queue', '/v1/download/queue'],
    tag: 'jobs',
    summary: 'Jobs in the queue, finished ones included until retention removes them',
    needs: 'read',
    handler: async ({ req }) => ({ jobs: queue.list(jobVisibility(req.principal)) }),
  });

  routes.add({
    method: 'GET',
    path: '/v1/jobs/get',
    tag: 'jobs',
    summary: 'One job snapshot',
    needs: 'read',
    input: IdInput,
    handler: async ({ req, input }) => {
      const job = queue.get(input.id, jobVisibility(req.principal));
      if (!job) throw notFound(`job ${input.id} not found`);
      return job;
    },
  });

  routes.add({
    method: 'POST',
    path: ['/v1/jobs/download/submit', '/v1/download/submit'],
    tag: 'jobs',
    summary: 'Queue one download per URL line (same parameters as /v1/resource/remote)',
    needs: 'write',
    input: RemoteInput,
    handler: async ({ req, reply, input }) => {
      const jobs = await downloads.submit(req.principal, input);
      return sendWrite(req, reply, { queued: true, jobs }, '/downloads', 202);
    },
  });

  for (const [action, status, summary] of CONTROLS) {
    routes.add({
      method: 'POST',
      path: [`/v1/jobs/${action}`, `/v1/download/${action}`],
      tag: 'jobs',
      summary,
      needs: 'write',
      input: IdInput,
      handler: async ({ req, reply, input }) => {
        downloads.control(req.principal, input.id, action);
        return sendWrite(req, reply, { status }, '/downloads');
      },
    });
  }

  routes.add({
    method: 'POST',
    path: '/v1/jobs/clearCompleted',
    tag: 'jobs',
    summary: 'Dismiss every finished job the caller can see',
    needs: 'write',
    handler: async ({ req, reply }) => {
      const visible = jobVisibility(req.principal);
      const ids = [...queue.clearCompleted(visible), ...(actionJobs?.clearCompleted(visible) ?? [])];
      return sendWrite(req, reply, { cleared: ids.length, ids }, '/downloads');
    },
  });

  routes.add({
    method: 'GET',
    path: ['/v1/jobs/events', '/v1/download/events'],
    tag: 'jobs',
    summary: 'Server-Sent Events: init, added, updated, removed (and action_* for plugin jobs)',
    needs: 'read',
    handler: async ({ req, reply }) => {
      const visible = jobVisibility(actorOf(req).principal);
      const stream = openSse(req, reply);
      stream.send('init', { jobs: queue.list(visible), actionJobs: actionJobs?.list(visible) ?? [] });
      const unsubscribe = queue.subscribe((e) => {
        if (visible(e.ownerId)) stream.send(e.type, { type: e.type, job: e.job });
      });
      const unsubscribeActions = actionJobs?.subscribe((e) => {
        if (visible(e.ownerId)) stream.send(e.type, { job: e.job });
      });
      void stream.closed.then(() => {
        unsubscribe();
        unsubscribeActions?.();
      });
      return reply;
    },
  });
}
