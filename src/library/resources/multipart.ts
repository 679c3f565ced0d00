// Reads a multipart upload: text fields become parameters, file parts named in `fileFields`
// go straight into staged temporary files (never buffered in memory) — for a body declared at
// 1 MiB or more read off the socket into a ring the staging thread writes from (readPartsDirect,
// staging-worker.ts), through busboy's part streams otherwise. Anything that goes wrong, including a client that disconnects midway or a body
// over the size limit, removes every staged file before the error propagates (the reader's
// errors are HttpErrors).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../core/http/errors.js';
import { addField, readParts, readPartsDirect } from '../../core/http/multipart.js';
import type { FileStore, StagedFile } from '../../core/storage/file-store.js';
import { StagingRing, type WorkerStaging } from '../../core/storage/staging-worker.js';

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

export async function readUpload(req: FastifyRequest, reply: FastifyReply, store: FileStore, fileFields: string[], limit: number): Promise<Upload> {
  if (!req.isMultipart()) throw badRequest('expected a multipart/form-data body');
  checkDeclaredSize(req, limit);
  const wanted = new Set(fileFields.map((f) => f.toLowerCase()));
  const fields: Record<string, unknown> = {};
  req.uploadFields = fields; // so a failed form upload can go back to its form, filled in
  const files = (await readFilesDirect(req, reply, store, wanted, limit, fields)) ?? (await readFilesStreamed(req, store, wanted, limit, fields));
  return { fields, files };
}

/** A large body, read off the socket into a staging ring and written by the staging thread (readPartsDirect); null when it cannot be. */
async function readFilesDirect(req: FastifyRequest, reply: FastifyReply, store: FileStore, wanted: Set<string>, limit: number, fields: Record<string, unknown>): Promise<UploadedFile[] | null> {
  const opened: { field: string; filename: string; staging: WorkerStaging }[] = [];
  let total = 0;
  // The socket reads into this ring and the staging thread writes the file parts from it; made
  // when the reader asks for it (not for a body it leaves to readParts).
  let ring: StagingRing | null = null;
  const ringOf = () => (ring ??= new StagingRing());
  try {
    const read = await readPartsDirect(
      req,
      reply.raw,
      {
        field: (name, value) => addField(fields, name, value),
        get buffers() {
          return ringOf();
        },
        // A full ring (a slow disk, a busy staging thread) holds the socket until it is half empty.
        blocked: () => ring?.blocked() ?? null,
        file(name, filename) {
          if (!wanted.has(name.toLowerCase())) return null;
          const staging = store.stageDirect(ringOf());
          opened.push({ field: name, filename, staging });
          // Started at the part's end, so the next part is read while this one's fsync runs.
          return {
            write(chunk) {
              total += chunk.length;
              if (limit > 0 && total > limit) throw tooLarge(limit);
              staging.write(chunk);
            },
            end: () => void staging.finish().catch(() => undefined),
          };
        },
      },
      { limits: { fileSize: limit }, tooLarge: () => tooLarge(limit) },
    );
    if (!read) return null;
    const files: UploadedFile[] = [];
    for (const f of opened) files.push({ field: f.field, filename: f.filename, staged: await f.staging.finish() });
    return files;
  } catch (e) {
    for (const f of opened) await f.staging.discard();
    throw e;
  } finally {
    // Assigned inside the handlers, which the compiler does not follow.
    (ring as StagingRing | null)?.release();
  }
}

async function readFilesStreamed(req: FastifyRequest, store: FileStore, wanted: Set<string>, limit: number, fields: Record<string, unknown>): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  let total = 0;
  try {
    for await (const part of readParts(req, { limits: { fileSize: limit }, tooLarge: () => tooLarge(limit) })) {
      if (part.type === 'field') {
        addField(fields, part.name, part.value);
        continue;
      }
      if (!wanted.has(part.name.toLowerCase())) continue;
      const staged = await store.stage(part.stream);
      files.push({ field: part.name, filename: part.filename, staged });
      total += staged.size;
      if (limit > 0 && total > limit) throw tooLarge(limit);
    }
  } catch (e) {
    for (const f of files) await store.discard(f.staged);
    throw e;
  }
  return files;
}
