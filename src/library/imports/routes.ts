// Group import over HTTP (companion §7.5, §11.3): upload and parse, the plan, apply, the result,
// and deleting a staged import. Imports belong to the uploader (admins see all); anything the
// caller may not see answers 404. Group-limited principals may not import at all (403).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, forbidden, notFound } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import { TERMINAL, type JobSnapshot } from '../../core/jobs/queue.js';
import type { Library } from '../context.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { jobVisibility } from '../downloads/service.js';
import { GROUP_IMPORT_REFUSED, mayImportGroups, type Principal } from '../auth/principal.js';
import { resolveDecisions } from './decisions.js';
import { IMPORT_APPLY, type ApplyPayload } from './apply-job.js';
import { IMPORT_PARSE, type ParsePayload } from './parse-job.js';
import type { Plan } from './plan.js';
import type { ImportPlanRepository } from './plan.repository.js';
import { ImportStore, type ImportMeta } from './staging.js';
import { receiveArchive } from './upload.js';

const IdInput = Type.Object({ jobId: Type.String({ description: 'the parse job id' }) });

const ApplyInput = Type.Object({
  jobId: Type.String(),
  parent_group_id: Type.Optional(Type.Unknown({ description: 'group the archive roots go under (absent: top level)' })),
  resource_collision_policy: Type.Optional(Type.Unknown({ description: 'skip (default) or duplicate' })),
  guid_collision_policy: Type.Optional(Type.Unknown({ description: 'merge (default), skip or replace' })),
  acknowledge_missing_hashes: Type.Optional(Type.Unknown({ description: 'required when files are neither in the archive nor here' })),
  mapping_actions: Type.Optional(Type.Unknown({ description: '{decision_key: {include, action: map|create, destination_id, rename_to}}' })),
  dangling_actions: Type.Optional(Type.Unknown({ description: '{dangling id: {action: drop|map, destination_id}}' })),
  shell_group_actions: Type.Optional(Type.Unknown({ description: '{export id: {action: create|map_to_existing, destination_id}}' })),
  excluded_items: Type.Optional(Type.Unknown({ description: 'export ids left out (a group takes its subtree and content along)' })),
});

/** Plans and results are sent as stored (they can be large); a vanished file is a 404. */
async function sendJsonFile(reply: FastifyReply, path: string, missing: string): Promise<FastifyReply> {
  if (!(await stat(path).catch(() => null))?.isFile()) throw notFound(missing);
  return reply.type('application/json; charset=utf-8').send(createReadStream(path));
}

function refuseScoped(p: Principal): void {
  if (!mayImportGroups(p)) throw forbidden(GROUP_IMPORT_REFUSED);
}

