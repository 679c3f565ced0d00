// Receiving an import archive (POST /v1/groups/import/parse, multipart field `file`): the bytes
// stream to `_imports/upload-<random>/archive.tar` and, at the same time, through the archive
// reader, so an unsafe or malformed archive (entry names with "..", absolute paths, links, no
// manifest.json first, a schema_version other than 1, oversized or broken JSON) is refused with
// a 400 before any job exists, and its staging folder is removed. Over max_import_size: 413.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../core/http/errors.js';
import { readParts } from '../../core/http/multipart.js';
import { syncFile } from '../../core/storage/file-store.js';
import { ARCHIVE_LIMITS } from '../archive/format.js';
import { ArchiveError, readArchive, readJson } from '../archive/reader.js';
import { checkDeclaredSize } from '../resources/multipart.js';
import { readManifest } from './archive-index.js';
import type { ImportStore } from './staging.js';

export interface ReceivedArchive {
  dir: string;
  fileName: string;
  size: number;
}

export const tooLarge = (limit: number) => new HttpError(413, `request body too large: import archives are limited to ${limit} bytes`);

/** Checks an archive as it streams by; rejects with ArchiveError on the first problem. */
function validator(limit: number): { input: PassThrough; done: Promise<void> } {
  const input = new PassThrough();
  const done = readArchive(input, { maxContentBytes: limit * ARCHIVE_LIMITS.gzipExpansion }, async (entry) => {
    if (entry.kind === 'manifest') readManifest(await readJson(entry));
    else if (entry.kind === 'schema' || entry.kind === 'group' || entry.kind === 'note' || entry.kind === 'resource' || entry.kind === 'series') await readJson(entry);
    else entry.stream.resume();
  });
  return { input, done };
}

async function stageFile(file: Readable, target: string, limit: number): Promise<number> {
  let size = 0;
  const check = validator(limit);
  const tee = new Transform({
    transform(chunk: Buffer, _enc, next) {
      size += chunk.length;
      if (check.input.write(chunk)) next(null, chunk);
      else check.input.once('drain', () => next(null, chunk));
    },
    flush(next) {
      check.input.end();
      next();
    },
  });
  // A refusal from the reader stops the upload at once.
  const refused = check.done.catch((e: unknown) => {
    tee.destroy(e as Error);
    throw e;
  });
  try {
    await Promise.all([pipeline(file, tee, createWriteStream(target)), refused]);
  } catch (e) {
    if (e instanceof ArchiveError) throw badRequest(e.message);
    if (e instanceof HttpError) throw e;
    throw badRequest(`the upload could not be read: ${(e as Error).message}`);
  }
  await syncFile(target);
  return size;
}

export async function receiveArchive(req: FastifyRequest, store: ImportStore, limit: number): Promise<ReceivedArchive> {
  if (!req.isMultipart()) throw badRequest('expected a multipart/form-data body with the archive in the field "file"');
  checkDeclaredSize(req, limit);
  const dir = await store.uploadDir();
  let received: ReceivedArchive | null = null;
  try {
    for await (const part of readParts(req, { limits: { fileSize: limit }, tooLarge: () => tooLarge(limit) })) {
      if (part.type === 'field' || part.name.toLowerCase() !== 'file' || received) continue;
      const size = await stageFile(part.stream, join(dir, 'archive.tar'), limit);
      received = { dir, fileName: part.filename.slice(0, 255) || 'archive.tar', size };
    }
    if (!received) throw badRequest('file is required: send the archive in the multipart field "file"');
    return received;
  } catch (e) {
    await store.remove(dir);
    throw e;
  }
}
