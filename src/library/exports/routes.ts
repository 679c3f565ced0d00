// Group export over HTTP (companion §7.4, §11.3): the estimate, the job submission and the
// archive download (404 unknown or not the caller's, 409 not finished, 410 past retention).
import { Type } from '@sinclair/typebox';
import { HttpError, notFound } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import { dispositionHeader, openForServing, sendFile } from '../../core/storage/serve.js';
import { PRODUCER } from '../archive/format.js';
import type { Library } from '../context.js';
import type { LibraryRoutes } from '../http/routes.js';
import { jobVisibility } from '../downloads/service.js';
import type { Filesystems } from '../resources/storage.js';
import { collectExport, estimate, requireRoots } from './collect.js';
import { GROUP_EXPORT, type ExportPayload } from './job.js';
import { ExportInput, exportOptions } from './options.js';
import type { ExportRepository } from './repository.js';
import { ExportStore } from './store.js';

/** <app>-export-YYYYMMDD-HHMMSS.tar[.gz] in UTC. */
export function archiveFileName(at: string, gzip: boolean): string {
  const stamp = at.replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
  return `${PRODUCER}-export-${stamp}.tar${gzip ? '.gz' : ''}`;
}

export function registerExportRoutes(routes: LibraryRoutes, lib: Library, repo: ExportRepository, fs: Filesystems, store: ExportStore): void {
  routes.add({
    method: 'POST',
    path: '/v1/groups/export/estimate',
    tag: 'exports',
    summary: 'Counts and size an export would have (nothing is read or written)',
    needs: 'read',
    input: ExportInput,
    handler: async ({ req, input }) => estimate(await collectExport(repo, fs, req.principal, exportOptions(input))),
  });

  routes.add({
    method: 'POST',
    path: '/v1/groups/export',
    tag: 'exports',
    summary: 'Queue a group export job; the archive is downloaded from /v1/exports/{jobId}/download',
    needs: 'write',
    input: ExportInput,
    handler: async ({ req, reply, input }) => {
      const options = exportOptions(input);
      await requireRoots(repo, req.principal, options.rootGroupIds);
      if (!lib.jobs.canAccept(1)) throw new HttpError(503, `download queue is full (max ${lib.jobs.capacityLimit} jobs) - all jobs are active or paused`);
      const payload: ExportPayload = { options, principal: req.principal };
      const job = lib.jobs.submit(GROUP_EXPORT, { ownerId: req.principal.userId, payload });
      return sendWrite(req, reply, { jobId: job.id }, `/admin/export?job=${job.id}`, 202);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/exports/:jobId/download',
    tag: 'exports',
    summary: 'Download a finished export archive',
    needs: 'read',
    input: Type.Object({ jobId: Type.String() }),
    handler: async ({ req, reply, input }) => {
      const visible = jobVisibility(req.principal);
      const job = lib.jobs.get(input.jobId, visible);
      if (job && job.source !== GROUP_EXPORT) throw notFound(`export ${input.jobId} not found`);
      if (job && job.status !== 'completed') {
        throw new HttpError(409, job.error ? `export ${job.id} did not finish (${job.status}: ${job.error})` : `export ${job.id} is not finished yet (status: ${job.status})`);
      }
      const record = await store.read(input.jobId);
      if (!record || !visible(record.ownerId)) throw notFound(`export ${input.jobId} not found`);
      const expires = ExportStore.expiresAt(record, lib.settings.millis('export_retention'));
      if (Date.now() > expires) throw new HttpError(410, `export ${record.id} expired at ${new Date(expires).toISOString()}`);
      // The one resolver, allowed into the private _exports folder because the owner was checked.
      const opened = openForServing(fs.main.root, ExportStore.resultPath(record.id, record.gzip), { allowPrivate: true });
      return opened.then((file) => sendFile(req, reply, file, {
        type: record.gzip ? 'application/gzip' : 'application/x-tar',
        disposition: dispositionHeader('attachment', archiveFileName(record.completedAt, record.gzip)),
        headers: { 'Cache-Control': 'private, no-store' },
      })).catch((e: unknown) => {
        if (e instanceof HttpError && e.status === 404) throw new HttpError(410, `export ${record.id} is no longer available`);
        throw e;
      });
    },
  });
}
