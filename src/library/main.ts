// Wires configuration → database → services → routes → pages, and starts listening.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { connect } from '../core/db/connect.js';
import { Transactor } from '../core/db/repository.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { EventBus } from '../core/events/bus.js';
import { createHttpServer } from '../core/http/server.js';
import type { Kysely } from 'kysely';
import type { LibraryConfig } from './config.js';
import type { Library } from './context.js';
import type { Database } from './schema/database.js';
import { libraryMigrations } from './schema/migrations.js';
import { seedEmptyLibrary } from './schema/seed.js';
import type { Principal } from './auth/principal.js';
import { installRequestPipeline, recordAccess } from './auth/pipeline.js';
import { bootstrapAccounts, buildAccounts } from './accounts/feature.js';
import { createReadonlyRunner } from './queries/readonly.js';
import { libraryRegistry } from './http/routes.js';
import { registerFeatures } from './features.js';
import type { MrqlFeature } from './mrql/feature.js';
import { describeApi } from './auth/openapi.js';
import { handleHtmlError, registerNotFound } from './ui/errors.js';
import { registerAssets } from './ui/assets.js';
import { LogRepository } from './audit/repository.js';
import { AuditLog } from './audit/service.js';
import { RuntimeSettings } from './admin/settings.js';
import { SettingsRepository } from './admin/repository.js';
import { bootSettings } from './admin/boot.js';
import { JobQueue } from '../core/jobs/queue.js';
import { DownloadHistory } from './downloads/history.js';
import { HistoryRepository } from './downloads/repository.js';
import { DOWNLOAD } from './downloads/service.js';
import type { DownloadPayload } from './downloads/payload.js';

export interface RunningLibrary {
  app: FastifyInstance;
  lib: Library;
  /** Base URL once listening, e.g. http://127.0.0.1:8181 */
  url: string;
  /** Base URL of the note share server, when -share-port started one. */
  shareUrl?: string;
  /** The MRQL feature (engine, service, shortcode engine) for in-process callers: tests, benchmarks. */
  mrql: MrqlFeature;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000',
};

export interface StartOptions {
  log?: (msg: string) => void;
  /** false builds the app without listening (e.g. to print the OpenAPI description). */
  listen?: boolean;
}

export async function startLibrary(config: LibraryConfig, options: StartOptions = {}): Promise<RunningLibrary> {
  const log = options.log ?? console.log;
  let tempFiles: string | null = null;
  if (config.ephemeral) {
    tempFiles = mkdtempSync(join(tmpdir(), 'stacks-ephemeral-'));
    config = { ...config, filePath: tempFiles };
  }
  mkdirSync(resolve(config.filePath), { recursive: true });

  const handle = connect<Database>({ kind: config.dbKind, dsn: config.dbDsn, maxConnections: config.maxDbConnections });
  try {
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, libraryMigrations(handle.dialect));
    await seedEmptyLibrary(handle.db);
  } catch (e) {
    await handle.close();
    throw e;
  }
  const bus = new EventBus<Principal>();
  const transactor = new Transactor(handle.db);
  const accounts = buildAccounts(handle.db, handle.dialect, transactor, bus, config.auth);
  let root: Principal;
  try {
    root = await bootstrapAccounts(accounts, config.auth, log);
  } catch (e) {
    await handle.close();
    throw e;
  }
  const audit = new AuditLog(new LogRepository(handle.db, handle.dialect));
  if (config.cleanupLogsDays > 0) {
    const cutoff = new Date(Date.now() - config.cleanupLogsDays * 86_400_000).toISOString();
    const removed = await audit.deleteOlderThan(cutoff);
    log(`removed ${removed} audit-log entries older than ${config.cleanupLogsDays} days`);
  }

  const settings = new RuntimeSettings(new SettingsRepository(handle.db, handle.dialect), bootSettings(config));
  await settings.load(log);
  const history = new DownloadHistory(new HistoryRepository(handle.db, handle.dialect), transactor);
  const jobs = new JobQueue({
    concurrency: config.maxJobConcurrency,
    onTerminal: (job, ownerId, payload) => (job.source === DOWNLOAD ? history.record(job, ownerId, payload as DownloadPayload) : undefined),
  });
  const lib: Library = {
    db: handle.db,
    dialect: handle.dialect,
    transactor,
    bus,
    config,
    root,
    readonlySql: createReadonlyRunner({ kind: handle.kind, mainDsn: config.dbDsn, readonlyDsn: config.readonlyDsn, sqliteMain: handle.sqlite }),
    audit,
    settings,
    jobs,
    startedAt: new Date(),
  };
  // Retention of finished jobs and of the download history (companion §7.2, §7.3).
  // The implicit actor with auth off follows the oldest enabled administrator.
  accounts.users.watchAdmins(async () => {
    lib.root = await accounts.users.rootPrincipal();
  });
  const sweep = async () => {
    jobs.sweep();
    await accounts.auth.sweepExpiredSessions().catch((e: unknown) => console.error('session sweep failed:', e));
    await history.sweep(settings.millis('download_failed_retention'), settings.millis('download_history_retention')).catch((e: unknown) => console.error('history sweep failed:', e));
  };
  const sweeper = setInterval(() => void sweep(), 5 * 60_000);
  sweeper.unref();

  const app = await createHttpServer({
    headers: SECURITY_HEADERS,
    bodyLimit: config.jsonBodyLimit,
    timeouts: config.timeouts,
    logger: config.logRequests,
    onError: handleHtmlError,
  });
  // Every route declares its capability; the pipeline authenticates and enforces it (§10.8).
  recordAccess(app);
  installRequestPipeline(app, { enabled: config.auth.enabled, auth: accounts.auth, root: () => lib.root });

  const routes = libraryRegistry(app);
  const servers = registerFeatures(app, routes, lib, history, accounts, log);
  app.get('/v1/openapi.json', { config: { needs: 'read' } }, async () => describeApi(routes.openapi({ title: 'Stacks library API', version: '1' })));
  registerAssets(app);
  registerNotFound(app);

  let shareUrl: string | undefined;
  try {
    await servers.plugins.start();
    if (options.listen === false) await app.ready();
    else {
      await app.listen({ host: config.host, port: config.port });
      shareUrl = await servers.share.start();
    }
  } catch (e) {
    await servers.plugins.close();
    await app.close();
    await lib.readonlySql.close();
    await handle.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;

  return {
    app,
    lib,
    mrql: servers.mrql,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    shareUrl,
    async close() {
      clearInterval(sweeper);
      await servers.share.close();
      await servers.plugins.close();
      await app.close();
      await jobs.close();
      await lib.readonlySql.close();
      await handle.close();
      if (tempFiles) rmSync(tempFiles, { recursive: true, force: true });
    },
  };
}
