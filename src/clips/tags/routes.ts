// /tags… (contract: Tags).
import type { ClipService } from '../clips/service.js';
import { objectBody, pathId, readPage } from '../http/input.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import { tagInScope, type TagService } from './service.js';

export function registerTagRoutes(routes: ClipRoutes, tags: TagService, clips: ClipService): void {
  routes.add({
    method: 'GET',
    path: `${API}/tags`,
    tag: 'tags',
    summary: 'All tags by name (a scoped key sees its tag and descendants)',
    needs: 'viewer',
    handler: async ({ req }) => tags.list(callerOf(req)),
  });

  routes.add({
    method: 'POST',
    path: `${API}/tags`,
    tag: 'tags',
    summary: 'Create a tag; missing parents are created too',
    needs: 'admin',
    handler: async ({ req, reply }) => reply.code(201).send(await tags.create(callerOf(req), objectBody(req).name)),
  });

  routes.add({
    method: 'GET',
    path: `${API}/tags/hidden`,
    tag: 'tags',
    summary: 'The stored list of hidden tag ids (a client preference)',
    needs: 'viewer',
    handler: async () => tags.hidden(),
  });

  routes.add({
    method: 'PUT',
    path: `${API}/tags/hidden`,
    tag: 'tags',
    summary: 'Replace the list of hidden tag ids',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await tags.setHidden(objectBody(req).ids);
      return reply.code(204).send();
    },
  });

  routes.add({
    method: 'PUT',
    path: `${API}/tags/:id`,
    tag: 'tags',
    summary: 'Rename (moving the subtree) and/or recolour a tag',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'tag');
      await tags.update(callerOf(req), id, objectBody(req));
      return reply.code(204).send();
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/tags/:id`,
    tag: 'tags',
    summary: 'Delete a tag (children stay; keys scoped to it are revoked)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await tags.delete(callerOf(req), pathId(req, 'tag'));
      return reply.code(204).send();
    },
  });

  routes.add({
    method: 'GET',
    path: `${API}/tags/:id/children`,
    tag: 'tags',
    summary: 'Direct child tags (one level)',
    needs: 'viewer',
    handler: async ({ req }) => tags.children(callerOf(req), pathId(req, 'tag')),
  });

  routes.add({
    method: 'GET',
    path: `${API}/tags/:id/clips`,
    tag: 'tags',
    summary: 'Clips carrying exactly this tag, newest first',
    needs: 'viewer',
    handler: async ({ req }) => {
      const caller = callerOf(req);
      const id = pathId(req, 'tag');
      const page = readPage(req);
      const tag = await tags.repo.find(id);
      if (caller.scope && (!tag || !tagInScope(caller.scope, tag))) return { clips: [], total: 0, ...page };
      if (!tag) await tags.require(id);
      return clips.page({ now: clips.now(), exactTag: id }, page);
    },
  });
}
