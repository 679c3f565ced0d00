// Stored files are served read-only under /files/<location> (main filesystem) and
// /<key>/<location> (alternative filesystems), companion §3.1. The path goes through the one
// resolver (src/core/storage/resolver.ts): decoded once, no backslash, no dot segment or
// encoded separator, no private folder, no symlink leading out of the root. A sandboxing
// Content-Security-Policy keeps an uploaded HTML or SVG file from running scripts in the
// service's origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../core/http/errors.js';
import { checkedSegments, locationFromUrl, rawUrlTail, UnsafePathError, type LocationRules } from '../../core/storage/resolver.js';
import { openForServing, sendFile } from '../../core/storage/serve.js';
import { mimeForExtension } from '../../core/storage/sniff.js';
import type { Filesystems } from './storage.js';

/**
 * Top-level folders the service keeps for itself besides every `_…` and `.…` name (exports,
 * imports, temporary parts, previews): the backup copies of deleted resources.
 */
export const PRIVATE_FOLDERS: ReadonlySet<string> = new Set(['_exports', '_imports', 'deleted']);

/** The rules every client-named location of a filesystem follows (serving and LocalPath). */
export const CLIENT_LOCATION: LocationRules = { privateTop: PRIVATE_FOLDERS };

/** Whether a location may not be named by a client (private folder, dot segment, backslash…). */
export function isPrivateLocation(location: string): boolean {
  try {
    checkedSegments(location, CLIENT_LOCATION);
    return false;
  } catch (e) {
    if (e instanceof UnsafePathError) return true;
    throw e;
  }
}

const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

export function registerFileRoutes(app: FastifyInstance, fs: Filesystems): void {
  const serve = (key: string | null) => async (req: FastifyRequest, reply: FastifyReply) => {
    let location: string;
    try {
      location = locationFromUrl(rawUrlTail(req.raw.url ?? req.url, `/${key ?? 'files'}/`));
    } catch {
      throw notFound();
    }
    const file = await openForServing(fs.get(key).root, location, CLIENT_LOCATION);
    const ext = /\.[A-Za-z0-9]+$/.exec(location)?.[0] ?? '';
    return sendFile(req, reply, file, { type: mimeForExtension(ext), headers: { 'Content-Security-Policy': FILE_CSP, 'Cache-Control': 'private, max-age=3600' } });
  };
  app.get('/files/*', { config: { needs: 'read' } }, serve(null));
  for (const key of fs.alt.keys()) app.get(`/${key}/*`, { config: { needs: 'read' } }, serve(key));
}
