// Plugin management endpoints (library-plugins.md §27): list, enable, disable, settings, purge
// and scoped access; admin only. With the plugin system off they answer as §27 lists.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../core/http/errors.js';
import { sendWrite, wantsHtml } from '../../core/http/respond.js';
import type { PluginManager } from './manager.js';
import { SettingsInvalid } from './manager.js';

const NOT_INITIALISED = 'plugin manager not initialized';

function field(req: FastifyRequest, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? body[name] : undefined;
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.[name];
  const v = fromBody ?? fromQuery;
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return v === undefined || v === null ? undefined : String(v);
}

const OPEN_WORDS = new Set(['1', 'true', 'on', 'yes']);

export function registerManagementRoutes(app: FastifyInstance, manager: PluginManager | null): void {
  const system = { config: { needs: 'system' as const } };
  const need = (): PluginManager => {
    if (!manager) throw badRequest(NOT_INITIALISED);
    return manager;
  };
  const done = (req: FastifyRequest, reply: FastifyReply, body: unknown) => sendWrite(req, reply, body, `/plugins/manage?done=${req.url.split('?')[0].slice('/v1/plugin/'.length)}`);

  app.get('/v1/plugins/manage', system, async () => (manager ? manager.list() : []));

  app.post('/v1/plugin/enable', system, async (req, reply) => {
    const name = field(req, 'name');
    await need().enable(name, req.principal);
    return done(req, reply, { ok: true, name: name?.trim(), enabled: true });
  });

  app.post('/v1/plugin/disable', system, async (req, reply) => {
    const name = field(req, 'name');
    await need().disable(name);
    return done(req, reply, { ok: true, name: name?.trim(), enabled: false });
  });

  app.post('/v1/plugin/settings', { ...system, bodyLimit: 64 * 1024 }, async (req, reply) => {
    const name = (req.query as Record<string, unknown>).name ?? field(req, 'name');
    const m = need();
    let body = req.body;
    // A browser form posts fields; values arrive as text, so the form page converts them.
    if (wantsHtml(req) && body && typeof body === 'object' && !Array.isArray(body)) {
      body = formSettings(m, String(name ?? ''), body as Record<string, unknown>);
    }
    try {
      await m.saveSettings(name === undefined ? undefined : String(name), body);
    } catch (e) {
      if (e instanceof SettingsInvalid && !wantsHtml(req)) return reply.code(422).send({ errors: e.errors });
      if (e instanceof SettingsInvalid) throw new HttpError(422, e.errors.map((x) => x.message).join('; '));
      throw e;
    }
    return done(req, reply, { ok: true, name: String(name) });
  });

  app.post('/v1/plugin/purge-data', system, async (req, reply) => {
    const name = field(req, 'name');
    await need().purge(name);
    return done(req, reply, { ok: true, name: name?.trim() });
  });

  app.post('/v1/plugin/scopedAccess', system, async (req, reply) => {
    const name = field(req, 'name');
    const allowed = OPEN_WORDS.has((field(req, 'allowed') ?? '').trim().toLowerCase());
    await need().setScopedAccess(name, allowed);
    return done(req, reply, { ok: true, name: name?.trim(), allow_scoped_principals: allowed });
  });
}

/** Form posts from the management page: checkbox and number fields converted by declaration. */
function formSettings(manager: PluginManager, name: string, body: Record<string, unknown>): Record<string, unknown> {
  const defs = manager.definitions(name);
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const raw = body[def.name];
    const text = Array.isArray(raw) ? String(raw[raw.length - 1]) : raw === undefined ? undefined : String(raw);
    if (def.type === 'boolean') out[def.name] = text !== undefined && text !== '' && text !== 'false';
    else if (def.type === 'number') out[def.name] = text === undefined || text.trim() === '' ? undefined : Number(text);
    else if (text !== undefined) out[def.name] = text;
  }
  return out;
}
