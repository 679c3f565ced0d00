// GET /clips/{id}/data (companion §3.6): streams the blob with its type, exact length, an
// attachment disposition, hardening headers, an ETag, and single byte ranges.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http/errors.js';
import type { BlobStore } from '../storage/blobs.js';
import { isTextType } from './content-type.js';
import { contentDisposition, downloadName } from './filenames.js';
import type { ClipRow } from './repository.js';

/** A single "bytes=a-b", "bytes=a-" or "bytes=-n" range; null = serve everything. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or unknown syntax: whole body
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export function sendClipData(req: FastifyRequest, reply: FastifyReply, clip: ClipRow, blobs: BlobStore): FastifyReply {
  if (!blobs.exists(clip.content_hash)) {
    console.error(`clip ${clip.id}: blob ${clip.content_hash} is missing`);
    throw new HttpError(500, 'internal error');
  }
  const type = isTextType(clip.content_type) ? `${clip.content_type}; charset=utf-8` : clip.content_type;
  reply
    .header('Content-Type', type)
    .header('Content-Disposition', contentDisposition(downloadName(clip)))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .header('Cache-Control', 'no-store')
    .header('Accept-Ranges', 'bytes')
    .header('ETag', `"${clip.content_hash}"`);

  const range = parseRange(req.headers.range, clip.size);
  if (range === 'unsatisfiable') {
    reply.removeHeader('Content-Disposition');
    throw new HttpError(416, 'requested range not satisfiable', {}, { 'Content-Range': `bytes */${clip.size}` });
  }
  if (range) {
    reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${clip.size}`)
      .header('Content-Length', String(range.end - range.start + 1));
    return reply.send(blobs.read(clip.content_hash, range));
  }
  reply.header('Content-Length', String(clip.size));
  if (clip.size === 0) return reply.send('');
  return reply.send(blobs.read(clip.content_hash));
}
