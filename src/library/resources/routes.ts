// /v1/resource… and /v1/resources… (contract: Resources; companion §3, §11.2).
import { Type, type TObject } from '@sinclair/typebox';
import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DownloadService } from '../downloads/service.js';
import type { RemoteParams } from '../downloads/payload.js';
import { badRequest, HttpError, notFound } from '../../core/http/errors.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { sendWrite } from '../../core/http/respond.js';
import { openForServing, sendFile } from '../../core/storage/serve.js';
import { sendList } from '../common/routes.js';
import { actorOf, seenBy, type LibraryRoutes } from '../http/routes.js';
import type { ResourceContext } from './context.js';
import { ResourceListInput } from './filters.js';
import { DuplicateError, type IngestService } from './ingest.js';
import type { MediaOps } from './media-ops.js';
import type { ResourceMerge } from './merge.js';
import { readUpload } from './multipart.js';
import { PLACEHOLDER } from './previews.js';
import type { ResourceRow } from './records.js';
import type { RemoteImports } from './remote.js';
import { resourceContent } from './content.js';
import { registerBulkEdits } from '../massEdit/bulk.js';
import { registerMassEdit } from '../massEdit/routes.js';
import { registerEditMeta } from '../meta/editMeta.js';
import { remoteFields, writeFields } from './fields.js';
import type { ResourceService } from './service.js';
import { Filesystems } from './storage.js';
import type { ResourceStores } from './stores.js';
import type { SimilarityService } from '../similarity/service.js';

const UploadInput = Type.Object({ ...remoteFields, resource: Type.Optional(Type.Unknown({ description: 'file part(s), repeatable' })) });
const RemoteInput = Type.Object({ ...remoteFields, URL: Type.String() });
const LocalInput = Type.Object({ ...writeFields, LocalPath: Type.String() });
const EditInput = Type.Object({ ...writeFields, ID: Type.Integer() });
const IdInput = Type.Object({ id: Type.Integer() });

/** Parameters of a multipart or ordinary request, read against `schema`. */
function params<T extends TObject>(schema: T, req: FastifyRequest, fields?: Record<string, unknown>) {
  return readParams(schema, makeBag(req.query, fields ?? req.body));
}


interface Failure {
  error: string;
  existingResourceId?: number;
  kind: 'duplicate' | 'invalid' | 'storage';
}

export interface ResourceRouteDeps {
  ctx: ResourceContext;
  stores: ResourceStores;
  resources: ResourceService;
  ingest: IngestService;
  remote: RemoteImports;
  merge: ResourceMerge;
  ops: MediaOps;
  similarity: SimilarityService;
  downloads: DownloadService;
}

