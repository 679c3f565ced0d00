// The one page mechanism (companion §6.1): a page loads a typed context; the framework renders it
// inside the layout (HTML, the default), without the layout (`.body`), or returns the context as
// JSON (`.json` or Accept: application/json). Suffixes exist only on page routes, never on /v1.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SafeHtml } from '../html/jsx.js';
import { wantsJson } from './respond.js';

export interface PageContext {
  pageTitle: string;
  [key: string]: unknown;
}

export interface PageDef<C extends PageContext> {
  path: string;
  /** The capability the page needs; the service's request pipeline enforces it. */
  needs: string;
  load: (req: FastifyRequest, reply: FastifyReply) => Promise<C>;
  view: (ctx: C, req: FastifyRequest) => SafeHtml;
  /** Runs before load (authorisation). */
  guard?: (req: FastifyRequest) => Promise<void>;
}

export type Layout = ((ctx: PageContext, body: SafeHtml, req: FastifyRequest) => SafeHtml) & {
  /** Members every page's JSON form carries besides its own (who is signed in, say). */
  common?: (req: FastifyRequest) => Record<string, unknown>;
  /** Asynchronous work the layout needs before it renders for this request (plugin slots). */
  prepare?: (req: FastifyRequest) => Promise<void>;
};

/**
 * Drops null and undefined members at every depth, as the JSON page form does, and members
 * whose name starts with "_" (UI-only values such as layout extras).
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object' && value.constructor === Object) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined && !k.startsWith('_')) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}

/**
 * State shared by everything one page render does (its loader, view and layout), keyed by its
 * owner: plugin renderers share one MRQL cache across all the slots and shortcodes of a page.
 */
export const pageRenders = new AsyncLocalStorage<Map<symbol, unknown>>();

export function registerPage<C extends PageContext>(app: FastifyInstance, layout: Layout, def: PageDef<C>): void {
  const serve = (mode: 'auto' | 'json' | 'body') => (req: FastifyRequest, reply: FastifyReply) => pageRenders.run(new Map(), () => render(mode, req, reply));
  const render = async (mode: 'auto' | 'json' | 'body', req: FastifyRequest, reply: FastifyReply) => {
    if (def.guard) await def.guard(req);
    const ctx = await def.load(req, reply);
    if (reply.sent) return reply;
    if (mode === 'json' || (mode === 'auto' && wantsJson(req))) return reply.type('application/json').send(withoutNulls({ ...ctx, ...layout.common?.(req) }));
    const body = def.view(ctx, req);
    if (mode !== 'body') await layout.prepare?.(req);
    const html = mode === 'body' ? body.html : `<!doctype html>\n${layout(ctx, body, req).html}`;
    return reply.type('text/html; charset=utf-8').send(html);
  };
  const config = { needs: def.needs };
  app.get(def.path, { config }, serve('auto'));
  app.get(`${def.path}.json`, { config }, serve('json'));
  app.get(`${def.path}.body`, { config }, serve('body'));
}
