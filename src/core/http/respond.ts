// The one "after a write" rule (contract, general conventions 4): `redirect=` wins for every
// client; otherwise Accept including text/html gets 303 See Other to the entity page; anything
// else gets the JSON body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './errors.js';

/** Only same-origin relative paths: "/x", never "//host", "/\\host" or a scheme. */
export function isSafeRelativePath(target: string): boolean {
  return /^\/(?![/\\])/.test(target) && !/[\r\n\t\0]/.test(target) && !target.includes('\\');
}

/** Reads and validates `redirect=` (query string only); throws 400 before any change is made. */
export function redirectTarget(req: FastifyRequest): string | undefined {
  const raw = (req.query as Record<string, unknown> | undefined)?.redirect;
  if (raw === undefined) return undefined;
  const target = Array.isArray(raw) ? String(raw[0]) : String(raw);
  if (!isSafeRelativePath(target)) throw badRequest('redirect must be a same-origin relative path starting with /');
  return target;
}

export function wantsHtml(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

export function wantsJson(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').includes('application/json');
}

/** Sends the result of a write: 303 to `redirect=` or (for browsers) `page`, else JSON. */
export function sendWrite(req: FastifyRequest, reply: FastifyReply, body: unknown, page: string, status = 200): FastifyReply {
  const target = redirectTarget(req);
  if (target !== undefined) return reply.code(303).header('location', target).send();
  if (wantsHtml(req)) return reply.code(303).header('location', page).send();
  if (body === undefined) return reply.code(204).send();
  return reply.code(status).send(body);
}
