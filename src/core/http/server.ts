// Fastify factory shared by both services: JSON (empty body allowed), form and multipart
// bodies, one error envelope, and graceful shutdown.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { constraintFailure } from '../db/constraint.js';
import { HttpError } from './errors.js';
import { registerMultipart } from './multipart.js';
import { checkingInterval, installTimeouts, type RequestTimeouts } from './timeouts.js';

export interface HttpServerOptions {
  /** Headers added to every response (security headers, CORS). */
  headers?: Record<string, string>;
  /** Upper bound for JSON and form bodies, in bytes. */
  bodyLimit?: number;
  logger?: boolean;
  /** Called for errors; may render a page instead of JSON. Return true when it replied. */
  onError?: (err: HttpError, req: FastifyRequest, reply: FastifyReply) => boolean | Promise<boolean>;
  /**
   * 'json' parses every non-multipart body as JSON whatever its Content-Type (no form bodies;
   * an empty body stays undefined; bad JSON is 400 "invalid JSON body"). Default: JSON and forms.
   */
  bodies?: 'json-and-forms' | 'json';
  /**
   * What close() does with open connections: true (default) destroys them at once; 'idle'
   * closes only idle ones so in-flight requests can finish (the caller bounds the wait).
   */
  forceCloseConnections?: boolean | 'idle';
  /** Headers, idle-body and whole-request timeouts (default: 30 s, 60 s, 1 h). */
  timeouts?: RequestTimeouts;
}

export const DEFAULT_TIMEOUTS: RequestTimeouts = { headersMs: 30_000, bodyIdleMs: 60_000, requestMs: 3_600_000 };

export function errorBody(err: HttpError): Record<string, unknown> {
  return { error: err.message, ...err.extra };
}

/** An error that knows its HTTP form (MRQL errors, say): mapped here, nowhere else. */
export interface DomainError {
  toHttpError(): HttpError;
}

function isDomainError(err: unknown): err is DomainError {
  return typeof (err as Partial<DomainError> | null)?.toHttpError === 'function';
}

/** A constraint the database enforced that a service did not check first (a race, say). */
function constraintError(err: unknown): HttpError | null {
  const failure = constraintFailure(err);
  if (!failure) return null;
  switch (failure.kind) {
    case 'unique':
      return new HttpError(409, 'conflicts with an existing record (a name or key that must be unique is already taken)');
    case 'foreign_key':
      return new HttpError(409, 'conflicts with related records (something it refers to is missing, or something still refers to it)');
    default:
      return new HttpError(400, 'breaks a data rule (a required value is missing or out of range)');
  }
}

/** Maps any thrown value to an HttpError; unknown errors become 500 without leaking internals. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (isDomainError(err)) return err.toHttpError();
  const constraint = constraintError(err);
  if (constraint) return constraint;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (e instanceof SyntaxError)) {
      return new HttpError(400, `invalid JSON body: ${e.message}`);
    }
    if (e.statusCode === 413) return new HttpError(413, 'request body too large');
    if (e.statusCode === 415) return new HttpError(415, `unsupported content type: ${e.message}`);
    return new HttpError(e.statusCode, e.message ?? 'bad request');
  }
  return new HttpError(500, 'internal error');
}

export async function createHttpServer(options: HttpServerOptions = {}): Promise<FastifyInstance> {
  const bodyLimit = options.bodyLimit ?? 64 * 1024 * 1024;
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const app = Fastify({
    http: { connectionsCheckingInterval: checkingInterval(timeouts) },
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit,
    // Query strings keep repeated keys as arrays (Tags=1&Tags=2).
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    forceCloseConnections: options.forceCloseConnections ?? true,
  });

  if (options.bodies === 'json') {
    // Every body is JSON, whatever the client declared; multipart keeps its own parser.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new HttpError(400, 'invalid JSON body'), undefined);
      }
    });
  } else {
    // A JSON request with an empty body is treated as {} so `?id=` style writes work with any client.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      try {
        done(null, JSON.parse(text));
      } catch (e) {
        done(new HttpError(400, `invalid JSON body: ${(e as Error).message}`), undefined);
      }
    });
    await app.register(formbody);
  }
  // Multipart text fields are bounded like JSON bodies; file limits belong to each route.
  registerMultipart(app, { fieldSize: bodyLimit });

  installTimeouts(app, timeouts);

  const headers = options.headers ?? {};
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [k, v] of Object.entries(headers)) if (!reply.hasHeader(k)) reply.header(k, v);
    return payload;
  });

  app.setErrorHandler(async (err, req, reply) => {
    const httpError = toHttpError(err);
    // Deliberate 5xx answers (503: a feature is not configured) are not failures worth a trace.
    if (httpError.status >= 500 && !(err instanceof HttpError)) console.error(`${req.method} ${req.url} failed:`, err);
    for (const [name, value] of Object.entries(httpError.headers)) reply.header(name, value);
    // A body left half-read (refused, oversized, malformed) cannot be followed by another request.
    if (!req.raw.complete) reply.header('Connection', 'close');
    if (options.onError && (await options.onError(httpError, req, reply))) return reply;
    return reply.code(httpError.status).type('application/json').send(errorBody(httpError));
  });
  return app;
}

/** Stops accepting connections and waits for in-flight requests, then runs `cleanup`. */
export function installGracefulShutdown(close: () => Promise<void>, timeoutMs: number): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received, shutting down`);
    const timer = setTimeout(() => {
      console.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('error during shutdown', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
