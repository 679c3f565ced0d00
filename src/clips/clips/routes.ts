// /clips… (contract: Clips, Clip metadata, Clip-tag association).
import type { FastifyReply } from 'fastify';
import { HttpError, notFound } from '../../core/http/errors.js';
import type { ClipContext } from '../context.js';
import { objectBody, pathId, pathText, queryValue, readPage } from '../http/input.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import { emitLinkChanges, addTagToClips, removeTagFromClips } from '../tags/assign.js';
import { tagInScope, type TagService } from '../tags/service.js';
import { sendClipData } from './download.js';
import { validFilename } from './filenames.js';
import { readClipFilter } from './filters.js';
import type { MetadataService } from './metadata.js';
import { scopeTag, validMinutes, type ClipService } from './service.js';
import { receiveClip } from './upload.js';

const noContent = (reply: FastifyReply) => reply.code(204).send();

export function registerClipRoutes(routes: ClipRoutes, ctx: ClipContext, clips: ClipService, metadata: MetadataService, tags: TagService): void {
  routes.add({
    method: 'GET',
    path: `${API}/clips`,
    tag: 'clips',
    summary: 'List clips, newest first (limit, offset, tag, content_type, archived, search, hidden)',
    needs: 'viewer',
    handler: async ({ req }) => {
      const caller = callerOf(req);
      const page = readPage(req);
      const filter = await readClipFilter(req, caller, tags.repo, clips.now(), true);
      return clips.page(filter, page);
    },
  });

  routes.add({
    method: 'GET',
    path: `${API}/clips/hidden-info`,
    tag: 'clips',
    summary: 'How many clips the hidden tags withheld, and which hidden tags they carry',
    needs: 'viewer',
    handler: async ({ req }) => {
      const filter = await readClipFilter(req, callerOf(req), tags.repo, clips.now(), false);
      const hidden = filter.hidden ?? [];
      if (hidden.length === 0) return { count: 0, tags: [] };
      return clips.repo.hiddenInfo({ ...filter, hidden: [] }, hidden);
    },
  });

  routes.add({
    method: 'GET',
    path: `${API}/clips/:id`,
    tag: 'clips',
    summary: 'One clip',
    needs: 'viewer',
    handler: async ({ req }) => clips.one(await clips.accessible(callerOf(req), pathId(req, 'clip'))),
  });

  routes.add({
    method: 'GET',
    path: `${API}/clips/:id/data`,
    tag: 'clips',
    summary: 'The clip bytes (single Range supported)',
    needs: 'viewer',
    handler: async ({ req, reply }) => sendClipData(req, reply, await clips.accessible(callerOf(req), pathId(req, 'clip')), ctx.blobs),
  });

  routes.add({
    method: 'POST',
    path: `${API}/clips`,
    tag: 'clips',
    summary: 'Upload a clip (first multipart part, max 100 MiB); a duplicate returns the existing clip with 200',
    needs: 'editor',
    streamsFiles: true,
    handler: async ({ req, reply }) => {
      const caller = callerOf(req);
      const override = queryValue(req, 'filename');
      const filenameOverride = override ? validFilename(override) : null;
      const received = await receiveClip(req, ctx.blobs);
      const { clip, created } = await clips.createFromStaged(
        received.staged,
        { filename: filenameOverride ?? received.filename, declaredType: received.declaredType },
        { dedup: true, tag: caller.scope ? scopeTag(caller.scope) : null },
      );
      return reply.code(created ? 201 : 200).send(clip);
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/clips/:id`,
    tag: 'clips',
    summary: 'Delete a clip',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      await clips.delete(callerOf(req), pathId(req, 'clip'));
      return noContent(reply);
    },
  });

  routes.add({
    method: 'PATCH',
    path: `${API}/clips/:id`,
    tag: 'clips',
    summary: 'Rename a clip (JSON: filename)',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'clip');
      const body = objectBody(req);
      await clips.rename(callerOf(req), id, body.filename);
      return noContent(reply);
    },
  });

  for (const [method, archived] of [['PUT', true], ['DELETE', false]] as const) {
    routes.add({
      method,
      path: `${API}/clips/:id/archive`,
      tag: 'clips',
      summary: archived ? 'Archive a clip' : 'Unarchive a clip',
      needs: 'editor',
      handler: async ({ req, reply }) => {
        const row = await clips.accessible(callerOf(req), pathId(req, 'clip'));
        await clips.setArchived([row.id], archived);
        return noContent(reply);
      },
    });
  }

  routes.add({
    method: 'PUT',
    path: `${API}/clips/:id/expiration`,
    tag: 'clips',
    summary: 'Delete the clip automatically after `minutes` (JSON)',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'clip');
      const body = objectBody(req);
      const row = await clips.accessible(callerOf(req), id);
      await clips.setExpiry([row.id], validMinutes(body.minutes));
      return noContent(reply);
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/clips/:id/expiration`,
    tag: 'clips',
    summary: 'Cancel a pending expiry',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const row = await clips.accessible(callerOf(req), pathId(req, 'clip'));
      await clips.setExpiry([row.id], null);
      return noContent(reply);
    },
  });

  routes.add({
    method: 'GET',
    path: `${API}/clips/:id/metadata`,
    tag: 'metadata',
    summary: 'Metadata of a clip (string keys to string values)',
    needs: 'viewer',
    handler: async ({ req }) => metadata.get((await clips.accessible(callerOf(req), pathId(req, 'clip'))).id),
  });

  routes.add({
    method: 'PUT',
    path: `${API}/clips/:id/metadata`,
    tag: 'metadata',
    summary: 'Replace all metadata of a clip at once',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'clip');
      const row = await clips.accessible(callerOf(req), id);
      await metadata.replace(row.id, req.body);
      return noContent(reply);
    },
  });

  routes.add({
    method: 'PUT',
    path: `${API}/clips/:id/metadata/:key`,
    tag: 'metadata',
    summary: 'Set one metadata value (JSON: value)',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'clip');
      const row = await clips.accessible(callerOf(req), id);
      await metadata.put(row.id, pathText(req, 'key'), req.body);
      return noContent(reply);
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/clips/:id/metadata/:key`,
    tag: 'metadata',
    summary: 'Remove one metadata key (204 whether or not it existed)',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const row = await clips.accessible(callerOf(req), pathId(req, 'clip'));
      await metadata.delete(row.id, pathText(req, 'key'));
      return noContent(reply);
    },
  });

  for (const method of ['PUT', 'DELETE'] as const) {
    routes.add({
      method,
      path: `${API}/clips/:id/tags/:tagId`,
      tag: 'clip tags',
      summary: method === 'PUT' ? 'Tag a clip (replaces any tag of the same root tree)' : 'Untag a clip',
      needs: 'editor',
      handler: async ({ req, reply }) => {
        const caller = callerOf(req);
        const clipId = pathId(req, 'clip');
        const tagId = pathId(req, 'tag', 'tagId');
        // A scoped key: the tag must be in scope, then the clip (both 403 otherwise).
        const tag = await tags.repo.find(tagId);
        if (caller.scope && (!tag || !tagInScope(caller.scope, tag))) throw new HttpError(403, 'forbidden: tag not in scoped tag');
        const clip = await clips.accessible(caller, clipId);
        if (!tag) throw notFound('tag not found');
        const changes = await ctx.db.transaction().execute((trx) =>
          method === 'PUT' ? addTagToClips(trx, [clip.id], tag, clips.now()) : removeTagFromClips(trx, [clip.id], tag.id),
        );
        emitLinkChanges(ctx.events, changes);
        return noContent(reply);
      },
    });
  }
}

