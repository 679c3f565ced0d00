// A tag server's /_api (companion §9.4, §9.5): JSON documents served as root-level <stem>.json
// files, read and edited through paths, and the upload route. Everything needs the serve-key
// cookie; `read` allows GET only; with `none` nothing here exists.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import { isoStamp } from '../clock.js';
import { appendAt, canonicalJson, deleteAt, getAt, patchAt, replaceAt, type JsonValue } from './json-doc.js';
import type { ServedClip } from './repository.js';
import { cookieMatches, decodeSegment, MAX_API_BYTES, PREFLIGHT, type Levels, type SiteDeps, type SiteState } from './state.js';
import { receiveUpload } from './upload.js';

export function apiHandler(deps: SiteDeps, state: SiteState, levels: Levels) {
  const { ctx, repo } = deps;
  const { servedTag, files } = levels;
  const now = () => isoStamp(ctx.clock.now());
  const unauthorized = () => new HttpError(401, 'unauthorized: missing or invalid serve key');

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

  return api;
}
