// The share server (companion §1.5, §6.8): a second Fastify instance on its own listener
// (-share-port, -share-bind-address) that serves shared notes read-only at /s/<token>, the few
// endpoints their page uses, and /public/* — nothing else of the library is reachable from it.
import type { FastifyInstance } from 'fastify';
import { bool, parseJson } from '../../core/db/values.js';
import { raw } from '../../core/html/jsx.js';
import type { Selectable } from 'kysely';
import type { NoteTable } from '../schema/database.js';
import type { Shortcodes } from '../templates/index.js';
import { badRequest, forbidden, notFound } from '../../core/http/errors.js';
import { createHttpServer } from '../../core/http/server.js';
import type { Library } from '../context.js';
import { registerPublicAssets } from '../ui/assets.js';
import type { BlockService } from '../blocks/service.js';
import { SEE_ALL } from '../auth/visibility.js';
import type { CalendarService } from '../blocks/calendar/events.js';
import type { BlockViews } from '../blocks/view.js';
import { isObject } from '../blocks/shape.js';
import { openForServing, sendFile } from '../../core/storage/serve.js';
import type { ShareService } from './service.js';
import { notFoundPage, sharePage } from './share-page.js';

const SHARE_HEADERS = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; frame-ancestors 'none'",
};

/** Files are shown, never run: a shared HTML or SVG file cannot script the share origin. */
const FILE_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";
const HASH = /^[0-9a-fA-F]{40}$/;

export interface ShareServerDeps {
  sharing: ShareService;
  blocks: BlockService;
  views: BlockViews;
  calendars: CalendarService;
  shortcodes: Shortcodes;
}

export class ShareServer {
  private app: FastifyInstance | null = null;

  constructor(
    private readonly lib: Library,
    private readonly deps: ShareServerDeps,
  ) {}

  /** Starts listening when -share-port is set; returns the base URL, or undefined when off. */
  async start(): Promise<string | undefined> {
    const { sharePort, shareHost } = this.lib.config;
    if (sharePort === null) return undefined;
    const app = await createHttpServer({ headers: SHARE_HEADERS, bodyLimit: 1024 * 1024, logger: this.lib.config.logRequests });
    this.routes(app);
    try {
      await app.listen({ host: shareHost, port: sharePort });
    } catch (e) {
      await app.close();
      throw new Error(`cannot start the share server on ${shareHost}:${sharePort}: ${(e as Error).message} (free the port or drop -share-port)`);
    }
    // Companion §1.5: 15 s to send a request, 60 s idle keep-alive.
    app.server.requestTimeout = 15_000;
    app.server.headersTimeout = 15_000;
    app.server.keepAliveTimeout = 60_000;
    this.app = app;
    this.deps.sharing.setServerRunning(true);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : sharePort;
    const host = shareHost === '0.0.0.0' || shareHost === '::' ? '127.0.0.1' : shareHost;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  async close(): Promise<void> {
    this.deps.sharing.setServerRunning(false);
    await this.app?.close();
    this.app = null;
  }

  private async note(token: string) {
    const note = await this.deps.sharing.noteByToken(token);
    if (!note) throw notFound('Not found');
    return note;
  }

  /** A block of the shared note; a block of any other note is simply not found. */
  private async block(noteId: number, rawId: string) {
    const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
    const block = Number.isSafeInteger(id) ? await this.deps.blocks.find(id) : undefined;
    if (!block || block.note_id !== noteId) throw notFound('Not found');
    return block;
  }

  private routes(app: FastifyInstance): void {
    const lib = this.lib;
    const { sharing, blocks, views, calendars } = this.deps;
    registerPublicAssets(app);
    app.setNotFoundHandler(async (_req, reply) => reply.code(404).type('text/html; charset=utf-8').send(notFoundPage()));

    app.get<{ Params: { token: string } }>('/s/:token', async (req, reply) => {
      const note = await sharing.noteByToken(req.params.token);
      if (!note) return reply.code(404).type('text/html; charset=utf-8').send(notFoundPage());
      const [list, type] = await Promise.all([blocks.blocksOf(note.id), sharing.shareTemplate(note.note_type_id)]);
      // A shared note is the sharer's publication: its table blocks run as the service itself.
      const data = await views.load(list, lib.root, { id: note.id, name: note.name, noteTypeId: note.note_type_id ?? null });
      const applies = type && bool(type.apply_templates_to_shares);
      const html = sharePage({
        name: note.name,
        description: note.description,
        blocks: list,
        template: applies ? { header: raw(await shareHeader(this.deps.shortcodes, note, type.custom_header, type.meta_schema)), css: type.custom_css } : null,
        ctx: { mode: 'share', token: note.share_token!, data },
      });
      return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
    });

    app.post<{ Params: { token: string; blockId: string } }>('/s/:token/block/:blockId/state', async (req) => {
      const note = await this.note(req.params.token);
      const block = await this.block(note.id, req.params.blockId);
      if (block.type !== 'todos') throw forbidden('only the state of a todos block can be changed on a shared note');
      if (!isObject(req.body)) throw badRequest('the body must be the new state object, e.g. {"checked": ["a1"]}');
      await blocks.updateState(SEE_ALL, block.id, note.id, req.body);
      return { success: true };
    });

    app.get<{ Params: { token: string; blockId: string }; Querystring: { start?: string; end?: string } }>('/s/:token/block/:blockId/calendar/events', async (req) => {
      const note = await this.note(req.params.token);
      const block = await this.block(note.id, req.params.blockId);
      const q = req.query;
      return calendars.events(block, typeof q.start === 'string' ? q.start : undefined, typeof q.end === 'string' ? q.end : undefined, SEE_ALL);
    });

    app.get<{ Params: { token: string; hash: string } }>('/s/:token/resource/:hash', async (req, reply) => {
      const note = await this.note(req.params.token);
      if (!HASH.test(req.params.hash)) throw notFound('Not found');
      const resource = await sharing.sharedResource(note.id, req.params.hash.toLowerCase());
      if (!resource) throw notFound('Not found');
      const root = resource.storage_location ? lib.config.altFs[resource.storage_location] : lib.config.filePath;
      if (!root) throw notFound('Not found');
      const file = await openForServing(root, resource.location, { allowPrivate: true }).catch(() => {
        throw notFound('Not found');
      });
      const safeName = resource.name.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || 'file';
      return sendFile(req, reply, file, {
        type: resource.content_type || 'application/octet-stream',
        disposition: `inline; filename="${safeName}"`,
        headers: { 'Content-Security-Policy': FILE_POLICY, 'Cache-Control': 'private, max-age=300' },
      });
    });
  }
}

/** The note type's CustomHeader in restricted mode: the note's own fields, no MRQL (§5.9). */
async function shareHeader(shortcodes: Shortcodes, note: Selectable<NoteTable>, text: string, metaSchema: string): Promise<string> {
  const entity = {
    ID: note.id,
    Name: note.name,
    Description: note.description,
    Meta: parseJson<Record<string, unknown>>(note.meta, {}),
    StartDate: note.start_date,
    EndDate: note.end_date,
    NoteTypeId: note.note_type_id,
    CreatedAt: note.created_at,
    UpdatedAt: note.updated_at,
  };
  return shortcodes.shareSlot(entity, text, metaSchema);
}
