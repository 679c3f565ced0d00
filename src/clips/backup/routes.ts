// /backup… (contract: Backup), admin only, not confined by tag scope.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../core/http/errors.js';
import { readParts } from '../../core/http/multipart.js';
import { unreadableMultipart } from '../http/input.js';
import type { ClipContext } from '../context.js';
import { API, type ClipRoutes } from '../http/routes.js';
import type { BackupService } from './service.js';

const tooLarge = (limit: number) => new HttpError(413, `backup exceeds ${limit} bytes`, {}, { Connection: 'close' });

/** The first file part of the upload, streamed to tmp/; over the limit is 413 and leaves nothing. */
async function receiveArchive(req: FastifyRequest, ctx: ClipContext): Promise<string> {
  if (!req.headers['content-type']) throw badRequest('missing Content-Type header');
  if (!req.isMultipart()) throw badRequest('expected multipart/form-data');
  const limit = ctx.config.maxRestoreBytes;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit + 1024 * 1024) throw tooLarge(limit);
  const path = join(ctx.blobs.tmpDir, `restore-upload-${randomBytes(8).toString('hex')}.zip`);
  try {
    for await (const part of readParts(req, { tooLarge: () => tooLarge(limit), malformed: unreadableMultipart, limits: { fileSize: limit } })) {
      if (part.type !== 'file') continue;
      await pipeline(part.stream, createWriteStream(path, { flags: 'wx', highWaterMark: 1024 * 1024 }));
      return path;
    }
    throw badRequest('missing backup file');
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
}

export function registerBackupRoutes(routes: ClipRoutes, ctx: ClipContext, backups: BackupService): void {
  routes.add({
    method: 'GET',
    path: `${API}/backup`,
    tag: 'backup',
    summary: 'A ZIP of the whole store: manifest, SQL dump, clip bytes, plugin sources',
    needs: 'admin',
    handler: async ({ reply }) => {
      const built = await backups.backup();
      reply.raw.once('close', () => void rm(built.path, { force: true }));
      return reply
        .type('application/zip')
        .header('Content-Length', String(built.size))
        .header('Content-Disposition', `attachment; filename="${built.filename}"`)
        .header('Cache-Control', 'no-store')
        .send(createReadStream(built.path, { highWaterMark: 1024 * 1024 }));
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/backup/restore`,
    tag: 'backup',
    summary: 'Replace the store with a backup ZIP (multipart); checked completely first',
    needs: 'admin',
    streamsFiles: true,
    handler: async ({ req }) => {
      const path = await receiveArchive(req, ctx);
      try {
        await backups.restore(path);
      } finally {
        await rm(path, { force: true });
      }
      return { status: 'restored' };
    },
  });
}
