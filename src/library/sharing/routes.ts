// /v1/note/share and /v1/admin/shares/bulk-revoke (contract: Note sharing).
import { Type } from '@sinclair/typebox';
import { sendWrite, wantsJson } from '../../core/http/respond.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import type { ShareService } from './service.js';

export function registerShareRoutes(routes: LibraryRoutes, sharing: ShareService): void {
  routes.add({
    method: 'POST',
    path: '/v1/note/share',
    tag: 'sharing',
    summary: 'Share a note: {shareToken, shareUrl}; the existing token when already shared; 503 without a share server',
    needs: 'write',
    // noteId is parsed by the service, after the share-server check, which must come first.
    input: Type.Object({ noteId: Type.Optional(Type.String({ description: 'note id (required)' })) }),
    handler: async ({ req, reply, input }) => {
      const shared = await sharing.share(actorOf(req), input.noteId);
      return sendWrite(req, reply, shared, `/note?id=${encodeURIComponent(input.noteId ?? '')}`);
    },
  });

  routes.add({
    method: 'DELETE',
    path: '/v1/note/share',
    tag: 'sharing',
    summary: 'Stop sharing a note: {success: true}',
    needs: 'write',
    input: Type.Object({ noteId: Type.Optional(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await sharing.unshare(actorOf(req), input.noteId);
      return sendWrite(req, reply, { success: true }, `/note?id=${input.noteId}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/admin/shares/bulk-revoke',
    tag: 'sharing',
    summary: 'Unshare several notes (ids repeated; non-numeric and zero values skipped); JSON with Accept: application/json, else 303 to /admin/shares',
    needs: 'editor',
    input: Type.Object({ ids: Type.Optional(Type.Array(Type.String())) }),
    handler: async ({ req, reply, input }) => {
      const ids = (input.ids ?? []).map((s) => s.trim()).filter((s) => /^\d+$/.test(s)).map(Number).filter((n) => n > 0 && Number.isSafeInteger(n));
      const revoked = await sharing.bulkRevoke(actorOf(req), ids);
      if (wantsJson(req)) return reply.send({ success: true, revoked, attempts: ids.length });
      return reply.code(303).header('location', '/admin/shares').send();
    },
  });
}
