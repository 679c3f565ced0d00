// HTML-side error handling: failed form posts go back to the form with the message and the
// submitted values (companion §6.1 item 4); failed pages render an error page; unknown paths
// answer an HTML 404 or, for API and JSON clients, {"error": "no such endpoint: …"}.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpError } from '../../core/http/errors.js';
import { isSafeRelativePath, wantsHtml, wantsJson } from '../../core/http/respond.js';
import { errorPage } from './error-page.js';
import { CredentialError, CsrfError, RoleError } from '../auth/errors.js';

function isApi(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0];
  return path.startsWith('/v1/') || path === '/v1' || path.endsWith('.json');
}

/** Same-origin Referer path, if any. */
function refererPath(req: FastifyRequest): string | null {
  const ref = req.headers.referer;
  if (!ref) return null;
  try {
    const u = new URL(ref);
    if (u.host !== req.headers.host) return null;
    return u.pathname + u.search;
  } catch {
    return null;
  }
}

const SENSITIVE = /pass|token|secret/i;

declare module 'fastify' {
  interface FastifyRequest {
    /** The text fields of a multipart form, as far as they were read. */
    uploadFields?: Record<string, unknown>;
  }
}

function submittedFields(req: FastifyRequest): Record<string, unknown> {
  if (req.uploadFields) return req.uploadFields;
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
}

/** The resource a duplicate upload collided with, when the error names one. */
function existingResourceOf(err: HttpError): number | undefined {
  const extra = err.extra as { existingResourceId?: unknown; details?: { existingResourceId?: unknown }[] };
  const id = extra.existingResourceId ?? extra.details?.find((d) => d.existingResourceId !== undefined)?.existingResourceId;
  return typeof id === 'number' ? id : undefined;
}

export async function handleHtmlError(err: HttpError, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const path = req.url.split('?')[0];
  // A missing or bad credential is never bounced back to a form: the client gets its 401.
  if (err instanceof CredentialError) return false;
  // A browser whose session could not be verified gets the 403 page, not its form back (which
  // would fail the same way); API and JSON clients get {"error"} (companion §10.6).
  if (err instanceof CsrfError && wantsHtml(req) && !wantsJson(req)) {
    await reply.code(403).type('text/html; charset=utf-8').send(errorPage(req, 403, err.pageMessage));
    return true;
  }
  if (req.method !== 'GET' && path.startsWith('/v1/') && wantsHtml(req) && err.status < 500) {
    // Forms name their own page in a hidden _form field, because pages send no Referer; a
    // multipart form's fields are read by the upload itself (req.uploadFields).
    const body0 = submittedFields(req);
    const named = body0._form ?? (req.query as Record<string, unknown> | undefined)?._form;
    const form = typeof named === 'string' && isSafeRelativePath(named) ? named : null;
    const back = form ?? refererPath(req);
    if (back) {
      const url = new URL(back, 'http://local');
      for (const [k, v] of Object.entries(body0)) {
        if (SENSITIVE.test(k) || k === 'error' || k === 'errorLink' || k === '_form') continue;
        url.searchParams.delete(k);
        for (const item of Array.isArray(v) ? v : [v]) if (typeof item === 'string' || typeof item === 'number') url.searchParams.append(k, String(item));
      }
      url.searchParams.set('error', err.message);
      const existing = existingResourceOf(err);
      if (existing !== undefined) url.searchParams.set('errorLink', `/resource?id=${existing}`);
      else url.searchParams.delete('errorLink');
      await reply.code(302).header('location', url.pathname + url.search).send();
      return true;
    }
  }
  // Any other browser request that failed ends on a page, never on raw JSON.
  if (req.method !== 'GET' && wantsHtml(req) && !wantsJson(req)) {
    const message = err instanceof RoleError ? err.pageMessage : err.message;
    await reply.code(err.status).type('text/html; charset=utf-8').send(errorPage(req, err.status, message));
    return true;
  }
  if (req.method === 'GET' && !isApi(req) && !wantsJson(req)) {
    const message = err instanceof RoleError ? err.pageMessage : err.message;
    await reply.code(err.status).type('text/html; charset=utf-8').send(errorPage(req, err.status, message));
    return true;
  }
  if (req.method === 'GET' && !path.startsWith('/v1/')) {
    // A page's JSON form reports failures as errorMessage.
    await reply.code(err.status).send({ error: err.message, errorMessage: err.message });
    return true;
  }
  return false;
}

export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0];
    if (isApi(req) || (wantsJson(req) && !wantsHtml(req))) {
      return reply.code(404).send({ error: `no such endpoint: ${req.method} ${path}` });
    }
    return reply.code(404).type('text/html; charset=utf-8').send(errorPage(req, 404, `There is no page at ${path}.`));
  });
}
