// Wires configuration → store → services → routes → background work, and starts listening
// (companion §1.2). close() stops accepting connections, gives in-flight requests (and those of
// every tag server) at most 5 seconds, then stops the watchers and the cleanup job, closes the
// database and empties the clipboard temp files (§1.3).
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../core/http/server.js';
import { BlockList } from 'node:net';
import { registerBackupRoutes } from './backup/routes.js';
import { BackupService } from './backup/service.js';
import { registerBulkRoutes } from './bulk/routes.js';
import { registerReconcileRoutes } from './storage/routes.js';
import { CleanupJob } from './cleanup/job.js';
import { registerClipboardRoutes } from './clipboard/routes.js';
import { ClipboardService } from './clipboard/service.js';
import { ClipTempFiles } from './clipboard/temp-files.js';
import type { Clock } from './clock.js';
import { MetadataService } from './clips/metadata.js';
import { registerClipRoutes } from './clips/routes.js';
import { ClipService } from './clips/service.js';
import type { ClipConfig } from './config.js';
import type { ClipContext } from './context.js';
import { registerDedupRoutes } from './dedup/routes.js';
import { DedupService } from './dedup/service.js';
import { closeGracefully } from './http/close.js';
import { CORS_HEADERS, registerConventions } from './http/conventions.js';
import { clipRegistry, type RequestStats } from './http/routes.js';
import { registerKeyRoutes } from './keys/routes.js';
import { KeyService } from './keys/service.js';
import { PluginHost } from './plugins/host.js';
import { PluginRepository } from './plugins/repository.js';
import { registerPluginRoutes } from './plugins/routes.js';
import { PluginService } from './plugins/service.js';
import { PluginStorage } from './plugins/storage.js';
import { TagServers } from './serve/manager.js';
import { ServeRepository } from './serve/repository.js';
import { registerServeRoutes } from './serve/routes.js';
import { registerStatusRoute, type ListenerInfo } from './status/routes.js';
import { SettingsRepository } from './settings/repository.js';
import { openStore } from './store.js';
import { registerTagRoutes } from './tags/routes.js';
import { TagService } from './tags/service.js';
import { WatchImporter } from './watch/importer.js';
import { WatchManager } from './watch/manager.js';
import { WatchRepository } from './watch/repository.js';
import { registerWatchRoutes } from './watch/routes.js';
import { WatchService } from './watch/service.js';
import { registerClipUi } from './ui/assets.js';

export const SHUTDOWN_GRACE_MS = 5_000;
const JSON_BODY_LIMIT = 1024 * 1024;

export interface ClipServices {
  keys: KeyService;
  clips: ClipService;
  metadata: MetadataService;
  tags: TagService;
  dedup: DedupService;
  watch: WatchService;
  servers: TagServers;
  backups: BackupService;
  clipboard: ClipboardService;
  tempFiles: ClipTempFiles;
  plugins: PluginService;
  pluginHost: PluginHost;
}

export interface RunningClips {
  app: FastifyInstance;
  ctx: ClipContext;
  services: ClipServices;
  cleanup: CleanupJob;
  /** OpenAPI 3 description of the declared routes (tests fuzz every route of it). */
  openapi(): Record<string, unknown>;
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: (msg: string) => void;
  /** Injectable clock (tests move time instead of waiting). */
  clock?: Clock;
  /** Environment the clipboard backend is chosen from (default: the process environment). */
  env?: NodeJS.ProcessEnv;
}

