// JSON endpoints (library-plugins.md §21.2): /v1/plugins/<plugin>/<path> for GET, POST, PUT and
// DELETE, with the raw body (≤ 1 MiB), the plugin's status and body, and every failure mapped
// to its status without leaking the plugin's error text.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, toHttpError } from '../../core/http/server.js';
import { formatDuration, LuaError } from '../../core/lua/index.js';
import { isScoped } from '../auth/principal.js';
import { actorOf } from '../http/routes.js';
import { actorFor, invocations } from './invocation.js';
import { encodeJson } from './json.js';
import { abortReason } from './mah.js';
import type { PluginManager } from './manager.js';
import { headersOf, principalTable, queryOf } from './request.js';

export const MAX_ENDPOINT_BODY = 1024 * 1024;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(`${encodeJson(body)}\n`);
}

/** Splits /v1/plugins/<name>/<path>?… */
function target(req: FastifyRequest): { plugin: string; path: string } {
  const pathname = decodeURIComponent(req.url.split('?')[0]);
  const rest = pathname.slice('/v1/plugins/'.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? { plugin: rest, path: '' } : { plugin: rest.slice(0, slash), path: rest.slice(slash + 1) };
}

export function registerEndpointRoutes(app: FastifyInstance, manager: PluginManager | null, log: (m: string) => void): void {
  void app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_ENDPOINT_BODY }, (_req, body, done) => done(null, body));
    // The pipeline's refusals (401, 403) and body errors arrive here: same JSON shape as the
    // rest of the API, and the §21.2 wording for an oversized body.
    child.setErrorHandler(async (err, _req, reply) => {
      const httpError = toHttpError(err);
      if (httpError.status === 413) return sendJson(reply, 413, { error: 'request body too large' });
      for (const [name, value] of Object.entries(httpError.headers)) reply.header(name, value);
      return reply.code(httpError.status).type('application/json').send(errorBody(httpError));
    });
    child.addHook('onRequest', async (req, reply) => {
      if (Number(req.headers['content-length'] ?? 0) > MAX_ENDPOINT_BODY) return sendJson(reply, 413, { error: 'request body too large' });
    });
    for (const method of METHODS) {
      child.route({
        method,
        url: '/v1/plugins/*',
        config: { needs: method === 'GET' ? 'read' : 'write' },
        handler: (req, reply) => handle(req, reply, manager, log),
      });
    }
    // Methods no endpoint can declare answer 405; PATCH sits in §10.9's non-GET (write) row.
    for (const [method, needs] of [['PATCH', 'write'], ['OPTIONS', 'read']] as const) {
      child.route({
        method,
        url: '/v1/plugins/*',
        config: { needs },
        handler: async (_req, reply) => sendJson(reply, 405, { error: 'method not allowed' }),
      });
    }
  });
}

async function handle(req: FastifyRequest, reply: FastifyReply, manager: PluginManager | null, log: (m: string) => void): Promise<FastifyReply> {
  const { plugin: name, path } = target(req);
  if (!manager || name === '' || name === 'manage') return sendJson(reply, 404, { error: 'plugin not found' });
  const plugin = manager.get(name);
  if (!plugin || plugin.registry.apis.size === 0) return sendJson(reply, 404, { error: 'plugin not found' });
  if (isScoped(req.principal) && !manager.openToScoped(name)) return sendJson(reply, 403, { error: 'this plugin is not available to group-limited accounts' });
  const endpoint = plugin.registry.apiFor(req.method, path);
  if (!endpoint) {
    if (plugin.registry.hasPath(path)) return sendJson(reply, 405, { error: 'method not allowed' });
    return sendJson(reply, 404, { error: 'endpoint not found' });
  }
  const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? new Uint8Array(req.body) : undefined;
  let status: number | undefined;
  let jsonSet = false;
  let jsonValue: unknown = null;
  const ctx: Record<string, unknown> = {
    path: req.url,
    method: req.method,
    query: queryOf(req),
    params: {},
    headers: headersOf(req),
    principal: principalTable(req.principal),
    json: (...args: unknown[]) => {
      jsonSet = true;
      jsonValue = args[0] ?? null;
    },
    status: (code: unknown) => {
      if (typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599) status = code;
    },
  };
  if (body) ctx.body = isUtf8(body) ? Buffer.from(body).toString('utf8') : body;
  const abort = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) abort.abort();
  });
  try {
    await invocations.run({ actor: actorFor(req.principal), origin: actorOf(req).origin }, () =>
      endpoint.handler.call([ctx], { entry: `endpoint ${req.method} ${path}`, budgetMs: endpoint.timeoutMs, signal: abort.signal }),
    );
  } catch (e) {
    if (!(e instanceof LuaError)) throw e;
    const reason = abortReason(e.luaMessage);
    if (reason !== null && (e.kind === 'runtime' || e.kind === 'memory')) return sendJson(reply, status ?? 400, { error: reason });
    if (e.kind === 'timeout') return sendJson(reply, 504, { error: `handler timed out after ${formatDuration(endpoint.timeoutMs)}` });
    if (e.kind === 'unavailable') return sendJson(reply, 404, { error: 'plugin not found' });
    if (e.kind === 'abandoned' || e.kind === 'cancelled') return sendJson(reply, 503, { error: 'request abandoned' });
    log(`plugins: ${e.message}${e.traceback ? `\n${e.traceback}` : ''}`);
    return sendJson(reply, 500, { error: 'internal plugin error' });
  }
  if (jsonSet) return sendJson(reply, status ?? 200, jsonValue);
  return reply.code(status ?? 204).send();
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
