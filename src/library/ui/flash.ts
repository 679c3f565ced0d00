// "Always say what happened after an action": a form write that succeeds answers 303, and the
// page it leads to shows a one-line confirmation. The message travels in a short-lived cookie
// (set on the 303, cleared by the next page that shows it), so no URL carries it and a reload
// does not repeat it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsHtml, wantsJson } from '../../core/http/respond.js';
import { readCookie } from '../auth/pipeline.js';

export const FLASH_COOKIE = 'stacks_flash';

declare module 'fastify' {
  interface FastifyRequest {
    /** The confirmation this page shows (read from the flash cookie). */
    flash?: string;
  }
}

const BY_ACTION: [RegExp, string][] = [
  [/(^|\/)(delete|bulk-revoke|clearCompleted)$/i, 'Deleted.'],
  [/merge$/i, 'Merged.'],
  [/clone$/i, 'Copied.'],
  [/addTags$/, 'Tags added.'],
  [/removeTags$/, 'Tags removed.'],
  [/replaceTags$/, 'Tags replaced.'],
  [/addGroups$/, 'Groups added.'],
  [/addMeta$/, 'Metadata added.'],
  [/massEdit$/, 'Changes applied.'],
  [/retry$/, 'Retry queued.'],
  [/(submit|export)$/i, 'Started; follow it in the jobs panel.'],
  [/(share)$/i, 'Shared.'],
  [/(unshare)$/i, 'No longer shared.'],
  [/reset$/i, 'Reset to the default.'],
  [/^\/v1\/resource$/, 'Uploaded.'],
  [/./, 'Saved.'],
];

/** The confirmation for a successful write to `path` (a /v1 route). */
export function flashFor(path: string): string {
  for (const [pattern, message] of BY_ACTION) if (pattern.test(path)) return message;
  return 'Done.';
}

function isBrowser(req: FastifyRequest): boolean {
  return wantsHtml(req) && !wantsJson(req);
}

export function registerFlash(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (req.method !== 'GET' || !isBrowser(req)) return;
    const message = readCookie(req, FLASH_COOKIE);
    if (message) req.flash = message.slice(0, 200);
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const path = req.url.split('?')[0];
    if (req.method !== 'GET' && reply.statusCode === 303 && path.startsWith('/v1/') && isBrowser(req)) {
      reply.header('set-cookie', `${FLASH_COOKIE}=${encodeURIComponent(flashFor(path))}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`);
    } else if (req.flash !== undefined && reply.statusCode === 200 && String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('set-cookie', `${FLASH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    }
    return payload;
  });
}
