// The clip API's declared routes: the core registry, with authentication and the role check
// run before the body is read (a viewer posting garbage gets 403, not 400; companion T07).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RouteRegistry } from '../../core/http/routes.js';
import { forbidden } from '../../core/http/errors.js';
import type { KeyService } from '../keys/service.js';
import { hasRole, type KeyPrincipal, type Needs } from './principal.js';

export const API = '/api/v1';

export type ClipRoutes = RouteRegistry<Needs>;

export interface RequestStats {
  /** Requests that reached an authenticated route since the listener started (§1.4). */
  requestCount: number;
}

export function clipRegistry(app: FastifyInstance, keys: KeyService, stats: RequestStats): ClipRoutes {
  app.decorateRequest('apiKey', null);
  return new RouteRegistry<Needs>(app, {
    authorizeOnRequest: true,
    redirects: false,
    authorize: async (req, needs) => {
      if (needs === 'none') return;
      // Counted before the key is checked, so rejected requests count too.
      stats.requestCount++;
      const key = await keys.authenticate(req.headers.authorization);
      req.apiKey = key;
      if (!hasRole(key.role, needs)) throw forbidden('insufficient permissions');
    },
  });
}

/** The authenticated caller of a route that needs a role. */
export function callerOf(req: FastifyRequest): KeyPrincipal {
  if (!req.apiKey) throw new Error('route without authentication asked for its caller');
  return req.apiKey;
}
