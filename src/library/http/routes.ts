// Library routes: the core route registry typed with the library's capabilities. The capability
// a route declares is enforced by the request pipeline (auth/pipeline.ts), before the body is
// read, for routes, pages and plain routes alike.
import type { FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import { RouteRegistry, type RouteDef } from '../../core/http/routes.js';
import type { Actor, Capability } from '../auth/principal.js';
import { visibilityOf, type Visibility } from '../auth/visibility.js';

export type LibraryRoute<S extends TObject> = RouteDef<S, Capability>;
export type LibraryRoutes = RouteRegistry<Capability>;

export function libraryRegistry(app: ConstructorParameters<typeof RouteRegistry>[0]): LibraryRoutes {
  return new RouteRegistry<Capability>(app);
}

/** The acting principal and request origin, as services receive them. */
export function actorOf(req: FastifyRequest): Actor {
  return {
    principal: req.principal,
    origin: { path: req.url.slice(0, 500), userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500), ip: req.ip },
  };
}

/** What the requesting principal may see (companion §10.10), computed once per request. */
export function seenBy(req: FastifyRequest): Visibility {
  return visibilityOf(req.principal);
}
