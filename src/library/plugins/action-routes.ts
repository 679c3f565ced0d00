// Plugin action endpoints (contract: Plugin actions; library-plugins.md §17.3, §17.4, §17.6):
// the action listing, running an action, and reading one action job.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, toHttpError } from '../../core/http/server.js';
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import { jobVisibility } from '../downloads/service.js';
import { actorOf } from '../http/routes.js';
import type { ActionJobStore } from './action-jobs.js';
import { ActionInvalid, type ActionRunner } from './action-run.js';
import { descriptor } from './actions.js';

export const MAX_ACTION_BODY = 1024 * 1024;

function queryText(req: FastifyRequest, key: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[key];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === null ? undefined : String(s);
}

/** An unsigned integer query value; unparseable values are ignored (§17.3). */
function queryId(req: FastifyRequest, key: string): number | undefined {
  const s = queryText(req, key);
  return s !== undefined && /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : undefined;
}

const unavailable = () => new HttpError(503, 'the plugin system is disabled');

export function registerActionRoutes(app: FastifyInstance, runner: ActionRunner | null, store: ActionJobStore): void {
  app.get('/v1/plugin/actions', { config: { needs: 'read' } }, async (req) => {
    const entity = queryText(req, 'entity');
    if (!entity) throw badRequest('entity query parameter is required');
    if (!runner) return [];
    const contentType = queryText(req, 'content_type');
    const categoryId = queryId(req, 'category_id');
    const noteTypeId = queryId(req, 'note_type_id');
    const filtering = contentType !== undefined || categoryId !== undefined || noteTypeId !== undefined;
    return runner.list(req.principal, entity, filtering ? { contentType, categoryId, noteTypeId } : null).map(descriptor);
  });

  app.get('/v1/jobs/action/job', { config: { needs: 'read' } }, async (req) => {
    if (!runner) throw unavailable();
    const id = queryText(req, 'id');
    if (!id) throw badRequest('missing job id');
    const job = store.get(id, jobVisibility(req.principal));
    if (!job) throw notFound(`action job "${id}" not found`);
    return job;
  });

  void app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_ACTION_BODY }, (_req, body, done) => done(null, body));
    child.setErrorHandler(async (err, _req, reply) => {
      const httpError = toHttpError(err);
      for (const [name, value] of Object.entries(httpError.headers)) reply.header(name, value);
      return reply.code(httpError.status).type('application/json').send(errorBody(httpError));
    });
    child.post('/v1/jobs/action/run', { config: { needs: 'write' } }, async (req, reply) => runAction(req, reply, runner));
  });
}

async function runAction(req: FastifyRequest, reply: FastifyReply, runner: ActionRunner | null): Promise<FastifyReply> {
  if (!runner) throw unavailable();
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    throw badRequest(`invalid JSON body: ${(e as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalid JSON body: expected an object');
  const b = body as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const ids = b.entity_ids;
  if (ids !== undefined && ids !== null && (!Array.isArray(ids) || ids.some((x) => typeof x !== 'number' || !Number.isSafeInteger(x)))) {
    throw badRequest('invalid JSON body: entity_ids must be an array of integers');
  }
  const params = b.params;
  if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) throw badRequest('invalid JSON body: params must be an object');
  const abort = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) abort.abort();
  });
  try {
    const { status, body: out } = await runner.run(
      req.principal,
      actorOf(req).origin,
      { plugin: text(b.plugin), action: text(b.action), entityIds: (ids as number[] | undefined) ?? [], params: (params as Record<string, unknown> | undefined) ?? {} },
      abort.signal,
    );
    return reply.code(status).type('application/json').send(out);
  } catch (e) {
    if (e instanceof ActionInvalid) return reply.code(400).type('application/json').send({ errors: e.errors });
    throw e;
  }
}
