// What one tag server answers (companion §9.2, §9.3): the served tag as a small site — levels
// are child tags, files are the clips carrying exactly that level's tag — and the serve-key
// cookie; /_api is handed to api.ts. Runs on the tag's own listener.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, notFound } from '../../core/http/errors.js';
import { isoStamp } from '../clock.js';
import { parseRange } from '../clips/download.js';
import type { TagRow } from '../tags/repository.js';
import { apiHandler } from './api.js';
import { listingPage, type ListingEntry } from './listing.js';
import { servedNames } from './names.js';
import type { ServedClip } from './repository.js';
import { COOKIE, decodeSegment, lastSegment, METHODS, PREFLIGHT, type SiteDeps, type SiteState } from './state.js';

export function registerSite(app: FastifyInstance, deps: SiteDeps, state: SiteState): void {
  const { ctx, repo, tagRepo } = deps;
  const now = () => isoStamp(ctx.clock.now());

  app.addHook('onRequest', async () => {
    state.requestCount++;
  });

  const servedTag = async (): Promise<TagRow> => {
    const tag = await tagRepo.find(state.tagId);
    if (!tag) throw notFound('not found');
    return tag;
  };

  const files = async (tag: TagRow) => servedNames(await repo.filesAt(tag.id, now()));

  const sendFile = (req: FastifyRequest, reply: FastifyReply, clip: ServedClip): FastifyReply => {
    if (!ctx.blobs.exists(clip.content_hash)) {
      console.error(`served clip ${clip.id}: blob ${clip.content_hash} is missing`);
      throw new HttpError(500, 'internal error');
    }
    const etag = `"${createHash('sha256').update(`${clip.content_hash}\n${clip.content_type}`).digest('hex').slice(0, 40)}"`;
    // Inline, so served pages, styles, scripts and images work in a browser.
    reply.header('Content-Type', clip.content_type).header('Accept-Ranges', 'bytes').header('ETag', etag).header('X-Content-Type-Options', 'nosniff');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    const range = parseRange(req.headers.range, clip.size);
    if (range === 'unsatisfiable') throw new HttpError(416, 'requested range not satisfiable', {}, { 'Content-Range': `bytes */${clip.size}` });
    const head = req.method === 'HEAD';
    if (range) {
      reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${clip.size}`).header('Content-Length', String(range.end - range.start + 1));
      return head ? reply.send() : reply.send(ctx.blobs.read(clip.content_hash, range));
    }
    reply.header('Content-Length', String(clip.size));
    return head || clip.size === 0 ? reply.send() : reply.send(ctx.blobs.read(clip.content_hash));
  };

  const directory = async (req: FastifyRequest, reply: FastifyReply, level: TagRow) => {
    const atLevel = await files(level);
    const index = atLevel.find((f) => f.name === 'index.html');
    if (index) return sendFile(req, reply, index.clip);
    const children = await tagRepo.children(level);
    if ((req.headers.accept ?? '').includes('application/json')) {
      return reply.send([
        ...children.map((c) => ({ name: lastSegment(c.name), size: 0, content_type: '', type: 'directory' })),
        ...atLevel.map((f) => ({ name: f.name, size: f.clip.size, content_type: f.clip.content_type, type: 'file' })),
      ]);
    }
    const entries: ListingEntry[] = [
      ...children.map((c) => ({ name: lastSegment(c.name), kind: 'folder' as const, contentType: '', size: 0 })),
      ...atLevel.map((f) => ({ name: f.name, kind: 'file' as const, contentType: f.clip.content_type, size: f.clip.size })),
    ];
    return reply.type('text/html; charset=utf-8').send(listingPage(level.name, entries));
  };

  /** "/" and "/a/b/" are levels; "/a/b" is a file of level a, or level b without its slash. */
  const site = async (req: FastifyRequest, reply: FastifyReply, path: string) => {
    let level = await servedTag();
    const segments = path.slice(1).split('/');
    const isDirectory = path.endsWith('/');
    const parts = isDirectory ? segments.slice(0, -1) : segments;
    for (let i = 0; i < parts.length; i++) {
      const segment = decodeSegment(parts[i]);
      const child = segment !== '' && !segment.includes('/') ? await tagRepo.findByName(`${level.name}/${segment}`) : undefined;
      if (child) {
        level = child;
        continue;
      }
      if (i !== parts.length - 1 || isDirectory) throw notFound('not found');
      const file = (await files(level)).find((f) => f.name === segment);
      if (!file) throw notFound('not found');
      return sendFile(req, reply, file.clip);
    }
    if (!isDirectory) return reply.code(301).header('Location', `${path}/`).send();
    return directory(req, reply, level);
  };

  const api = apiHandler(deps, state, { servedTag, files });

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.raw.url ?? '/').split('?')[0];
    if (path === '/_api' || path.startsWith('/_api/')) return api(req, reply, path);
    // Every response outside /_api hands a browser the key its scripts need for /_api.
    if (state.apiAccess !== 'none') reply.header('Set-Cookie', `${COOKIE}=${state.key}; Path=/; HttpOnly; SameSite=Strict`);
    if (req.method === 'OPTIONS') return reply.code(204).headers(PREFLIGHT).send();
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method not allowed', {}, { Allow: 'GET, HEAD, OPTIONS' });
    return site(req, reply, path);
  };

  app.route({ method: [...METHODS], url: '/', exposeHeadRoute: false, handler });
  app.route({ method: [...METHODS], url: '/*', exposeHeadRoute: false, handler });
}
