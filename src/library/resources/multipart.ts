// Reads a multipart upload: text fields become parameters, file parts named in `fileFields`
// are streamed straight into staged temporary files (never buffered in memory). Anything that
// goes wrong, including a client that disconnects midway or a body over the size limit,
// removes every staged file before the error propagates.
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../core/http/errors.js';
import type { FileStore, StagedFile } from '../../core/storage/file-store.js';

export interface UploadedFile {
  field: string;
  filename: string;
  staged: StagedFile;
}

export interface Upload {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `request body too large: uploads are limited to ${limit} bytes`);
}

/** Refuses a declared body over the limit before reading it. */
export function checkDeclaredSize(req: FastifyRequest, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (limit > 0 && Number.isFinite(declared) && declared > limit + 64 * 1024) throw tooLarge(limit);
}

export async function readUpload(req: FastifyRequest, store: FileStore, fileFields: string[], limit: number): Promise<Upload> {
  if (!req.isMultipart()) throw badRequest('expected a multipart/form-data body');
  checkDeclaredSize(req, limit);
  const wanted = new Set(fileFields.map((f) => f.toLowerCase()));
  const fields: Record<string, unknown> = {};
  req.uploadFields = fields; // so a failed form upload can go back to its form, filled in
  const files: UploadedFile[] = [];
  let total = 0;
  try {
    for await (const part of req.parts({ limits: { fileSize: limit > 0 ? limit : Infinity } })) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        const prev = fields[part.fieldname];
        fields[part.fieldname] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
        continue;
      }
      if (!wanted.has(part.fieldname.toLowerCase())) {
        part.file.resume();
        continue;
      }
      const staged = await store.stage(part.file);
      files.push({ field: part.fieldname, filename: part.filename ?? '', staged });
      total += staged.size;
      if (part.file.truncated || (limit > 0 && total > limit)) throw tooLarge(limit);
    }
  } catch (e) {
    for (const f of files) await store.discard(f.staged);
    const err = e as { statusCode?: number };
    if (err.statusCode === 413) throw tooLarge(limit);
    if (e instanceof HttpError) throw e;
    throw badRequest(`the upload could not be read: ${(e as Error).message}`);
  }
  return { fields, files };
}