export function registerResourceRoutes(routes: LibraryRoutes, deps: ResourceRouteDeps): void {
  const { ctx, resources, ingest, remote, ops, downloads } = deps;
  /** background=true queues one download job per URL instead of fetching now (202). */
  const queued = async (req: FastifyRequest, reply: FastifyReply, input: RemoteParams) =>
    sendWrite(req, reply, { queued: true, jobs: await downloads.submit(req.principal, input) }, '/downloads', 202);

  const limit = () => Number(ctx.lib.settings.get('max_upload_size'));

  routes.add({
    method: 'GET',
    path: '/v1/resources',
    tag: 'resources',
    summary: 'List resources (Tags, Owner, resourceCategory and series preloaded)',
    needs: 'read',
    input: ResourceListInput,
    handler: async ({ req, input, reply }) => {
      const { rows, page, perPage } = await resources.list(seenBy(req), input);
      return sendList(reply, rows, page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/resource',
    tag: 'resources',
    summary: 'One resource with its notes, groups, versions and image hash',
    needs: 'read',
    input: IdInput,
    handler: async ({ req, input }) => resources.read(seenBy(req), input.id),
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource',
    tag: 'resources',
    summary: 'Upload files (multipart field resource, repeatable; always answers an array), or import a URL',
    needs: 'write',
    input: UploadInput,
    streamsFiles: true,
    handler: async ({ req, reply }) => {
      const actor = actorOf(req);
      if (!req.isMultipart()) {
        const input = params(UploadInput, req);
        if (!input.URL || input.URL.trim() === '') throw badRequest('no file uploaded: send multipart/form-data with one or more "resource" file parts, or a URL');
        if (input.background) return queued(req, reply, input);
        const row = await remote.importRemote(actor, { ...input, URL: input.URL });
        return sendWrite(req, reply, await resources.present(row), `/resource?id=${row.id}`);
      }
      const upload = await readUpload(req, reply, ctx.fs.main, ['resource'], limit());
      const discardAll = async () => {
        for (const f of upload.files) await ctx.fs.main.discard(f.staged);
      };
      let input;
      try {
        input = params(UploadInput, req, upload.fields);
        if (input.URL && input.URL.trim() !== '') {
          await discardAll();
          if (input.background) return queued(req, reply, input);
          const row = await remote.importRemote(actor, { ...input, URL: input.URL });
          return sendWrite(req, reply, await resources.present(row), `/resource?id=${row.id}`);
        }
        if (upload.files.length === 0) throw badRequest('no file uploaded: the multipart field "resource" is missing');
        await ingest.prevalidate(input, seenBy(req));
      } catch (e) {
        await discardAll();
        throw e;
      }
      const created: ResourceRow[] = [];
      const failures: Failure[] = [];
      for (const file of upload.files) {
        try {
          created.push(await ingest.fromStaged(actor, file.staged, file.filename, input));
        } catch (e) {
          if (e instanceof DuplicateError) failures.push({ error: e.message, existingResourceId: e.existingId, kind: 'duplicate' });
          else if (e instanceof HttpError && e.status === 400) failures.push({ error: e.message, kind: 'invalid' });
          else {
            console.error('storing an upload failed:', e);
            failures.push({ error: e instanceof HttpError ? e.message : 'the file could not be stored', kind: 'storage' });
          }
        }
      }
      if (failures.length > 0) throw uploadFailure(failures, upload.files.length, created);
      const records = await resources.presentPage(created);
      const page = records.length === 1 ? `/resource?id=${records[0].ID}` : input.OwnerId ? `/group?id=${input.OwnerId}` : '/resources';
      return sendWrite(req, reply, records, page);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/remote',
    tag: 'resources',
    summary: 'Download URL(s) synchronously and store them (answers the first resource)',
    needs: 'write',
    input: RemoteInput,
    handler: async ({ req, reply, input }) => {
      if (input.background) return queued(req, reply, input);
      const row = await remote.importRemote(actorOf(req), input);
      return sendWrite(req, reply, await resources.present(row), `/resource?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/local',
    tag: 'resources',
    summary: 'Register a file that already lies in a filesystem (idempotent; nothing is copied)',
    needs: 'write',
    input: LocalInput,
    handler: async ({ req, reply, input }) => {
      const { row } = await ingest.fromLocal(actorOf(req), input);
      return sendWrite(req, reply, await resources.present(row), `/resource?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/edit',
    tag: 'resources',
    summary: 'Update a resource; given Tags, Groups, Notes and Meta replace',
    needs: 'write',
    input: EditInput,
    handler: async ({ req, reply, input }) => {
      const rec = await resources.edit(actorOf(req), input.ID, input);
      return sendWrite(req, reply, rec, `/resource?id=${rec.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/delete',
    tag: 'resources',
    summary: 'Delete a resource and its file',
    needs: 'write',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await resources.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { ID: row.id }, '/resources');
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/resource/view',
    tag: 'resources',
    summary: "302 to the stored file; also accepts the list filters (exactly one match)",
    needs: 'read',
    input: Type.Object({ ...ResourceListInput.properties, id: Type.Optional(Type.Integer()) }),
    handler: async ({ req, input, reply }) => {
      let row: ResourceRow;
      if (input.id !== undefined) row = await resources.require(seenBy(req), input.id);
      else {
        const { id: _id, page: _page, SortBy: _s, MaxResults: _m, ...filters } = input;
        if (Object.values(filters).every((v) => v === undefined)) throw badRequest('id or a resource filter is required');
        const matches = await resources.matchingIds(seenBy(req), filters, 2);
        if (matches.length !== 1) throw notFound(matches.length === 0 ? 'no resource matches' : 'more than one resource matches');
        row = await resources.require(seenBy(req), matches[0]);
      }
      return reply.code(302).header('location', Filesystems.url(row.storage_location, row.location)).send();
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/resource/preview',
    tag: 'resources',
    summary: 'Thumbnail JPEG (307 to the placeholder when none can be made)',
    needs: 'read',
    input: Type.Object({ ID: Type.Integer(), Width: Type.Optional(Type.Integer({ minimum: 0 })), Height: Type.Optional(Type.Integer({ minimum: 0 })) }),
    handler: async ({ req, reply, input }) => {
      const row = await resources.require(seenBy(req), input.ID);
      const result = await ctx.previews.get(row, input.Width, input.Height);
      if (result.kind === 'placeholder') return reply.code(307).header('location', PLACEHOLDER).header('Cache-Control', 'no-cache').send();
      if (req.headers['if-none-match'] === result.etag) return reply.code(304).header('ETag', result.etag).send();
      return sendFile(req, reply, await openForServing(ctx.fs.main.root, result.location, { allowPrivate: true }), { type: 'image/jpeg', headers: { ETag: result.etag, 'Cache-Control': 'max-age=2592000' } });
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/preview',
    tag: 'resources',
    summary: 'Set a custom thumbnail (multipart field thumbnail); 204',
    needs: 'write',
    input: Type.Object({ ID: Type.Optional(Type.Unknown()) }),
    streamsFiles: true,
    handler: async ({ req, reply }) => {
      const id = readParams(Type.Object({ ID: Type.Integer() }), makeBag(req.query)).ID;
      if (!req.isMultipart()) throw badRequest('expected a multipart/form-data body with a "thumbnail" file');
      await resources.require(seenBy(req), id);
      const upload = await readUpload(req, reply, ctx.fs.main, ['thumbnail'], limit());
      try {
        if (upload.files.length === 0) throw badRequest('the multipart field "thumbnail" is missing');
        const bytes = await readFile(upload.files[0].staged.tempPath);
        await ctx.previews.setCustom(id, bytes).catch((e: Error) => {
          throw badRequest(e.message);
        });
      } finally {
        for (const f of upload.files) await ctx.fs.main.discard(f.staged);
      }
      return sendWrite(req, reply, undefined, `/resource?id=${id}`);
    },
  });

  for (const [method, path] of [
    ['DELETE', '/v1/resource/preview'],
    ['POST', '/v1/resource/preview/clear'],
  ] as const) {
    routes.add({
      method,
      path,
      tag: 'resources',
      summary: 'Clear stored thumbnails so they regenerate; 204',
      needs: 'write',
      input: Type.Object({ ID: Type.Integer() }),
      handler: async ({ req, reply, input }) => {
        await resources.require(seenBy(req), input.ID);
        await ctx.previews.clear(input.ID);
        return sendWrite(req, reply, undefined, `/resource?id=${input.ID}`);
      },
    });
  }

  routes.add({
    method: 'GET',
    path: '/v1/resource/suggestedTags',
    tag: 'resources',
    summary: 'Up to eight tag suggestions from similar images, co-occurring tags and the owner group',
    needs: 'read',
    input: IdInput,
    handler: async ({ req, input }) => {
      const row = await resources.require(seenBy(req), input.id);
      return { suggestions: await deps.similarity.suggestedTags(row, ctx.thresholds()) };
    },
  });

  const kind = resourceContent(resources, deps.stores);
  registerBulkEdits(routes, ctx.lib, kind, { base: '/v1/resources', page: '/resources', ops: ['addTags', 'removeTags', 'replaceTags', 'addGroups', 'addMeta'] });
  registerMassEdit(routes, ctx.lib, kind, { path: '/v1/resources/massEdit', page: '/resources' });
  registerEditMeta(routes, ctx.lib, kind, { path: '/v1/resource/editMeta', page: '/resource' });

  routes.add({
    method: 'POST',
    path: '/v1/resources/delete',
    tag: 'resources',
    summary: 'Delete several resources and their files',
    needs: 'write',
    input: Type.Object({ ID: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await resources.bulkDelete(actorOf(req), input.ID);
      return sendWrite(req, reply, { ok: true }, '/resources');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/merge',
    tag: 'resources',
    summary: 'Merge losers into the winner (KeepAsVersion keeps their files as versions)',
    needs: 'write',
    input: Type.Object({ Winner: Type.Integer(), Losers: Type.Array(Type.Integer()), KeepAsVersion: Type.Optional(Type.Boolean()) }),
    handler: async ({ req, reply, input }) => {
      await deps.merge.merge(actorOf(req), input.Winner, input.Losers, input.KeepAsVersion ?? false);
      return sendWrite(req, reply, { ok: true }, `/resource?id=${input.Winner}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/rotate',
    tag: 'resources',
    summary: 'Rotate clockwise by any number of degrees (new version)',
    needs: 'write',
    input: Type.Object({ ID: Type.Integer(), Degrees: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      await ops.rotate(actorOf(req), input.ID, input.Degrees);
      return sendWrite(req, reply, { ok: true }, `/resource?id=${input.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/crop',
    tag: 'resources',
    summary: 'Crop in place (new version) or AsNewResource',
    needs: 'write',
    input: Type.Object({
      ID: Type.Integer(),
      X: Type.Integer(),
      Y: Type.Integer(),
      Width: Type.Integer(),
      Height: Type.Integer(),
      Comment: Type.Optional(Type.String()),
      AsNewResource: Type.Optional(Type.Boolean()),
    }),
    handler: async ({ req, reply, input }) => {
      const result = await ops.crop(actorOf(req), input);
      return sendWrite(req, reply, result, `/resource?id=${result.id ?? input.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/trim',
    tag: 'resources',
    summary: 'Trim a video (new MP4 version; needs ffmpeg, else 503)',
    needs: 'write',
    input: Type.Object({ ID: Type.Integer(), Start: Type.String(), End: Type.String(), Comment: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      await ops.trim(actorOf(req), input);
      return sendWrite(req, reply, { ok: true }, `/resource?id=${input.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/recalculateDimensions',
    tag: 'resources',
    summary: 'Re-read width and height from the files (images and videos)',
    needs: 'write',
    input: Type.Object({ ID: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await ops.recalculateDimensions(actorOf(req), input.ID);
      return sendWrite(req, reply, { ok: true }, '/resources');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/setDimensions',
    tag: 'resources',
    summary: 'Store Width and Height as given',
    needs: 'write',
    input: Type.Object({ ID: Type.Integer(), Width: Type.Integer(), Height: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      await resources.setDimensions(actorOf(req), input.ID, input.Width, input.Height);
      return sendWrite(req, reply, { ok: true }, `/resource?id=${input.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/removeSeries',
    tag: 'resources',
    summary: 'Remove a resource from its series (the series remains unless empty)',
    needs: 'editor',
    input: IdInput,
    handler: async ({ req, reply, input }) => {
      await resources.removeSeries(actorOf(req), input.id);
      return sendWrite(req, reply, { id: input.id }, `/resource?id=${input.id}`);
    },
  });

  for (const [suffix, field] of [
    ['editName', 'name'],
    ['editDescription', 'description'],
  ] as const) {
    routes.add({
      method: 'POST',
      path: `/v1/resource/${suffix}`,
      tag: 'resources',
      summary: `Inline edit of the resource ${field}`,
      needs: 'write',
      input: Type.Object({ id: Type.Integer(), Name: Type.Optional(Type.String()), Description: Type.Optional(Type.String()), value: Type.Optional(Type.String()) }),
      handler: async ({ req, reply, input }) => {
        const value = (field === 'name' ? input.Name : input.Description) ?? input.value;
        if (value === undefined) throw badRequest(`${field === 'name' ? 'Name' : 'Description'} is required`);
        await resources.editField(actorOf(req), input.id, field, value);
        return sendWrite(req, reply, { ok: true, id: input.id }, `/resource?id=${input.id}`);
      },
    });
  }
}

/** The aggregate error of a multipart upload with failed files (companion §3.3). */
function uploadFailure(failures: Failure[], total: number, created: ResourceRow[]): HttpError {
  const details = failures.map((f) => (f.existingResourceId !== undefined ? { error: f.error, existingResourceId: f.existingResourceId } : { error: f.error }));
  const message = total === 1 ? failures[0].error : `${failures.length} of ${total} files could not be saved: ${failures.map((f) => f.error).join('; ')}`;
  const status = failures.some((f) => f.kind === 'storage') ? 500 : failures.every((f) => f.kind === 'duplicate') ? 409 : 400;
  return new HttpError(status, message, { details, created: created.map((r) => r.id) });
}
