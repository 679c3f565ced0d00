// GET /v1/search (contract: Global search; companion §8).
import { Type } from '@sinclair/typebox';
import type { LibraryRoutes } from '../http/routes.js';
import type { SearchService } from './service.js';

const Result = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  name: Type.String(),
  description: Type.String(),
  score: Type.Number(),
  url: Type.String(),
  extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export function registerSearchRoutes(routes: LibraryRoutes, search: SearchService): void {
  routes.add({
    method: 'GET',
    path: '/v1/search',
    tag: 'search',
    summary: 'Search every listed type; limit defaults to 20 and is clamped to 50',
    needs: 'read',
    input: Type.Object({
      q: Type.Optional(Type.String({ description: 'search text: "exact" or =exact, prefix*, ~fuzzy (~2 sets the distance)' })),
      limit: Type.Optional(Type.Integer()),
      types: Type.Optional(Type.String({ description: 'comma-separated: resource, note, group, tag, category, query, relationType, noteType, resourceCategory, mrqlQuery' })),
    }),
    reply: Type.Object({ query: Type.String(), total: Type.Integer(), totalCapped: Type.Optional(Type.Boolean()), results: Type.Array(Result) }),
    handler: async ({ req, reply, input }) => {
      reply.header('Cache-Control', 'private, max-age=10');
      return search.search(req.principal, input.q ?? '', input.limit, input.types);
    },
  });
}