export async function startClips(config: ClipConfig, options: StartOptions = {}): Promise<RunningClips> {
  const log = options.log ?? console.log;
  const store = await openStore(config, options.clock, log);
  const { ctx } = store;

  const clips = new ClipService(ctx);
  const tags = new TagService(ctx);
  const tempFiles = new ClipTempFiles(ctx.config.dataDir, ctx.blobs, ctx.clock);
  const watchRepo = new WatchRepository(ctx.db);
  const importer = new WatchImporter(ctx, clips, watchRepo, tags.repo, log);
  const watcher = new WatchManager(watchRepo, importer, { debounceMs: config.watchDebounceMs, recheckMs: config.watchRecheckMs }, log);
  const servers = new TagServers({ ctx, clips, tags, tagRepo: tags.repo, repo: new ServeRepository(ctx.db), tempFiles });
  let stoppedServers: Awaited<ReturnType<TagServers['stopAll']>> = [];
  const metadata = new MetadataService(ctx);
  const clipboard = new ClipboardService(ctx, clips, tempFiles, () => options.env ?? process.env);
  const pluginRepo = new PluginRepository(ctx.db);
  const pluginStorage = new PluginStorage(pluginRepo);
  const fetchPolicy = { allowPrivate: config.allowPrivateHosts, allowed: new BlockList() };
  const pluginHost = new PluginHost({
    ctx,
    repo: pluginRepo,
    storage: pluginStorage,
    clips,
    tags,
    metadata,
    clipboardWrite: (text) => clipboard.copyText(text),
    policy: fetchPolicy,
    handlerTimeoutMs: config.pluginHandlerTimeoutMs,
    actionTimeoutMs: config.pluginActionTimeoutMs,
    log,
  });
  // A source URL is named by an admin key, who is trusted with the host's network (the contract
  // installs from 127.0.0.1, T157); what plugins fetch themselves stays under the flag.
  const sourcePolicy = { ...fetchPolicy, allowPrivate: true };
  const plugins = new PluginService(pluginRepo, pluginStorage, pluginHost, clips, sourcePolicy, log);
  const backups = new BackupService(ctx, clips, [
    // Plugins let go of the store during the swap and load again afterwards (§10.2): enabled
    // ones receive app:startup after a successful restore.
    { suspend: () => pluginHost.unloadAll(), resume: (restored) => plugins.startAll(restored) },
    { suspend: () => watcher.suspend(), resume: () => watcher.resume() },
    {
      begin: () => servers.setRestoring(true),
      // Tag ids may mean other tags after a restore: servers stop, and stay stopped unless the
      // swap failed and nothing changed.
      suspend: async () => {
        stoppedServers = await servers.stopAll();
      },
      resume: async (restored) => {
        if (!restored) await servers.restart(stoppedServers, log);
      },
      end: () => servers.setRestoring(false),
    },
    { suspend: async () => undefined, resume: async (restored) => (restored ? tempFiles.clear() : undefined) },
  ], log);
  const services: ClipServices = {
    keys: new KeyService(ctx),
    clips,
    metadata,
    tags,
    dedup: new DedupService(ctx, clips),
    watch: new WatchService(ctx, watchRepo, tags.repo, watcher),
    servers,
    backups,
    clipboard,
    tempFiles,
    plugins,
    pluginHost,
  };
  if (config.bootstrapKey) await services.keys.bootstrap(log);

  // A deleted tag is no longer served; a deleted clip's clipboard copy goes with it.
  ctx.events.subscribe((name, payload) => {
    if (name === 'tag:deleted') void servers.stop(payload as number);
    if (name === 'clip:deleted') void tempFiles.forget(payload as number);
  });

  const cleanup = new CleanupJob(
    [
      { name: 'expired clips', run: () => services.clips.deleteExpired() },
      { name: 'revoked keys', run: () => services.keys.purgeRevoked() },
      { name: 'clipboard temp files', run: () => tempFiles.prune() },
      { name: 'unreferenced blobs', run: () => store.reconciler.schedule.now() },
    ],
    config.cleanupIntervalMs,
  );
  cleanup.start();
  await watcher.start();
  await plugins.startAll(true);
  const stopUpdateChecks = plugins.startUpdateChecks(await new SettingsRepository(ctx.db).get('plugin_update_interval'));

  const app = await createHttpServer({
    headers: CORS_HEADERS,
    bodyLimit: JSON_BODY_LIMIT,
    timeouts: config.timeouts,
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
  registerBulkRoutes(routes, ctx, services.clips, services.tags, services.clipboard);
  registerTagRoutes(routes, services.tags, services.clips);
  registerDedupRoutes(routes, services.dedup, services.clips);
  registerWatchRoutes(routes, services.watch);
  registerServeRoutes(routes, servers, tags.repo);
  registerBackupRoutes(routes, ctx, backups);
  registerClipboardRoutes(routes, services.clipboard);
  registerReconcileRoutes(routes, store.reconciler);
  registerPluginRoutes(routes, plugins);
  registerClipUi(app);

  const stopBackground = async () => {
    stopUpdateChecks();
    await pluginHost.unloadAll();
    await watcher.close();
    await cleanup.stop();
    await store.close();
    await tempFiles.clear();
  };
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await stopBackground();
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
    openapi: () => routes.openapi({ title: 'Stacks clip API', version: '1' }),
    url: `http://127.0.0.1:${listener.port}`,
    port: listener.port,
    close() {
      closing ??= (async () => {
        // Every subscribed plugin's on_shutdown runs to its end before the store closes (§8.5).
        await Promise.all([closeGracefully(app, SHUTDOWN_GRACE_MS), servers.stopAll(), pluginHost.shutdown()]);
        await stopBackground();
      })();
      return closing;
    },
  };
}
