// /v1/mrql… (contract: MRQL; mrql.md §14).
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest, forbidden } from '../../core/http/errors.js';
import type { LibraryConfig } from '../config.js';
import type { LibraryRoutes } from '../http/routes.js';
import { actorOf } from '../http/routes.js';
import { complete } from './complete.js';
import { MrqlError } from './errors.js';
import { exportFilename, toCsv } from './export.js';
import type { Entity } from './fields.js';
import { generateDraft, RateLimiter } from './generate.js';
import { collectParams } from './params.js';
import { parseFilter, parseQuery } from './parser.js';
import { savedRecord } from './saved.js';
import type { MrqlService, ResultRenderer } from './service.js';
import type { RunOptions } from './types.js';
import { listParams, validateFilter, validateQuery } from './validate.js';

const Paging = {
  limit: Type.Optional(Type.Integer({ description: 'flat: replaces LIMIT; grouped: rows or items per bucket' })),
  page: Type.Optional(Type.Integer()),
  buckets: Type.Optional(Type.Integer({ description: 'bucketed GROUP BY: buckets per page' })),
  offset: Type.Optional(Type.Integer({ description: 'bucketed GROUP BY: bucket offset (nextOffset)' })),
  params: Type.Optional(Type.Unknown({ description: 'placeholder values (JSON body only); param.<name> fields and query parameters win' })),
};

function isJson(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').includes('application/json');
}

function runOptions(req: FastifyRequest, input: { limit?: number; page?: number; buckets?: number; offset?: number }): RunOptions {
  return {
    limit: input.limit,
    page: input.page,
    buckets: input.buckets,
    offset: input.offset,
    params: collectParams(req.query as Record<string, unknown>, req.body, isJson(req)),
    principal: req.principal,
  };
}

const wantsRender = (req: FastifyRequest) => String((req.query as Record<string, unknown>).render ?? '') === '1';

export interface MrqlRouteDeps {
  /** Fills renderedHTML when a request asks for render=1. */
  render: ResultRenderer;
  /** The language-model provider of /v1/mrql/generate, when configured. */
  generation: LibraryConfig['generation'];
}

function entityWord(v: string | undefined): Entity | undefined {
  const w = (v ?? '').toLowerCase();
  return w === 'resource' || w === 'note' || w === 'group' ? w : undefined;
}

