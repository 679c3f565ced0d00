// The running tag servers (companion §9.1): one listener per served tag, kept in memory only
// (none survive a restart). Starts are refused while a restore runs; a stop gives in-flight
// requests 5 seconds and then frees the port.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HttpError, conflict } from '../../core/http/errors.js';
import { createHttpServer } from '../../core/http/server.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import { closeGracefully } from '../http/close.js';
import type { TagRow } from '../tags/repository.js';
import { registerSite } from './site.js';
import { MAX_API_BYTES, type ApiAccess, type SiteDeps, type SiteState } from './state.js';

export const STOP_GRACE_MS = 5_000;

export interface ServeOptions {
  /** 0 lets the system pick a free port. */
  port: number;
  bindAll: boolean;
  apiAccess: ApiAccess;
}

export interface TagServerJson {
  tag_id: number;
  tag_name: string;
  port: number;
  bind_all: boolean;
  url: string;
  running: boolean;
  request_count: number;
  api_access: ApiAccess;
}

interface Running {
  state: SiteState;
  port: number;
  bindAll: boolean;
  app: FastifyInstance;
}

export class TagServers {
  private readonly running = new Map<number, Running>();
  /** Tags whose server is being started (a second start for the same tag is a conflict). */
  private readonly starting = new Set<number>();
  private restoring = false;
  private readonly writeLock = new KeyedLock();

  constructor(private readonly deps: Omit<SiteDeps, 'writeLock'>) {}

  async start(tag: TagRow, options: ServeOptions): Promise<TagServerJson> {
    if (this.restoring) throw conflict('restore in progress');
    return this.launch(tag, options);
  }

  /** Starts servers again as they ran (a restore whose swap failed changed nothing). */
  async restart(servers: readonly { tagId: number; options: ServeOptions }[], log: (msg: string) => void): Promise<void> {
    const tags = new Map((await this.deps.tagRepo.findMany(servers.map((s) => s.tagId))).map((t) => [t.id, t]));
    for (const s of servers) {
      const tag = tags.get(s.tagId);
      if (tag) await this.launch(tag, s.options).catch((e: unknown) => log(`could not restart the server of tag ${s.tagId}: ${(e as Error).message}`));
    }
  }

  private async launch(tag: TagRow, options: ServeOptions): Promise<TagServerJson> {
    if (this.running.has(tag.id) || this.starting.has(tag.id)) throw conflict(`tag ${tag.id} is already being served`);
    this.starting.add(tag.id);
    try {
      const state: SiteState = { tagId: tag.id, apiAccess: options.apiAccess, key: randomBytes(32).toString('hex'), requestCount: 0 };
      const app = await createHttpServer({
        headers: { 'Access-Control-Allow-Origin': '*' },
        bodyLimit: MAX_API_BYTES,
        bodies: 'json',
        forceCloseConnections: 'idle',
      });
      registerSite(app, { ...this.deps, writeLock: this.writeLock }, state);
      try {
        await app.listen({ host: options.bindAll ? '0.0.0.0' : '127.0.0.1', port: options.port });
      } catch (e) {
        await app.close().catch(() => undefined);
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw conflict(`port ${options.port} unavailable`);
        throw e;
      }
      // Reference limits: headers within 10 s, a request within 2 minutes, 2 minutes idle; a
      // download that keeps making progress is never cut (the socket timeout is inactivity).
      app.server.headersTimeout = 10_000;
      app.server.requestTimeout = 120_000;
      app.server.keepAliveTimeout = 120_000;
      app.server.timeout = 120_000;
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const run: Running = { state, port, bindAll: options.bindAll, app };
      this.running.set(tag.id, run);
      return this.json(run, tag.name);
    } finally {
      this.starting.delete(tag.id);
    }
  }

  private json(run: Running, tagName: string): TagServerJson {
    return {
      tag_id: run.state.tagId,
      tag_name: tagName,
      port: run.port,
      bind_all: run.bindAll,
      url: `http://127.0.0.1:${run.port}`,
      running: true,
      request_count: run.state.requestCount,
      api_access: run.state.apiAccess,
    };
  }

  isRunning(tagId: number): boolean {
    return this.running.has(tagId);
  }

  /** Sorted by tag id; `onlyTag` for a scoped key. Names are read now (a rename is followed). */
  async list(onlyTag?: number): Promise<TagServerJson[]> {
    const runs = [...this.running.values()].filter((r) => onlyTag === undefined || r.state.tagId === onlyTag).sort((a, b) => a.state.tagId - b.state.tagId);
    const names = new Map((await this.deps.tagRepo.findMany(runs.map((r) => r.state.tagId))).map((t) => [t.id, t.name]));
    return runs.map((r) => this.json(r, names.get(r.state.tagId) ?? ''));
  }

  /** Stops the tag's server; false when none runs. */
  async stop(tagId: number): Promise<boolean> {
    const run = this.running.get(tagId);
    if (!run) return false;
    this.running.delete(tagId);
    await closeGracefully(run.app, STOP_GRACE_MS);
    return true;
  }

  /** Stops every server at once (shutdown, restore); returns how they ran. */
  async stopAll(): Promise<{ tagId: number; options: ServeOptions }[]> {
    const was = [...this.running.values()].map((r) => ({ tagId: r.state.tagId, options: { port: r.port, bindAll: r.bindAll, apiAccess: r.state.apiAccess } }));
    await Promise.all(was.map((w) => this.stop(w.tagId)));
    return was;
  }

  /** While a restore runs, starts answer 409 (restores refuse rather than wait). */
  setRestoring(on: boolean): void {
    this.restoring = on;
  }
}

export function notServed(tagId: number): HttpError {
  return new HttpError(404, `no server running for tag ${tagId}`);
}
