// Declared routes: each route states its method, paths, the capability it needs, its input
// schema (TypeBox) and reply schema. The same declaration validates input and feeds the
// OpenAPI description, so the two cannot drift apart.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema, type Static } from '@sinclair/typebox';
import { readFields } from './multipart.js';
import { makeBag, readParams } from './params.js';
import { redirectTarget } from './respond.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The capability a route declares, kept on the Fastify route itself so one request
     * pipeline can enforce it for declared routes, pages and plain routes alike.
     */
    needs?: string;
  }
}

export interface RouteContext<P> {
  req: FastifyRequest;
  reply: FastifyReply;
  input: P;
}

export interface RouteDef<S extends TObject = TObject, C extends string = string> {
  method: Method | Method[];
  /** One or more paths (aliases share the handler). */
  path: string | string[];
  summary: string;
  tag: string;
  /** Capability the caller needs; interpreted by the service's authorizer. */
  needs: C;
  input?: S;
  reply?: TSchema;
  /** Multipart routes that read file parts themselves get no pre-parsed multipart fields. */
  streamsFiles?: boolean;
  /** Body limit of this route in bytes, when it differs from the server's. */
  bodyLimit?: number;
  handler: (ctx: RouteContext<Static<S>>) => Promise<unknown>;
}

export interface RouteHooks<C extends string> {
  /** Runs before input parsing: authentication, authorisation, CSRF. */
  authorize?: (req: FastifyRequest, needs: C, def: RouteDef<TObject, C>) => Promise<void>;
  /**
   * Run `authorize` in the route's onRequest hook, before the body is even read, so a caller
   * without the role gets 403 whatever it sent (default: inside the handler, after parsing).
   */
  authorizeOnRequest?: boolean;
  /** Honour `redirect=` on writes (default true; APIs without the 303 convention turn it off). */
  redirects?: boolean;
}

const EMPTY = Type.Object({});

export class RouteRegistry<C extends string> {
  readonly routes: RouteDef<TObject, C>[] = [];

  constructor(
    private readonly app: FastifyInstance,
    private readonly hooks: RouteHooks<C> = {},
  ) {}

  add<S extends TObject>(def: RouteDef<S, C>): void {
    const d = def as unknown as RouteDef<TObject, C>;
    this.routes.push(d);
    const schema = d.input ?? EMPTY;
    const methods = Array.isArray(d.method) ? d.method : [d.method];
    const paths = Array.isArray(d.path) ? d.path : [d.path];
    for (const url of paths) {
      const { authorize, authorizeOnRequest, redirects = true } = this.hooks;
      this.app.route({
        method: methods,
        url,
        config: { needs: d.needs },
        ...(d.bodyLimit !== undefined ? { bodyLimit: d.bodyLimit } : {}),
        onRequest: authorize && authorizeOnRequest ? async (req) => authorize(req, d.needs, d) : undefined,
        handler: async (req, reply) => {
          if (authorize && !authorizeOnRequest) await authorize(req, d.needs, d);
          // A bad redirect= must fail before a write changes anything.
          if (redirects && req.method !== 'GET') redirectTarget(req);
          const body = req.isMultipart() && !d.streamsFiles ? await readFields(req) : req.body;
          const input = readParams(schema, makeBag(req.query, req.params, body));
          const result = await d.handler({ req, reply, input });
          if (reply.sent) return reply;
          return result;
        },
      });
    }
  }

  /** OpenAPI 3.0 description of every declared route. */
  openapi(info: { title: string; version: string }): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      const props = (r.input ?? EMPTY).properties;
      const required = new Set(r.input?.required ?? []);
      for (const p of Array.isArray(r.path) ? r.path : [r.path]) {
        const entry = (paths[p] ??= {});
        for (const m of methods) {
          const op: Record<string, unknown> = {
            summary: r.summary,
            tags: [r.tag],
            'x-needs': r.needs,
            responses: {
              '200': { description: 'success', ...(r.reply ? { content: { 'application/json': { schema: r.reply } } } : {}) },
              '303': { description: 'redirect after a write (Accept: text/html or redirect=)' },
              '400': { description: 'invalid parameters', content: { 'application/json': { schema: ERROR_SCHEMA } } },
            },
          };
          if (m === 'GET' || m === 'DELETE') {
            op.parameters = Object.entries(props).map(([name, schema]) => ({
              name,
              in: 'query',
              required: required.has(name),
              schema,
            }));
          } else if (Object.keys(props).length > 0) {
            const bodySchema = r.input;
            op.requestBody = {
              content: {
                'application/json': { schema: bodySchema },
                'application/x-www-form-urlencoded': { schema: bodySchema },
                'multipart/form-data': { schema: bodySchema },
              },
            };
          }
          entry[m.toLowerCase()] = op;
        }
      }
    }
    return { openapi: '3.0.3', info, paths };
  }
}

const ERROR_SCHEMA = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };
