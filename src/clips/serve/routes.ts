// /serve… (contract: Serve). Viewers list; admins start and stop. A tag-scoped key sees and
// manages only the server of its exact scope tag (not its subtags).
import { badRequest, forbidden } from '../../core/http/errors.js';
import { objectBody, optBool, pathId, type Json } from '../http/input.js';
import type { KeyPrincipal } from '../http/principal.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import type { TagRepository } from '../tags/repository.js';
import { notServed, type ServeOptions, type TagServers } from './manager.js';
import { API_ACCESS, type ApiAccess } from './state.js';

function onlyScopeTag(caller: KeyPrincipal, tagId: number): void {
  if (caller.scope && caller.scope.tagId !== tagId) throw forbidden('tag-scoped key can only manage serve for its scoped tag');
}

function readOptions(body: Json): ServeOptions {
  const port = body.port ?? 0;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) throw badRequest('port must be an integer between 0 and 65535');
  const access = body.api_access ?? 'none';
  if (typeof access !== 'string' || !(API_ACCESS as readonly string[]).includes(access)) {
    throw badRequest(`invalid api_access: ${String(access)} (must be none, read, or readwrite)`);
  }
  return { port, bindAll: optBool(body, 'bind_all') ?? false, apiAccess: access as ApiAccess };
}

export function registerServeRoutes(routes: ClipRoutes, servers: TagServers, tags: TagRepository): void {
  routes.add({
    method: 'GET',
    path: `${API}/serve`,
    tag: 'serve',
    summary: 'Running tag servers, by tag id',
    needs: 'viewer',
    handler: async ({ req }) => {
      const caller = callerOf(req);
      return { servers: await servers.list(caller.scope?.tagId) };
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/serve`,
    tag: 'serve',
    summary: 'Serve a tag on its own port (tag_id, port, bind_all, api_access)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      const caller = callerOf(req);
      const body = objectBody(req);
      const tagId = body.tag_id;
      if (tagId === undefined || tagId === null || tagId === 0) throw badRequest('tag_id is required');
      if (typeof tagId !== 'number' || !Number.isSafeInteger(tagId) || tagId < 0) throw badRequest('tag_id must be a positive integer');
      onlyScopeTag(caller, tagId);
      const options = readOptions(body);
      const tag = await tags.find(tagId);
      if (!tag) throw badRequest('tag not found');
      return reply.code(201).send(await servers.start(tag, options));
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/serve/:tagId`,
    tag: 'serve',
    summary: 'Stop serving a tag (frees its port)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      const tagId = pathId(req, 'tag', 'tagId');
      onlyScopeTag(callerOf(req), tagId);
      if (!(await servers.stop(tagId))) throw notServed(tagId);
      return reply.code(204).send();
    },
  });
}
