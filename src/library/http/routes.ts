// Library routes: the core route registry with the library's capabilities and principal.
import type { FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import { RouteRegistry, type RouteDef } from '../../core/http/routes.js';
import { forbidden } from '../../core/http/errors.js';
import { can, type Actor, type Capability, type Principal } from '../auth/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

export type LibraryRoute<S extends TObject> = RouteDef<S, Capability>;
export type LibraryRoutes = RouteRegistry<Capability>;

export function libraryRegistry(app: ConstructorParameters<typeof RouteRegistry>[0]): LibraryRoutes {
  return new RouteRegistry<Capability>(app, {
    authorize: async (req, needs) => {
      if (!can(req.principal, needs)) throw forbidden();
    },
  });
}

/** The acting principal and request origin, as services receive them. */
export function actorOf(req: FastifyRequest): Actor {
  return {
    principal: req.principal,
    origin: { path: req.url.slice(0, 500), userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500), ip: req.ip },
  };
}
