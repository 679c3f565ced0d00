// /clipboard/… (contract: Clipboard): editors; a scoped key only for clips in its scope.
import { objectBody } from '../http/input.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import type { ClipboardService } from './service.js';

export function registerClipboardRoutes(routes: ClipRoutes, clipboard: ClipboardService): void {
  routes.add({
    method: 'POST',
    path: `${API}/clipboard/copy`,
    tag: 'clipboard',
    summary: "Put a clip's text or image (as PNG) on the server's clipboard",
    needs: 'editor',
    handler: async ({ req, reply }) => {
      await clipboard.copy(callerOf(req), objectBody(req));
      return reply.code(204).send();
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/clipboard/copy-file`,
    tag: 'clipboard',
    summary: "Put a reference to the clip as a file on the server's clipboard",
    needs: 'editor',
    handler: async ({ req, reply }) => {
      await clipboard.copyFile(callerOf(req), objectBody(req));
      return reply.code(204).send();
    },
  });
}
