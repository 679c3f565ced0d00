// Schedule and scheduled-download endpoints (library-plugins.md §15.3, §15.4, §19.6, §19.7);
// admin only under -auth, like the rest of plugin management.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { ScheduledDownloads } from './download.js';
import type { Scheduler } from './schedules.js';

function field(req: FastifyRequest, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? body[name] : undefined;
  const v = fromBody ?? (req.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return v === undefined || v === null ? undefined : String(v).trim();
}

const NOT_INITIALISED = 'plugin manager not initialized';

export function registerScheduleRoutes(app: FastifyInstance, scheduler: Scheduler | null, downloads: ScheduledDownloads | null): void {
  const system = { config: { needs: 'system' as const } };

  app.get('/v1/plugin/schedules', system, async (req) => {
    const name = field(req, 'name');
    if (!name) throw badRequest('missing plugin name');
    return scheduler ? scheduler.list(name) : [];
  });

  app.post('/v1/plugin/schedule/run', system, async (req, reply) => {
    if (!scheduler) throw badRequest(NOT_INITIALISED);
    const name = field(req, 'name');
    const scheduleId = field(req, 'scheduleId');
    await scheduler.runNow(name, scheduleId);
    return sendWrite(req, reply, { ok: true, name, scheduleId, started: true }, `/plugins/manage?started=${encodeURIComponent(`${name}/${scheduleId}`)}`);
  });

  app.get('/v1/plugin/scheduled-downloads', system, async (req) => {
    const name = field(req, 'name');
    if (!name) throw badRequest('missing plugin name');
    return downloads ? downloads.list(name) : [];
  });

  app.post('/v1/plugin/scheduled-downloads/cancel', system, async (req, reply) => {
    if (!downloads) throw badRequest(NOT_INITIALISED);
    const result = await downloads.cancel(field(req, 'id'));
    return sendWrite(req, reply, result, '/plugins/manage');
  });
}
