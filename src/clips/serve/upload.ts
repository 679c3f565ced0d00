// POST /_api/_upload on a tag server (companion §9.5): a multipart form with a `file` part under
// 10 MiB, an optional `tag` sub-path below the served tag (created when absent) and an optional
// `content_type`; a new clip (no dedup) tagged with the target tag.
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../core/http/errors.js';
import { readParts } from '../../core/http/multipart.js';
import { partFilename } from '../clips/filenames.js';
import { BlobTooLargeError, type StagedBlob } from '../storage/blobs.js';
import type { TagRow } from '../tags/repository.js';
import type { SiteDeps } from './state.js';

/** The file must be under 10 MiB: 10,485,759 bytes is the largest accepted. */
export const MAX_SERVED_UPLOAD = 10 * 1024 * 1024 - 1;
const MAX_BODY = 11 * 1024 * 1024;

const tooLarge = () => new HttpError(413, 'file too large (max 10 MB)', {}, { Connection: 'close' });

/** The relative tag path of the form: trimmed, segments neither empty nor ".", ".." or "_api". */
export function relativeTagPath(raw: string | undefined): string {
  const path = (raw ?? '').trim();
  if (path === '') return '';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..' || segment === '_api') throw badRequest(`invalid tag path: ${path}`);
  }
  return path;
}

export interface UploadResult {
  id: number;
  filename: string;
  content_type: string;
  tag: string;
  tag_id: number;
}

export async function receiveUpload(req: FastifyRequest, deps: SiteDeps, served: TagRow): Promise<UploadResult> {
  if (!req.isMultipart()) throw badRequest('invalid multipart form');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY) throw tooLarge();

  const fields = new Map<string, string>();
  let staged: StagedBlob | null = null;
  let filename = '';
  let partType: string | null = null;
  try {
    const parts = readParts(req, { tooLarge, limits: { fileSize: MAX_SERVED_UPLOAD + 1, files: 5, fields: 20, parts: 30, fieldSize: 64 * 1024 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields.set(part.name, part.value);
      } else if (part.name === 'file' && !staged) {
        staged = await deps.ctx.blobs.stage(part.stream, MAX_SERVED_UPLOAD);
        filename = partFilename(part.filename);
        partType = part.mimetype;
      }
    }
  } catch (e) {
    if (staged) await deps.ctx.blobs.discard(staged);
    if (e instanceof BlobTooLargeError || (e instanceof HttpError && e.status === 413)) throw tooLarge();
    if (e instanceof HttpError && e.status !== 400) throw e;
    throw badRequest('invalid multipart form');
  }
  if (!staged) throw badRequest("missing required 'file' field");

  let tag: TagRow;
  try {
    const sub = relativeTagPath(fields.get('tag'));
    tag = sub === '' ? served : await deps.tags.ensure(`${served.name}/${sub}`);
  } catch (e) {
    await deps.ctx.blobs.discard(staged);
    if (e instanceof HttpError && e.status === 400 && !e.message.startsWith('invalid tag path')) throw badRequest(`invalid tag path: ${e.message}`);
    throw e;
  }
  const declaredType = fields.get('content_type')?.trim() || partType;
  const { clip } = await deps.clips.createFromStaged(staged, { filename, declaredType }, { dedup: false, tag });
  return { id: clip.id, filename: clip.filename, content_type: clip.content_type, tag: tag.name, tag_id: tag.id };
}
