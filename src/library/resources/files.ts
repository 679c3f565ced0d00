// Stored files are served read-only under /files/<location> (main filesystem) and
// /<key>/<location> (alternative filesystems), companion §3.1. Dot folders (temporary uploads,
// the preview cache) are never served, and a sandboxing Content-Security-Policy keeps an
// uploaded HTML or SVG file from running scripts in the service's origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../core/http/errors.js';
import { sendFile } from '../../core/storage/serve.js';
import { mimeForExtension } from '../../core/storage/sniff.js';
import type { Filesystems } from './storage.js';
import type { Visibility } from '../auth/visibility.js';
import { seenBy } from '../http/routes.js';

/** Whether the file at `location` of filesystem `key` belongs to a resource `vis` may see. */
export type FileVisibility = (key: string | null, location: string, vis: Visibility) => Promise<boolean>;

/**
 * Export archives and import staging are reachable only through their own, owner-checked
 * routes; the backup copies of deleted resources are not reachable at all.
 */
export const PRIVATE_FOLDERS = new Set(['_exports', '_imports', 'deleted']);

/** Whether a location inside a filesystem lies in a dot folder or a private folder. */
export function isPrivateLocation(location: string): boolean {
  const segments = location.split('/').filter((seg) => seg !== '');
  return segments.some((seg) => seg.startsWith('.')) || PRIVATE_FOLDERS.has(segments[0] ?? '');
}

const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

export function registerFileRoutes(app: FastifyInstance, fs: Filesystems, visible: FileVisibility): void {
  const serve = (key: string | null) => async (req: FastifyRequest, reply: FastifyReply) => {
    let rel: string;
    try {
      rel = decodeURIComponent((req.params as { '*': string })['*']);
    } catch {
      throw notFound();
    }
    if (isPrivateLocation(rel)) throw notFound();
    // A group-limited caller gets only files of resources inside its subtree (404 otherwise).
    const vis = seenBy(req);
    if (vis.kind === 'subtree' && !(await visible(key, rel.replace(/^\/+/, ''), vis))) throw notFound();
    let path: string;
    try {
      path = fs.get(key).resolve(rel);
    } catch {
      throw notFound();
    }
    const ext = /\.[A-Za-z0-9]+$/.exec(rel)?.[0] ?? '';
    return sendFile(req, reply, path, { type: mimeForExtension(ext), headers: { 'Content-Security-Policy': FILE_CSP, 'Cache-Control': 'private, max-age=3600' } });
  };
  app.get('/files/*', { config: { needs: 'read' } }, serve(null));
  for (const key of fs.alt.keys()) app.get(`/${key}/*`, { config: { needs: 'read' } }, serve(key));
}
