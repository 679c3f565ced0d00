// Sends a stored file: Content-Type, Content-Length, Last-Modified, one byte range (video
// players and PDF viewers ask for them), and an optional Content-Disposition.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import { openInside, UnsafePathError, type LocationRules, type OpenedFile } from './resolver.js';

export interface SendFileOptions {
  type: string;
  /** e.g. `attachment; filename="x.pdf"` */
  disposition?: string;
  lastModified?: Date;
  headers?: Record<string, string>;
}

/** Quotes a file name for Content-Disposition, with an RFC 5987 form for non-ASCII names. */
export function dispositionHeader(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Opens `location` under `root` through the resolver; anything it refuses, and a missing file,
 * is a 404 that names nothing about the disk.
 */
export async function openForServing(root: string, location: string, rules: LocationRules = {}): Promise<OpenedFile> {
  try {
    return await openInside(root, location, rules);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof UnsafePathError || code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'EACCES' || code === 'ENAMETOOLONG') {
      throw new HttpError(404, 'the stored file is missing');
    }
    throw e;
  }
}

/** Sends an opened file (from openForServing) and closes it. */
export async function sendFile(req: FastifyRequest, reply: FastifyReply, file: OpenedFile, opts: SendFileOptions): Promise<FastifyReply> {
  const { handle, size } = file;
  let streaming = false;
  try {
    reply.header('Content-Type', opts.type).header('Accept-Ranges', 'bytes');
    reply.header('Last-Modified', (opts.lastModified ?? file.mtime).toUTCString());
    if (opts.disposition) reply.header('Content-Disposition', opts.disposition);
    for (const [k, v] of Object.entries(opts.headers ?? {})) reply.header(k, v);

    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? '').trim());
    if (range && (range[1] !== '' || range[2] !== '')) {
      let start: number;
      let end: number;
      if (range[1] === '') {
        start = Math.max(0, size - Number(range[2]));
        end = size - 1;
      } else {
        start = Number(range[1]);
        end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      }
      if (start > end || start >= size) {
        return reply.code(416).header('Content-Range', `bytes */${size}`).send();
      }
      reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', String(end - start + 1));
      if (req.method === 'HEAD') return reply.send();
      streaming = true;
      return reply.send(handle.createReadStream({ start, end }));
    }
    reply.header('Content-Length', String(size));
    if (req.method === 'HEAD' || size === 0) return reply.send();
    streaming = true;
    return reply.send(handle.createReadStream());
  } finally {
    // The read stream closes the handle when it ends or is destroyed; otherwise close it here.
    if (!streaming) await handle.close().catch(() => undefined);
  }
}