export function registerMrqlRoutes(routes: LibraryRoutes, mrql: MrqlService, deps: MrqlRouteDeps): void {
  const renderFor = (req: FastifyRequest) => (wantsRender(req) ? deps.render : undefined);

  routes.add({
    method: 'POST',
    path: '/v1/mrql',
    tag: 'mrql',
    summary: 'Execute an MRQL query (flat or GROUP BY result); render=1 fills renderedHTML',
    needs: 'read',
    input: Type.Object({ query: Type.Optional(Type.String()), ...Paging }),
    handler: async ({ req, input }) => mrql.execute(input.query ?? '', runOptions(req, input), renderFor(req)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/validate',
    tag: 'mrql',
    summary: 'Validate a query (always 200): {valid, errors, params}',
    needs: 'read',
    input: Type.Object({ query: Type.Optional(Type.String()), filter: Type.Optional(Type.Boolean()), entityType: Type.Optional(Type.String()) }),
    handler: async ({ input }) => {
      const text = input.query ?? '';
      if (text.trim() === '') return { valid: false, errors: [{ message: 'query string must not be empty', position: 0, length: 0 }], params: [] };
      const filterEntity = input.filter ? entityWord(input.entityType) : undefined;
      try {
        if (filterEntity) {
          validateFilter(parseFilter(text), filterEntity);
          return { valid: true, errors: [], params: [] };
        }
        const q = parseQuery(text);
        const params = listParams(q);
        try {
          validateQuery(q);
        } catch (e) {
          if (e instanceof MrqlError) return { valid: false, errors: [{ message: e.bare, position: e.position, length: e.length }], params };
          throw e;
        }
        return { valid: true, errors: [], params };
      } catch (e) {
        if (e instanceof MrqlError) return { valid: false, errors: [{ message: e.bare, position: e.position, length: e.length }], params: [] };
        throw e;
      }
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/complete',
    tag: 'mrql',
    summary: 'Completion suggestions for the cursor position',
    needs: 'read',
    input: Type.Object({
      query: Type.Optional(Type.String()),
      cursor: Type.Optional(Type.Integer()),
      filter: Type.Optional(Type.Boolean()),
      entityType: Type.Optional(Type.String()),
    }),
    handler: async ({ input }) => {
      const text = input.query ?? '';
      const cursor = input.cursor !== undefined && input.cursor > 0 ? input.cursor : 0;
      return { suggestions: complete(text, cursor, input.filter ? entityWord(input.entityType) : undefined) };
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/explain',
    tag: 'mrql',
    summary: 'The SQL a query would run, without running it (nativePlan: admin only)',
    needs: 'read',
    input: Type.Object({
      query: Type.Optional(Type.String()),
      id: Type.Optional(Type.Integer()),
      name: Type.Optional(Type.String()),
      nativePlan: Type.Optional(Type.Boolean()),
      ...Paging,
    }),
    handler: async ({ req, input }) => {
      if (input.nativePlan && !(req.principal.superUser || req.principal.role === 'admin')) throw forbidden('native query plans require administrator access');
      let text = input.query ?? '';
      if (text.trim() === '') {
        if (!(input.id && input.id > 0) && !input.name) throw badRequest('query text or saved id/name is required');
        text = (await mrql.saved.lookup(input.id, input.name)).query;
      }
      return mrql.explain(text, runOptions(req, input), !!input.nativePlan);
    },
  });

  routes.add({
    method: ['GET', 'POST'],
    path: '/v1/mrql/export',
    tag: 'mrql',
    summary: 'Export results as a CSV (default) or JSON attachment; ?format= wins over the body',
    needs: 'read',
    input: Type.Object({
      query: Type.Optional(Type.String()),
      id: Type.Optional(Type.Integer()),
      name: Type.Optional(Type.String()),
      format: Type.Optional(Type.String()),
      ...Paging,
    }),
    handler: async ({ req, reply, input }) => {
      const urlFormat = (req.query as Record<string, unknown>).format;
      const format = String((Array.isArray(urlFormat) ? urlFormat[0] : urlFormat) ?? input.format ?? 'csv').toLowerCase() || 'csv';
      if (format !== 'csv' && format !== 'json') throw badRequest('format must be csv or json');
      let text = input.query ?? '';
      let savedName: string | undefined;
      if (text.trim() === '') {
        if (!(input.id && input.id > 0) && !input.name) throw badRequest('query text or saved id/name is required');
        const saved = await mrql.saved.lookup(input.id, input.name);
        text = saved.query;
        savedName = saved.name;
      }
      const opts = runOptions(req, input);
      if (String((req.query as Record<string, unknown>).preflight ?? '') === '1') {
        await mrql.preflightExport(text, opts, format);
        return reply.code(204).send();
      }
      const result = await mrql.execute(text, opts);
      const now = mrql.now();
      reply.header('Content-Disposition', `attachment; filename="${exportFilename(savedName, format, now)}"`);
      if (result.default_limit_applied) reply.header('X-MRQL-Default-Limit-Applied', String(result.applied_limit));
      if (format === 'json') return reply.type('application/json').send(JSON.stringify(result));
      return reply.type('text/csv; charset=utf-8').send(toCsv(result));
    },
  });

  const SavedInput = Type.Object({ name: Type.Optional(Type.String()), query: Type.Optional(Type.String()), description: Type.Optional(Type.String()) });

  routes.add({
    method: 'GET',
    path: '/v1/mrql/saved',
    tag: 'mrql',
    summary: 'Saved MRQL queries (ordered by name), or one with ?id=',
    needs: 'read',
    input: Type.Object({ id: Type.Optional(Type.Integer()), page: Type.Optional(Type.Integer()), all: Type.Optional(Type.Boolean()) }),
    handler: async ({ input }) => {
      if (input.id !== undefined) {
        const row = await mrql.saved.find(input.id);
        if (!row) throw new HttpError(404, 'saved MRQL query not found');
        return savedRecord(row);
      }
      return (await mrql.saved.list(input.page, !!input.all)).map(savedRecord);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/saved',
    tag: 'mrql',
    summary: 'Save an MRQL query (validated with placeholders unbound)',
    needs: 'editor',
    input: SavedInput,
    handler: async ({ req, reply, input }) => reply.code(201).send(savedRecord(await mrql.saved.create(actorOf(req), input))),
  });

  routes.add({
    method: 'PUT',
    path: '/v1/mrql/saved',
    tag: 'mrql',
    summary: 'Replace a saved MRQL query',
    needs: 'editor',
    input: Type.Object({ id: Type.Optional(Type.Integer()), ...SavedInput.properties }),
    handler: async ({ req, input }) => savedRecord(await mrql.saved.update(actorOf(req), input.id, input)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/saved/delete',
    tag: 'mrql',
    summary: 'Delete a saved MRQL query',
    needs: 'editor',
    input: Type.Object({ id: Type.Optional(Type.Integer()) }),
    handler: async ({ req, input }) => mrql.saved.delete(actorOf(req), input.id),
  });

  routes.add({
    method: 'POST',
    path: '/v1/mrql/saved/run',
    tag: 'mrql',
    summary: 'Run a saved query (by id, then name), revalidated first',
    needs: 'read',
    input: Type.Object({ id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()), ...Paging }),
    handler: async ({ req, input }) => {
      const saved = await mrql.saved.lookup(input.id, input.name);
      return mrql.runSaved(saved.query, runOptions(req, input), renderFor(req));
    },
  });

  const limiter = new RateLimiter(10, 60_000);
  routes.add({
    method: 'POST',
    path: '/v1/mrql/generate',
    tag: 'mrql',
    summary: 'Draft a query from a prompt through the configured language-model provider (never executed)',
    needs: 'write',
    input: Type.Object({ prompt: Type.Optional(Type.String()) }),
    handler: async ({ req, input }) => {
      const cfg = deps.generation;
      if (!cfg) throw new HttpError(503, 'MRQL generation is not configured');
      if ((input.prompt ?? '').trim() === '') throw badRequest('prompt is required');
      if (!limiter.allow(req.ip)) throw new HttpError(429, 'MRQL generation rate limit exceeded');
      return generateDraft(cfg, input.prompt ?? '');
    },
  });
}
