// Wires configuration → store → services → routes → cleanup job, and starts listening
// (companion §1.2). close() stops accepting connections, gives in-flight requests at most 5
// seconds, then cuts the rest and closes the database (§1.3).
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../core/http/server.js';
import { CleanupJob } from './cleanup/job.js';
import type { Clock } from './clock.js';
import type { ClipConfig } from './config.js';
import type { ClipContext } from './context.js';
import { registerBulkRoutes } from './bulk/routes.js';
import { MetadataService } from './clips/metadata.js';
import { registerClipRoutes } from './clips/routes.js';
import { ClipService } from './clips/service.js';
import { MAX_UPLOAD_BODY } from './clips/upload.js';
import { registerDedupRoutes } from './dedup/routes.js';
import { DedupService } from './dedup/service.js';
import { CORS_HEADERS, registerConventions } from './http/conventions.js';
import { clipRegistry, type RequestStats } from './http/routes.js';
import { registerKeyRoutes } from './keys/routes.js';
import { KeyService } from './keys/service.js';
import { registerStatusRoute, type ListenerInfo } from './status/routes.js';
import { openStore } from './store.js';
import { registerTagRoutes } from './tags/routes.js';
import { TagService } from './tags/service.js';
import { WatchImporter } from './watch/importer.js';
import { WatchManager } from './watch/manager.js';
import { WatchRepository } from './watch/repository.js';
import { registerWatchRoutes } from './watch/routes.js';
import { WatchService } from './watch/service.js';

export const SHUTDOWN_GRACE_MS = 5_000;
const JSON_BODY_LIMIT = 1024 * 1024;

export interface ClipServices {
  keys: KeyService;
  clips: ClipService;
  metadata: MetadataService;
  tags: TagService;
  dedup: DedupService;
  watch: WatchService;
}

export interface RunningClips {
  app: FastifyInstance;
  ctx: ClipContext;
  services: ClipServices;
  cleanup: CleanupJob;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: (msg: string) => void;
  /** Injectable clock (tests move time instead of waiting). */
  clock?: Clock;
}

export async function startClips(config: ClipConfig, options: StartOptions = {}): Promise<RunningClips> {
  const log = options.log ?? console.log;
  const store = await openStore(config, options.clock, log);
  const { ctx } = store;

  const clips = new ClipService(ctx);
  const tags = new TagService(ctx);
  const watchRepo = new WatchRepository(ctx.db);
  const importer = new WatchImporter(ctx, clips, watchRepo, tags.repo, log);
  const watcher = new WatchManager(watchRepo, importer, { debounceMs: config.watchDebounceMs, recheckMs: config.watchRecheckMs }, log);
  const services: ClipServices = {
    keys: new KeyService(ctx),
    clips,
    metadata: new MetadataService(ctx),
    tags,
    dedup: new DedupService(ctx, clips),
    watch: new WatchService(ctx, watchRepo, tags.repo, watcher, importer),
  };
  if (config.bootstrapKey) await services.keys.bootstrap(log);

  const cleanup = new CleanupJob(
    [
      { name: 'expired clips', run: () => services.clips.deleteExpired() },
      { name: 'revoked keys', run: () => services.keys.purgeRevoked() },
    ],
    config.cleanupIntervalMs,
  );
  cleanup.start();
  await watcher.start();

  const app = await createHttpServer({
    headers: CORS_HEADERS,
    bodyLimit: JSON_BODY_LIMIT,
    fileSizeLimit: MAX_UPLOAD_BODY,
    logger: config.logRequests,
    bodies: 'json',
    forceCloseConnections: 'idle',
  });
  const stats: RequestStats = { requestCount: 0 };
  const listener: ListenerInfo = { port: config.port, bindAll: config.bindAll };
  const routes = clipRegistry(app, services.keys, stats);
  registerConventions(app, routes);
  registerStatusRoute(routes, listener, stats);
  registerKeyRoutes(routes, services.keys);
  registerClipRoutes(routes, ctx, services.clips, services.metadata, services.tags);
  registerBulkRoutes(routes, ctx, services.clips, services.tags);
  registerTagRoutes(routes, services.tags, services.clips);
  registerDedupRoutes(routes, services.dedup, services.clips);
  registerWatchRoutes(routes, services.watch);

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await watcher.close();
    await cleanup.stop();
    await store.close();
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`cannot listen on ${config.host}:${config.port}${code ? ` (${code})` : ''}: ${(e as Error).message}`);
  }
  const address = app.server.address();
  listener.port = typeof address === 'object' && address ? address.port : config.port;

  let closing: Promise<void> | null = null;
  return {
    app,
    ctx,
    services,
    cleanup,
    url: `http://127.0.0.1:${listener.port}`,
    port: listener.port,
    close() {
      closing ??= (async () => {
        const force = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        try {
          await app.close();
        } finally {
          clearTimeout(force);
        }
        await watcher.close();
        await cleanup.stop();
        await store.close();
      })();
      return closing;
    },
  };
}
