// HTTP conventions of the clip API (companion §12): CORS headers on every response, OPTIONS
// answered 204 before authentication and routing, JSON 404 for
// unknown paths and 405 with Allow for a known path with another method.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../core/http/errors.js';
import type { ClipRoutes } from './routes.js';

export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Expose-Headers': 'Content-Disposition, Content-Length, Content-Range, ETag',
};

function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

export function registerConventions(app: FastifyInstance, routes: ClipRoutes): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'OPTIONS') return;
    return reply.code(204).header('Access-Control-Max-Age', '600').send();
  });

  app.setNotFoundHandler(async (req) => {
    const path = req.url.split('?')[0];
    const allowed = new Set<string>();
    for (const r of routes.routes) {
      const paths = Array.isArray(r.path) ? r.path : [r.path];
      if (!paths.some((p) => pathPattern(p).test(path))) continue;
      for (const m of Array.isArray(r.method) ? r.method : [r.method]) allowed.add(m);
    }
    if (allowed.size > 0) {
      if (allowed.has('GET')) allowed.add('HEAD');
      throw new HttpError(405, `method ${req.method} not allowed on ${path}`, {}, { Allow: [...allowed, 'OPTIONS'].join(', ') });
    }
    throw new HttpError(404, `no such endpoint: ${req.method} ${path}`);
  });
}
