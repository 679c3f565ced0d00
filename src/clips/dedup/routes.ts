// /dedup… (contract: Deduplication). Listing and merge-all are refused to tag-scoped keys.
import { HttpError } from '../../core/http/errors.js';
import type { ClipService } from '../clips/service.js';
import { pathId } from '../http/input.js';
import type { KeyPrincipal } from '../http/principal.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import type { DedupService } from './service.js';

function unscoped(caller: KeyPrincipal): void {
  if (caller.scope) throw new HttpError(403, 'dedup operations are not available for tag-scoped keys');
}

export function registerDedupRoutes(routes: ClipRoutes, dedup: DedupService, clips: ClipService): void {
  routes.add({
    method: 'GET',
    path: `${API}/dedup`,
    tag: 'dedup',
    summary: 'Groups of clips with identical content',
    needs: 'viewer',
    handler: async ({ req }) => {
      unscoped(callerOf(req));
      return dedup.groups();
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/dedup/:clipId/merge`,
    tag: 'dedup',
    summary: 'Keep this clip, take over the tags of its duplicates, delete them',
    needs: 'editor',
    handler: async ({ req, reply }) => {
      const survivor = await clips.accessible(callerOf(req), pathId(req, 'clip', 'clipId'));
      await dedup.merge(survivor.id);
      return reply.code(204).send();
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/dedup/all`,
    tag: 'dedup',
    summary: 'Merge every group keeping its oldest clip',
    needs: 'admin',
    handler: async ({ req }) => {
      unscoped(callerOf(req));
      return { removed: await dedup.mergeAll() };
    },
  });
}
