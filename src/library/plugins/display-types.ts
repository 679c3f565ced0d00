// Display types (library-plugins.md §23): the listing GET /v1/plugin/displayTypes (runs no
// plugin code) and POST /v1/plugins/<plugin>/display/render, which hands one metadata value to
// the plugin and answers its HTML, with plain-text errors as §23.3 lists them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../http/routes.js';
import type { PluginCatalogue } from './catalogue.js';
import { callRender, LuaError, luaTypeName, renderErrorText, settingsTable } from './render-call.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function text(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(body);
}

export function registerDisplayTypeRoutes(app: FastifyInstance, catalogue: PluginCatalogue, log: (m: string) => void): void {
  app.get('/v1/plugin/displayTypes', { config: { needs: 'read' } }, async () =>
    catalogue.available ? catalogue.active().flatMap((p) => [...p.registry.render.displayTypes.values()].map((d) => ({ type: `plugin:${p.name}:${d.type}`, label: d.label, pluginName: p.name }))) : [],
  );
  void app.register(async (child) => {
    // The body is read raw so that invalid JSON answers this route's own plain-text error.
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    child.post('/v1/plugins/:plugin/display/render', { config: { needs: 'write' } }, (req, reply) => render(req, reply, catalogue, log));
  });
}

async function render(req: FastifyRequest, reply: FastifyReply, catalogue: PluginCatalogue, log: (m: string) => void): Promise<FastifyReply> {
  const name = (req.params as { plugin: string }).plugin;
  if (!catalogue.available) return text(reply, 503, 'plugins not available');
  if (!catalogue.reachableBy(req.principal, name)) return text(reply, 403, 'this plugin is not available to group-limited accounts');
  let body: unknown;
  try {
    body = JSON.parse(typeof req.body === 'string' ? req.body : '');
  } catch {
    return text(reply, 400, 'invalid request body');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return text(reply, 400, 'invalid request body');
  const b = body as Record<string, unknown>;
  const type = typeof b.type === 'string' ? b.type : '';
  if (type === '') return text(reply, 400, 'type is required');
  if (!('value' in b)) return text(reply, 400, 'value is required');
  const entityId = b.entity_id ?? 0;
  if (typeof entityId !== 'number' || !Number.isInteger(entityId) || entityId < 0) return text(reply, 400, 'invalid request body');
  if (entityId > MAX_SAFE) return text(reply, 400, 'entity_id is out of range');
  const full = `plugin:${name}:${type}`;
  const plugin = catalogue.get(name);
  const entry = plugin?.registry.render.displayTypes.get(type);
  if (!plugin || !entry) return text(reply, 500, `display type "${full}" not found`);
  const ctx: Record<string, unknown> = {
    value: b.value,
    schema: b.schema !== null && typeof b.schema === 'object' ? b.schema : {},
    field_path: typeof b.field_path === 'string' ? b.field_path : '',
    field_label: typeof b.field_label === 'string' ? b.field_label : '',
    entity_type: typeof b.entity_type === 'string' ? b.entity_type : '',
    entity_id: entityId,
    settings: settingsTable(plugin),
  };
  const abort = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) abort.abort();
  });
  try {
    const result = await callRender(entry.render, ctx, { entry: `display ${full}`, principal: req.principal, origin: actorOf(req).origin, signal: abort.signal });
    if (typeof result !== 'string') return text(reply, 500, `display type "${full}" render function must return a string, got ${luaTypeName(result)}`);
    return reply.code(200).type('text/html; charset=utf-8').send(result);
  } catch (e) {
    if (!(e instanceof LuaError)) throw e;
    log(`plugins: ${e.message}`);
    return text(reply, 500, `display render error: ${renderErrorText(e)}`);
  }
}
