// /v1/queries, /v1/query… (contract: Saved SQL queries).
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { namedTimeline, registerTimeline } from '../timelines/routes.js';
import { queryRecord, type QueryService } from './service.js';

export const QueryListInput = Type.Object({ ...commonListFields, Text: Type.Optional(Type.String({ description: 'partial match on the SQL text' })) });

/** Request parameters that select the query rather than bind its placeholders. */
const RUN_CONTROL = new Set(['id', 'name', 'redirect']);

export function registerQueryRoutes(routes: LibraryRoutes, queries: QueryService): void {
  routes.add({
    method: 'GET',
    path: '/v1/queries',
    tag: 'queries',
    summary: 'List saved SQL queries',
    needs: 'read',
    input: QueryListInput,
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await queries.named.list(input);
      return sendList(reply, rows.map(queryRecord), page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/query',
    tag: 'queries',
    summary: 'One saved SQL query',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ input }) => queryRecord(await queries.named.require(input.id)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/query',
    tag: 'queries',
    summary: 'Create a saved SQL query, or update it when ID is given',
    needs: 'editor',
    input: Type.Object({
      ID: Type.Optional(Type.Integer()),
      Name: Type.Optional(Type.String()),
      Text: Type.Optional(Type.String({ description: 'SQL; :name placeholders bind request parameters' })),
      Template: Type.Optional(Type.String()),
      Description: Type.Optional(Type.String()),
    }),
    handler: async ({ req, reply, input }) => {
      const row = await queries.save(actorOf(req), input);
      return sendWrite(req, reply, queryRecord(row), `/query?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/query/delete',
    tag: 'queries',
    summary: 'Delete a saved SQL query',
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await queries.named.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/queries');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/query/run',
    tag: 'queries',
    summary: 'Run a saved query read-only by id or name; other parameters bind :name placeholders',
    needs: 'read',
    input: Type.Object({ id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()) }),
    handler: async ({ req, input }) => {
      const params: Record<string, unknown> = {};
      for (const source of [req.query, req.body]) {
        if (!source || typeof source !== 'object') continue;
        for (const [k, v] of Object.entries(source as Record<string, unknown>)) if (!RUN_CONTROL.has(k.toLowerCase())) params[k] = Array.isArray(v) ? v[0] : v;
      }
      return queries.run(req.principal, input, params);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/query/schema',
    tag: 'queries',
    summary: 'Tables and their columns, for writing queries',
    needs: 'read',
    handler: async ({ reply }) => {
      reply.header('Cache-Control', 'max-age=300');
      return queries.schema();
    },
  });

  registerInlineEdits(routes, queries.named, { base: '/v1/query', page: '/query', needs: 'editor', tag: 'queries' });
  registerTimeline(routes, {
    path: '/v1/queries/timeline',
    tag: 'queries',
    source: namedTimeline(queries.named),
    input: QueryListInput,
  });
}