export function registerImportRoutes(routes: LibraryRoutes, lib: Library, repo: ImportPlanRepository, store: ImportStore): void {
  const locks = new KeyedLock();
  /** Import id → the apply job most recently submitted for it. */
  const applying = new Map<string, string>();
  const queueFull = () => new HttpError(503, `download queue is full (max ${lib.jobs.capacityLimit} jobs) - all jobs are active or paused`);

  /** The caller's staged import, or the parse job still waiting to create it. */
  async function find(req: FastifyRequest, id: string): Promise<{ meta: ImportMeta | null; job: JobSnapshot | undefined }> {
    const visible = jobVisibility(req.principal);
    const job = lib.jobs.get(id, visible);
    const meta = await store.readMeta(id);
    if (meta && visible(meta.ownerId)) return { meta, job: job?.source === IMPORT_PARSE ? job : undefined };
    // A parse job that has not moved its upload into place yet; once it finished, no folder means deleted.
    if (job?.source === IMPORT_PARSE && !TERMINAL.has(job.status)) return { meta: null, job };
    throw notFound(`import ${id} not found`);
  }

  routes.add({
    method: 'POST',
    path: '/v1/groups/import/parse',
    tag: 'imports',
    summary: 'Upload an export archive (multipart field "file"); queues a parse job that builds the plan',
    needs: 'write',
    streamsFiles: true,
    handler: async ({ req, reply }) => {
      refuseScoped(req.principal);
      if (!lib.jobs.canAccept(1)) throw queueFull();
      const received = await receiveArchive(req, store, Number(lib.settings.get('max_import_size')));
      await store.writeMeta(received.dir, { id: '', ownerId: req.principal.userId, createdAt: new Date().toISOString(), status: 'parsing', archiveName: received.fileName, size: received.size });
      const payload: ParsePayload = { uploadDir: received.dir, fileName: received.fileName };
      let job: JobSnapshot;
      try {
        job = lib.jobs.submit(IMPORT_PARSE, { ownerId: req.principal.userId, payload });
      } catch (e) {
        await store.remove(received.dir);
        throw e;
      }
      return sendWrite(req, reply, { jobId: job.id }, `/admin/import?id=${job.id}`, 202);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/imports/:jobId/plan',
    tag: 'imports',
    summary: 'The import plan (404 until the parse job has built it; 422 when parsing failed)',
    needs: 'read',
    input: IdInput,
    handler: async ({ req, reply, input }) => {
      const { meta, job } = await find(req, input.jobId);
      if (meta?.status === 'failed') throw new HttpError(422, `the archive could not be parsed: ${meta.error ?? 'unknown error'}`);
      if (!meta || meta.status === 'parsing') throw notFound(`the plan of import ${input.jobId} is not ready yet${job ? ` (job ${job.status})` : ''}`);
      return sendJsonFile(reply, store.file(input.jobId, 'plan.json'), `the plan of import ${input.jobId} is gone`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/imports/:jobId/apply',
    tag: 'imports',
    summary: 'Apply a parsed import with the given decisions (202 with the apply job id)',
    needs: 'write',
    input: ApplyInput,
    handler: async ({ req, reply, input }) => {
      refuseScoped(req.principal);
      const { meta } = await find(req, input.jobId);
      if (!meta) throw new HttpError(409, `import ${input.jobId} is still being parsed`);
      const id = meta.id;
      const job = await locks.with(id, async () => {
        const current = (await store.readMeta(id))!;
        const running = [current.applyJobId, applying.get(id)].some((jobId) => {
          const j = jobId ? lib.jobs.get(jobId) : undefined;
          return j !== undefined && !TERMINAL.has(j.status);
        });
        if (running) throw new HttpError(409, `import ${id} is being applied`);
        if (current.status === 'applied') throw new HttpError(409, `import ${id} was already applied`);
        // "applying" without a running job: the process stopped midway; the plan may run again.
        if (current.status !== 'ready' && current.status !== 'applying') throw new HttpError(409, `import ${id} cannot be applied (status: ${current.status})`);
        if (Date.now() - Date.parse(current.createdAt) > lib.settings.millis('export_retention')) throw new HttpError(409, `import ${id} has expired; upload the archive again`);
        const plan = await store.readJson<Plan>(id, 'plan.json');
        if (!plan) throw new HttpError(409, `the plan of import ${id} is gone`);
        const { jobId: _id, ...body } = input;
        const decisions = await resolveDecisions(repo, plan, body as Record<string, unknown>);
        if (!lib.jobs.canAccept(1)) throw queueFull();
        const actor = actorOf(req);
        const payload: ApplyPayload = { importId: id, decisions, principal: actor.principal, origin: actor.origin };
        // The job records itself in meta.json when it starts; until then this map guards the plan.
        const submitted = lib.jobs.submit(IMPORT_APPLY, { ownerId: req.principal.userId, payload });
        applying.set(id, submitted.id);
        return submitted;
      });
      return sendWrite(req, reply, { jobId: job.id }, `/admin/import?id=${id}`, 202);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/imports/:jobId/result',
    tag: 'imports',
    summary: 'Counts and ids of what an apply created (by import id or apply job id)',
    needs: 'read',
    input: IdInput,
    handler: async ({ req, reply, input }) => {
      const applyJob = lib.jobs.get(input.jobId, jobVisibility(req.principal));
      const importId = applyJob?.source === IMPORT_APPLY ? (lib.jobs.payloadOf(applyJob.id) as ApplyPayload).importId : input.jobId;
      const { meta } = await find(req, importId);
      if (!meta || meta.status !== 'applied') throw notFound(`import ${input.jobId} has no result yet${meta ? ` (status: ${meta.status})` : ''}`);
      return sendJsonFile(reply, store.file(importId, 'result.json'), `the result of import ${input.jobId} is gone`);
    },
  });

  routes.add({
    method: 'DELETE',
    path: '/v1/imports/:jobId',
    tag: 'imports',
    summary: 'Cancel a running parse and delete the staged archive and plan',
    needs: 'write',
    input: IdInput,
    handler: async ({ req, reply, input }) => {
      const { meta, job } = await find(req, input.jobId);
      await locks.with(input.jobId, async () => {
        const current = meta ? await store.readMeta(input.jobId) : null;
        for (const jobId of [current?.applyJobId, applying.get(input.jobId)]) {
          const j = jobId ? lib.jobs.get(jobId) : undefined;
          if (j && !TERMINAL.has(j.status)) throw new HttpError(409, `import ${input.jobId} is being applied; cancel the apply job ${j.id} first`);
        }
        applying.delete(input.jobId);
        if (job && !TERMINAL.has(job.status)) lib.jobs.cancel(job.id);
        const upload = (lib.jobs.payloadOf(input.jobId) as ParsePayload | undefined)?.uploadDir;
        if (upload) await store.remove(upload);
        if (ImportStore.validId(input.jobId)) await store.remove(store.dir(input.jobId));
      });
      return sendWrite(req, reply, undefined, '/admin/import');
    },
  });
}
