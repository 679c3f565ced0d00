// /v1/account/saved-searches (contract: Saved searches). Every signed-in role, guests included;
// with auth off the root account owns them.
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import type { LibraryRoutes } from '../http/routes.js';
import type { SavedSearchService } from './service.js';
import { FAMILIES } from './url.js';

const SavedSearchSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  family: Type.String({ enum: [...FAMILIES] }),
  url: Type.String({ description: 'normalised relative list URL' }),
  layout: Type.String({ description: 'details, simple, text, timeline, or empty for the default list' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const Fields = {
  name: Type.Optional(Type.Unsafe<unknown>({ oneOf: [{ type: 'string' }], description: 'trimmed, 1–200 UTF-8 bytes; duplicates allowed' })),
  url: Type.Optional(Type.Unsafe<unknown>({ oneOf: [{ type: 'string' }], description: 'relative list URL such as /resources?Tags=3 (at most 64 KiB)' })),
};
const IdPath = { id: Type.Integer() };

export function registerSavedSearchRoutes(routes: LibraryRoutes, searches: SavedSearchService): void {
  routes.add({
    method: 'GET',
    path: '/v1/account/saved-searches',
    tag: 'account',
    summary: 'Your saved searches, alphabetical (optionally of one family)',
    needs: 'account',
    input: Type.Object({ family: Type.Optional(Type.String()) }),
    reply: Type.Array(SavedSearchSchema),
    handler: async ({ req, input }) => searches.list(req.principal.userId, input.family),
  });

  routes.add({
    method: 'POST',
    path: '/v1/account/saved-searches',
    tag: 'account',
    summary: 'Save a search (201)',
    needs: 'account',
    input: Type.Object(Fields),
    reply: SavedSearchSchema,
    handler: async ({ req, reply, input }) => {
      const record = await searches.create(req.principal.userId, input);
      return sendWrite(req, reply, record, record.url, 201);
    },
  });

  routes.add({
    method: 'PATCH',
    path: '/v1/account/saved-searches/:id',
    tag: 'account',
    summary: 'Rename a saved search or replace its URL (same family)',
    needs: 'account',
    input: Type.Object({ ...IdPath, ...Fields }),
    reply: SavedSearchSchema,
    handler: async ({ req, reply, input }) => {
      const id = Number((req.params as { id: string }).id);
      const record = await searches.update(req.principal.userId, Number.isSafeInteger(id) ? id : input.id, input);
      return sendWrite(req, reply, record, record.url);
    },
  });

  routes.add({
    method: 'DELETE',
    path: '/v1/account/saved-searches/:id',
    tag: 'account',
    summary: 'Delete a saved search (204)',
    needs: 'account',
    input: Type.Object(IdPath),
    handler: async ({ req, reply, input }) => {
      await searches.delete(req.principal.userId, input.id);
      return sendWrite(req, reply, undefined, '/account');
    },
  });
}
