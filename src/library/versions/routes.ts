// /v1/resource/version… (contract: Resource versions; companion §3.6, §11.2).
import { Type } from '@sinclair/typebox';
import { extname } from 'node:path';
import { badRequest } from '../../core/http/errors.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { sendWrite } from '../../core/http/respond.js';
import { dispositionHeader, openForServing, sendFile } from '../../core/storage/serve.js';
import { bareMime, extensionFor } from '../../core/storage/sniff.js';
import { actorOf, seenBy, type LibraryRoutes } from '../http/routes.js';
import type { ResourceContext } from '../resources/context.js';
import { readUpload } from '../resources/multipart.js';
import { versionRecord } from '../resources/records.js';
import type { VersionService } from './service.js';

const VersionPair = Type.Object({ resourceId: Type.Integer(), versionId: Type.Integer() });

export function registerVersionRoutes(routes: LibraryRoutes, ctx: ResourceContext, versions: VersionService): void {
  routes.add({
    method: 'GET',
    path: '/v1/resource/versions',
    tag: 'versions',
    summary: 'Versions of a resource, newest first',
    needs: 'read',
    input: Type.Object({ resourceId: Type.Integer() }),
    handler: async ({ req, input }) => versions.list(seenBy(req), input.resourceId),
  });

  routes.add({
    method: 'GET',
    path: '/v1/resource/version',
    tag: 'versions',
    summary: 'One version',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ req, input }) => versionRecord(await versions.get(seenBy(req), input.id)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/versions',
    tag: 'versions',
    summary: 'Upload a new current version (multipart field file, optional comment)',
    needs: 'write',
    input: Type.Object({ resourceId: Type.Optional(Type.Integer()), comment: Type.Optional(Type.String()), file: Type.Optional(Type.Unknown()) }),
    streamsFiles: true,
    handler: async ({ req, reply }) => {
      if (!req.isMultipart()) throw badRequest('expected a multipart/form-data body with a "file" part');
      const upload = await readUpload(req, reply, ctx.fs.main, ['file'], Number(ctx.lib.settings.get('max_upload_size')));
      let input;
      try {
        input = readParams(Type.Object({ resourceId: Type.Integer(), comment: Type.Optional(Type.String()) }), makeBag(req.query, upload.fields));
        if (upload.files.length === 0) throw badRequest('the multipart field "file" is missing');
      } catch (e) {
        for (const f of upload.files) await ctx.fs.main.discard(f.staged);
        throw e;
      }
      for (const extra of upload.files.slice(1)) await ctx.fs.main.discard(extra.staged);
      const file = upload.files[0];
      const v = await versions.upload(actorOf(req), input.resourceId, file.staged, file.filename, input.comment ?? '');
      return sendWrite(req, reply, versionRecord(v), `/resource?id=${input.resourceId}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/version/restore',
    tag: 'versions',
    summary: 'Restore a version as a new current version',
    needs: 'write',
    input: Type.Object({ resourceId: Type.Integer(), versionId: Type.Integer(), comment: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      const v = await versions.restore(actorOf(req), input.resourceId, input.versionId, input.comment);
      return sendWrite(req, reply, versionRecord(v), `/resource?id=${input.resourceId}`);
    },
  });

  for (const [method, path] of [
    ['DELETE', '/v1/resource/version'],
    ['POST', '/v1/resource/version/delete'],
  ] as const) {
    routes.add({
      method,
      path,
      tag: 'versions',
      summary: 'Delete a version (409 for the current or last one)',
      needs: 'write',
      input: VersionPair,
      handler: async ({ req, reply, input }) => {
        await versions.delete(actorOf(req), input.resourceId, input.versionId);
        return sendWrite(req, reply, { status: 'deleted' }, `/resource?id=${input.resourceId}`);
      },
    });
  }

  routes.add({
    method: 'GET',
    path: '/v1/resource/version/file',
    tag: 'versions',
    summary: 'The file of a version (attachment; disposition=inline is honoured for PDF only)',
    needs: 'read',
    input: Type.Object({ versionId: Type.Integer(), disposition: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      const v = await versions.get(seenBy(req), input.versionId);
      const type = bareMime(v.content_type);
      const inline = input.disposition === 'inline' && type === 'application/pdf';
      const ext = extname(v.location) || extensionFor(v.content_type);
      const headers: Record<string, string> = inline ? { 'X-Frame-Options': 'SAMEORIGIN' } : {};
      // Through the resolver: a stored location that became a symlink out of the root is not followed.
      const file = await openForServing(ctx.fs.get(v.storage_location).root, v.location, { allowPrivate: true });
      return sendFile(req, reply, file, {
        type: v.content_type || 'application/octet-stream',
        disposition: dispositionHeader(inline ? 'inline' : 'attachment', `v${v.version_number}_${v.hash.slice(0, 8)}${ext}`),
        lastModified: new Date(v.created_at),
        headers: { ...headers, 'Content-Security-Policy': "sandbox; default-src 'none'" },
      });
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/resource/versions/cleanup',
    tag: 'versions',
    summary: "Delete a resource's old versions (keepLast, olderThanDays, dryRun)",
    needs: 'write',
    input: Type.Object({ resourceId: Type.Integer(), keepLast: Type.Optional(Type.Integer()), olderThanDays: Type.Optional(Type.Integer()), dryRun: Type.Optional(Type.Boolean()) }),
    handler: async ({ req, reply, input }) => sendWrite(req, reply, await versions.cleanup(actorOf(req), input.resourceId, input), `/resource?id=${input.resourceId}`),
  });

  routes.add({
    method: 'POST',
    path: '/v1/resources/versions/cleanup',
    tag: 'versions',
    summary: 'Delete old versions of every resource (or one owner group’s)',
    needs: 'write',
    input: Type.Object({ keepLast: Type.Optional(Type.Integer()), olderThanDays: Type.Optional(Type.Integer()), ownerId: Type.Optional(Type.Integer()), dryRun: Type.Optional(Type.Boolean()) }),
    handler: async ({ req, reply, input }) => sendWrite(req, reply, await versions.cleanupAll(actorOf(req), input), '/resources'),
  });

  routes.add({
    method: 'GET',
    path: '/v1/resource/versions/compare',
    tag: 'versions',
    summary: 'Compare two versions of a resource',
    needs: 'read',
    input: Type.Object({ resourceId: Type.Integer(), v1: Type.Integer(), v2: Type.Integer() }),
    handler: async ({ req, input }) => versions.compare(seenBy(req), input.resourceId, input.v1, input.v2),
  });
}
