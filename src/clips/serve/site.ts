// What one tag server answers (companion §9.2–§9.5): the served tag as a small site — levels are
// child tags, files are the clips carrying exactly that level's tag — plus the JSON API under
// /_api and the upload route, with the serve-key cookie. Runs on the tag's own listener.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import { isoStamp } from '../clock.js';
import { parseRange } from '../clips/download.js';
import type { ClipService } from '../clips/service.js';
import type { ClipTempFiles } from '../clipboard/temp-files.js';
import type { ClipContext } from '../context.js';
import type { TagRepository, TagRow } from '../tags/repository.js';
import type { TagService } from '../tags/service.js';
import { appendAt, canonicalJson, deleteAt, getAt, patchAt, replaceAt, type JsonValue } from './json-doc.js';
import { listingPage, type ListingEntry } from './listing.js';
import { servedNames } from './names.js';
import type { ServeRepository, ServedClip } from './repository.js';
import { receiveUpload } from './upload.js';
import type { KeyedLock } from '../../core/storage/keyed-lock.js';

export type ApiAccess = 'none' | 'read' | 'readwrite';
export const API_ACCESS: readonly ApiAccess[] = ['none', 'read', 'readwrite'];

export const COOKIE = '_svc_serve_key';
/** JSON documents and request bodies of /_api are at most 10 MiB (companion §9.4). */
export const MAX_API_BYTES = 10 * 1024 * 1024;

/** The state of one running tag server that its handlers read. */
export interface SiteState {
  tagId: number;
  apiAccess: ApiAccess;
  /** 64 lowercase hex characters, fresh at every start. */
  key: string;
  requestCount: number;
}

export interface SiteDeps {
  ctx: ClipContext;
  clips: ClipService;
  tags: TagService;
  tagRepo: TagRepository;
  repo: ServeRepository;
  tempFiles: ClipTempFiles;
  /** Serialises JSON writes per clip, across every tag server. */
  writeLock: KeyedLock;
}

const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept',
};
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('invalid path encoding');
  }
}

const lastSegment = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/** Compares the cookie with the key in constant time (digests have equal lengths). */
function cookieMatches(req: FastifyRequest, key: string): boolean {
  const header = req.headers.cookie ?? '';
  let sent: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) sent = part.slice(eq + 1).trim();
  }
  if (sent === undefined) return false;
  const a = createHash('sha256').update(sent).digest();
  const b = createHash('sha256').update(key).digest();
  return timingSafeEqual(a, b);
}

export function registerSite(app: FastifyInstance, deps: SiteDeps, state: SiteState): void {
  const { ctx, repo, tagRepo } = deps;
  const now = () => isoStamp(ctx.clock.now());
  const unauthorized = () => new HttpError(401, 'unauthorized: missing or invalid serve key');

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

  /** The clip behind /_api/<stem>: the file <stem>.json at the root level. */
  const document = async (stem: string): Promise<ServedClip> => {
    const name = `${stem}.json`;
    const file = (await files(await servedTag())).find((f) => f.name === name);
    if (!file) throw notFound(`clip not found: ${name}`);
    return file.clip;
  };

  const readDocument = async (clip: ServedClip): Promise<JsonValue> => {
    if (clip.size > MAX_API_BYTES) throw notFound(`clip ${clip.filename} is too large for the JSON API`);
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.blobs.read(clip.content_hash)) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonValue;
    } catch (e) {
      throw notFound(`clip ${clip.filename} is not valid JSON: ${(e as Error).message}`);
    }
  };

  const writeDocument = async (clipId: number, doc: JsonValue) => {
    const staged = await ctx.blobs.stage([Buffer.from(canonicalJson(doc))], MAX_API_BYTES);
    if (!(await deps.clips.replaceContent(clipId, staged))) throw notFound('clip not found');
    await deps.tempFiles.forget(clipId);
  };

  const jsonBody = (req: FastifyRequest): JsonValue => {
    if (req.body === undefined) throw badRequest('empty request body');
    return req.body as JsonValue;
  };

  const api = async (req: FastifyRequest, reply: FastifyReply, path: string) => {
    if (state.apiAccess === 'none') throw notFound('not found');
    const segments = path.slice('/_api'.length).split('/').slice(1);
    if (segments.length === 1 && segments[0] === '_upload') return upload(req, reply);
    if (req.method === 'OPTIONS') return reply.code(204).headers(PREFLIGHT).send();
    if (!cookieMatches(req, state.key)) throw unauthorized();
    if (state.apiAccess === 'read' && req.method !== 'GET') throw new HttpError(403, 'forbidden: API is read-only');
    if (req.method === 'HEAD') throw new HttpError(405, 'method not allowed');
    const stem = decodeSegment(segments[0] ?? '');
    if (stem === '') throw badRequest('missing clip filename');
    const jsonPath = segments.slice(1).map(decodeSegment).filter((s) => s !== '');
    const clip = await document(stem);
    if (req.method === 'GET') return reply.send(getAt(await readDocument(clip), jsonPath));

    const body = req.method === 'DELETE' ? null : jsonBody(req);
    return deps.writeLock.with(String(clip.id), async () => {
      // Read again under the lock: a write that just finished changed the bytes.
      const current = (await repo.filesAt((await servedTag()).id, now())).find((c) => c.id === clip.id);
      if (!current) throw notFound(`clip not found: ${stem}.json`);
      const doc = await readDocument(current);
      switch (req.method) {
        case 'POST': {
          const element = appendAt(doc, jsonPath, body);
          await writeDocument(clip.id, doc);
          return reply.code(201).send(JSON.parse(canonicalJson(element)));
        }
        case 'PUT': {
          await writeDocument(clip.id, replaceAt(doc, jsonPath, body));
          return reply.send(body);
        }
        case 'PATCH': {
          const patched = patchAt(doc, jsonPath, body);
          await writeDocument(clip.id, patched.doc);
          return reply.send(JSON.parse(canonicalJson(patched.value)));
        }
        case 'DELETE': {
          deleteAt(doc, jsonPath);
          await writeDocument(clip.id, doc);
          return reply.code(204).send();
        }
        default:
          throw new HttpError(405, 'method not allowed');
      }
    });
  };

  /** POST /_api/_upload, checks in the companion's order (§9.5). */
  const upload = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method === 'OPTIONS') return reply.code(204).headers(PREFLIGHT).send();
    if (req.method !== 'POST') throw new HttpError(405, 'method not allowed: use POST', {}, { Allow: 'POST, OPTIONS' });
    if (state.apiAccess === 'read') throw new HttpError(403, 'forbidden: API is read-only');
    if (!cookieMatches(req, state.key)) throw unauthorized();
    const tag = await servedTag();
    const result = await receiveUpload(req, deps, tag);
    return reply.code(201).send(result);
  };

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
