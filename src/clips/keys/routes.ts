// /keys (contract: API keys). Gated on role only: a tag-scoped admin manages every key.
import { objectBody, pathId } from '../http/input.js';
import { API, type ClipRoutes } from '../http/routes.js';
import type { KeyService } from './service.js';

export function registerKeyRoutes(routes: ClipRoutes, keys: KeyService): void {
  routes.add({
    method: 'POST',
    path: `${API}/keys`,
    tag: 'keys',
    summary: 'Mint a key (name, role, scoped_tag_id); the plaintext is returned only here',
    needs: 'admin',
    handler: async ({ req, reply }) => reply.code(201).send(await keys.create(objectBody(req))),
  });

  routes.add({
    method: 'GET',
    path: `${API}/keys`,
    tag: 'keys',
    summary: 'Every key, newest first, active and revoked (never the key itself)',
    needs: 'admin',
    handler: async () => keys.list(),
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/keys/:id`,
    tag: 'keys',
    summary: 'Revoke a key (404 when unknown or already revoked)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await keys.revoke(pathId(req, 'key'));
      return reply.code(204).send();
    },
  });
}
