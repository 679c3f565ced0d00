// Flags of `stacks library` (companion §1). Later issues add their flags here.
import { ConfigError, flag, parseFlags, type FlagValues } from '../core/config/flags.js';
import { parseAllowList, type AddressPolicy } from '../core/net/addresses.js';
import { parseDuration } from '../core/config/duration.js';
import { passwordProblem } from './auth/passwords.js';

export const libraryFlags = {
  'bind-address': flag.string('listen address host:port (":8181" listens on every interface)', ':8181', { env: 'BIND_ADDRESS' }),
  'db-type': flag.string('database engine', 'SQLITE', { env: 'DB_TYPE', choices: ['SQLITE', 'POSTGRES'] }),
  'db-dsn': flag.string('SQLite file path, or PostgreSQL key/value string or postgres:// URL', './data/library.db', { env: 'DB_DSN' }),
  'db-readonly-dsn': flag.string('second connection used to run saved SQL queries read-only', '', { env: 'DB_READONLY_DSN' }),
  'max-db-connections': flag.int('upper bound of the connection pool (0 = driver default)', 0, { env: 'MAX_DB_CONNECTIONS', min: 0 }),
  'file-save-path': flag.string('root folder of stored files', './data/files', { env: 'FILE_SAVE_PATH' }),
  'memory-db': flag.bool('use a throw-away SQLite database', 'MEMORY_DB'),
  ephemeral: flag.bool('in-memory database and temporary files; nothing persists', 'EPHEMERAL'),
  'cleanup-logs-days': flag.int('at start, delete audit-log rows older than N days (0 = off)', 0, { env: 'CLEANUP_LOGS_DAYS', min: 0 }),
  'share-port': flag.string('port of the public note share server (empty = sharing off)', '', { env: 'SHARE_PORT' }),
  'share-bind-address': flag.string('interface of the share server', '0.0.0.0', { env: 'SHARE_BIND_ADDRESS' }),
  'max-json-body': flag.int('body limit in bytes for application/json requests (0 = 64 MiB)', 0, { env: 'MAX_JSON_BODY', min: 0 }),
  'allow-private-hosts': flag.bool('let server-side fetches (URL import, downloads, calendar feeds) reach private and loopback addresses', 'ALLOW_PRIVATE_HOSTS'),
  'allow-private-fetch': flag.list('comma-separated IPs or CIDR blocks that server-side fetches may reach although private', 'ALLOW_PRIVATE_FETCH'),
  'remote-connect-timeout': flag.duration('dial and response-header timeout of server-side fetches', '30s', 'REMOTE_CONNECT_TIMEOUT'),
  'remote-idle-timeout': flag.duration('abort a server-side fetch when no bytes arrive for this long', '60s', 'REMOTE_IDLE_TIMEOUT'),
  'remote-overall-timeout': flag.duration('whole-download limit of server-side fetches', '30m', 'REMOTE_OVERALL_TIMEOUT'),
  'max-job-concurrency': flag.int('worker slots shared by downloads, exports, imports and similarity recomputes', 6, { env: 'MAX_JOB_CONCURRENCY', min: 1 }),
  'download-failed-retention': flag.duration('how long failed and cancelled downloads stay in the history', '168h', 'DOWNLOAD_FAILED_RETENTION'),
  'download-history-retention': flag.duration('how long completed downloads stay in the history', '24h', 'DOWNLOAD_HISTORY_RETENTION'),
  'download-cockpit-limit': flag.int('finished downloads the jobs panel shows', 10, { env: 'DOWNLOAD_COCKPIT_LIMIT', min: 1 }),
  'export-retention': flag.duration('how long a finished export archive stays downloadable', '24h', 'EXPORT_RETENTION'),
  'max-import-size': flag.int('body limit in bytes for group import archives', 10737418240, { env: 'MAX_IMPORT_SIZE', min: 1 }),
  'share-public-url': flag.string('absolute http(s) base of share links shown in pages (empty = relative /s/<token>)', '', { env: 'SHARE_PUBLIC_URL' }),
  'docs-site-base-url': flag.string('base of the contextual documentation links', 'https://stacks.example/docs', { env: 'DOCS_SITE_BASE_URL' }),
  'docs-links-disabled': flag.bool('hide every contextual documentation link', 'DOCS_LINKS_DISABLED'),
  'mass-edit-filter-limit': flag.int('most entities one filter-targeted mass edit may change', 10000, { env: 'MASS_EDIT_FILTER_LIMIT', min: 1 }),
  'orphan-grace': flag.duration('age before a stored file no row references (or a stale upload part) is removed by reconciliation', '1h', 'ORPHAN_GRACE'),
  'reconcile-interval': flag.duration('time between reconciliations of stored files with rows (0 = only at start)', '1h', 'RECONCILE_INTERVAL'),
  'alt-fs': flag.list('additional named filesystem key:path (repeatable); env form FILE_ALT_COUNT, FILE_ALT_NAME_N, FILE_ALT_PATH_N'),
  'max-upload-size': flag.int('body limit in bytes for resource uploads, version uploads and custom thumbnails (0 = unlimited)', 2_147_483_648, { env: 'MAX_UPLOAD_SIZE', min: 0 }),
  'ffmpeg-path': flag.string('ffmpeg for video thumbnails and trim (empty = look on PATH)', '', { env: 'FFMPEG_PATH' }),
  'video-thumb-timeout': flag.duration('limit for one ffmpeg frame extraction', '30s', 'VIDEO_THUMB_TIMEOUT'),
  'video-thumb-lock-timeout': flag.duration('how long a request waits for the per-resource thumbnail lock', '60s', 'VIDEO_THUMB_LOCK_TIMEOUT'),
  'video-thumb-concurrency': flag.int('maximum simultaneous ffmpeg extractions', 4, { env: 'VIDEO_THUMB_CONCURRENCY', min: 1 }),
  'thumb-worker-count': flag.int('background video-thumbnail workers', 2, { env: 'THUMB_WORKER_COUNT', min: 1 }),
  'thumb-worker-disabled': flag.bool('turn the background video-thumbnail worker off (thumbnails are still made on demand)', 'THUMB_WORKER_DISABLED'),
  'thumb-batch-size': flag.int('videos per thumbnail backfill cycle', 10, { env: 'THUMB_BATCH_SIZE', min: 1 }),
  'thumb-poll-interval': flag.duration('time between thumbnail backfill cycles', '1m', 'THUMB_POLL_INTERVAL'),
  'thumb-backfill': flag.bool('also pre-generate thumbnails of existing videos that have none', 'THUMB_BACKFILL'),
  'hash-worker-count': flag.int('parallel perceptual-hashing workers within a batch', 4, { env: 'HASH_WORKER_COUNT', min: 1 }),
  'hash-batch-size': flag.int('resources per hashing cycle', 500, { env: 'HASH_BATCH_SIZE', min: 1 }),
  'hash-poll-interval': flag.duration('time between hashing cycles (the first runs 10 s after start)', '1m', 'HASH_POLL_INTERVAL'),
  'hash-similarity-threshold': flag.int('maximum perceptual distance for two images to count as similar (0-11)', 10, { env: 'HASH_SIMILARITY_THRESHOLD', min: 0 }),
  'hash-ahash-threshold': flag.int('maximum average-hash distance of a similar pair (0 disables the check, max 64)', 5, { env: 'HASH_AHASH_THRESHOLD', min: 0 }),
  'hash-worker-disabled': flag.bool('no background perceptual hashing at all', 'HASH_WORKER_DISABLED'),
  'hash-cache-size': flag.int('entries of the in-memory hash cache', 100_000, { env: 'HASH_CACHE_SIZE', min: 0 }),
  'mrql-query-timeout': flag.duration('per-statement limit of MRQL queries (100ms–5m)', '10s', 'MRQL_QUERY_TIMEOUT'),
  'mrql-default-limit': flag.int('LIMIT applied to MRQL queries without one (1–100000)', 500, { env: 'MRQL_DEFAULT_LIMIT', min: 1 }),
  'mrql-page-query-budget': flag.int('distinct inline [mrql] queries one page render may run (0 = no limit)', 200, { env: 'MRQL_PAGE_QUERY_BUDGET', min: 0 }),
  'skip-fts': flag.bool('do not use full-text indexes; search and TEXT ~ fall back to LIKE matching', 'SKIP_FTS'),
  auth: flag.bool('turn on accounts, roles, sessions, API tokens and CSRF protection', 'AUTH_ENABLED'),
  'session-ttl': flag.duration('lifetime of a login session, fixed from login', '720h', 'SESSION_TTL'),
  'session-cookie-secure': flag.bool('mark the session cookie Secure (serve over HTTPS)', 'SESSION_COOKIE_SECURE'),
  'create-admin-user': flag.string('at every start, create this account as an enabled admin or reset it to one', '', { env: 'CREATE_ADMIN_USER' }),
  'create-admin-password': flag.string('password of -create-admin-user (required with it)', '', { env: 'CREATE_ADMIN_PASSWORD' }),
  'login-max-attempts': flag.int('failed logins allowed per IP and per username within the window before 429 (0 = off)', 0, { env: 'LOGIN_MAX_ATTEMPTS', min: 0 }),
  'login-attempt-window': flag.duration('sliding window of the login limit; also the effective lockout', '15m', 'LOGIN_ATTEMPT_WINDOW'),
  'trust-proxy-headers': flag.bool('take the client IP for login throttling from X-Forwarded-For (only behind a trusted proxy)', 'TRUST_PROXY_HEADERS'),
  'max-user-tokens': flag.int('API tokens one account may hold (0 = no cap)', 100, { env: 'MAX_USER_TOKENS', min: 0 }),
  'plugin-path': flag.string('directory whose sub-directories each hold a Lua plugin (plugin.lua)', './plugins', { env: 'PLUGIN_PATH' }),
  'plugins-disabled': flag.bool('turn the plugin system off: no discovery, no plugin VMs', 'PLUGINS_DISABLED'),
  'plugin-schedule-tick': flag.duration('how often the plugin scheduler looks for due schedules and scheduled downloads', '30s', 'PLUGIN_SCHEDULE_TICK'),
  'max-action-entities': flag.int('entities one plugin-action run may name (0 = 1000)', 0, { env: 'MAX_ACTION_ENTITIES', min: 0 }),
  'plugin-memory-limit': flag.int('memory cap of each plugin VM in bytes (0 = 256 MiB)', 0, { env: 'PLUGIN_MEMORY_LIMIT', min: 0 }),
  quiet: flag.bool('do not log requests', 'QUIET'),
  help: flag.bool('print the flags and exit'),
};

export type LibraryFlags = FlagValues<typeof libraryFlags>;

export interface LibraryConfig {
  host: string;
  port: number;
  dbKind: 'sqlite' | 'postgres';
  dbDsn: string;
  readonlyDsn: string;
  maxDbConnections: number;
  filePath: string;
  ephemeral: boolean;
  cleanupLogsDays: number;
  sharePort: number | null;
  shareHost: string;
  /** Absolute base of share links shown in the UI; '' shows the relative /s/<token> path. */
  jsonBodyLimit: number;
  logRequests: boolean;
  /** Which addresses server-side fetches may reach. */
  fetchPolicy: AddressPolicy;
  maxJobConcurrency: number;
  /** Boot values of the runtime-editable settings not held elsewhere here (ms for durations). */
  boot: {
    downloadFailedRetentionMs: number;
    downloadHistoryRetentionMs: number;
    downloadCockpitLimit: number;
    exportRetentionMs: number;
    maxImportSize: number;
    sharePublicUrl: string;
    docsSiteBaseUrl: string;
    docsLinksDisabled: boolean;
  };
  /** Ceiling of a filter-targeted mass edit. */
  massEditFilterLimit: number;
  /** File reconciliation (docs/storage.md): grace period and period, in milliseconds. */
  reconcile: { graceMs: number; intervalMs: number };
  /** Timeouts of server-side fetches, in milliseconds. */
  remote: { connectTimeoutMs: number; idleTimeoutMs: number; overallTimeoutMs: number };
  /** MRQL boot settings (companion §1.8.2, mrql.md §13). */
  mrql: { timeoutMs: number; defaultLimit: number; pageQueryBudget: number };
  /** Full-text indexes are used unless -skip-fts. */
  fts: boolean;
  /** Language-model provider for MRQL generation (environment only); null when not configured. */
  generation: { apiKey: string; model: string; timeoutMs: number } | null;
  /** Secret of template tokens ([lazy], [details], [reload]); empty = random per start. */
  templateSigningKey: string;
  /** Named alternative filesystems: key → root folder (companion §1.3). */
  altFs: Record<string, string>;
  /** Per-request limit of resource, version and thumbnail uploads in bytes (0 = unlimited). */
  maxUploadSize: number;
  media: {
    ffmpegPath: string;
    videoThumbTimeoutMs: number;
    videoThumbLockTimeoutMs: number;
    videoThumbConcurrency: number;
    thumbWorkerCount: number;
    thumbWorkerDisabled: boolean;
    thumbBatchSize: number;
    thumbPollIntervalMs: number;
    thumbBackfill: boolean;
  };
  /** Accounts and login (companion §1.8.4). */
  auth: AuthConfig;
  /** The Lua plugin host (companion §1.8.3, library-plugins.md §2). */
  plugins: PluginConfig;
  hashing: {
    workerCount: number;
    batchSize: number;
    pollIntervalMs: number;
    similarityThreshold: number;
    ahashThreshold: number;
    disabled: boolean;
    cacheSize: number;
  };
}

export interface PluginConfig {
  /** Directory scanned for plugin sub-directories; null when the plugin system is off. */
  path: string | null;
  scheduleTickMs: number;
  maxActionEntities: number;
  memoryLimitBytes: number;
}

export interface AuthConfig {
  /** -auth: accounts, roles, sessions, tokens and CSRF; off, every request runs as the root admin. */
  enabled: boolean;
  sessionTtlMs: number;
  cookieSecure: boolean;
  /** -create-admin-user / -create-admin-password, applied at every start. */
  bootstrapAdmin: { username: string; password: string } | null;
  /** 0 = login rate limiting off. */
  loginMaxAttempts: number;
  loginWindowMs: number;
  trustProxyHeaders: boolean;
  /** 0 = no cap. */
  maxUserTokens: number;
}

function authSettings(f: LibraryFlags): AuthConfig {
  const username = f['create-admin-user'].trim();
  const password = f['create-admin-password'];
  if (username && !password) throw new ConfigError('-create-admin-user needs -create-admin-password (CREATE_ADMIN_PASSWORD)');
  if (!username && password) throw new ConfigError('-create-admin-password is set but -create-admin-user is not');
  if (username.length > 128) throw new ConfigError('invalid -create-admin-user: at most 128 characters');
  const problem = password ? passwordProblem(password) : null;
  if (problem) throw new ConfigError(`invalid -create-admin-password: ${problem}`);
  if (f['session-ttl'] <= 0) throw new ConfigError('invalid -session-ttl: must be positive');
  if (f['login-attempt-window'] <= 0) throw new ConfigError('invalid -login-attempt-window: must be positive');
  return {
    enabled: f.auth,
    sessionTtlMs: f['session-ttl'],
    cookieSecure: f['session-cookie-secure'],
    bootstrapAdmin: username ? { username, password } : null,
    loginMaxAttempts: f['login-max-attempts'],
    loginWindowMs: f['login-attempt-window'],
    trustProxyHeaders: f['trust-proxy-headers'],
    maxUserTokens: f['max-user-tokens'],
  };
}

/** Keys name URL prefixes (/<key>/…), so they are plain words that no route uses. */
const RESERVED_FS_KEYS = new Set(['v1', 'files', 'public', 'resource', 'resources', 'group', 'groups', 'note', 'notes', 'tag', 'tags', 'admin', 'plugins', 's']);

/** -alt-fs key:path entries, or the FILE_ALT_* environment form when no flag is given. */
export function parseAltFs(entries: string[], env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (key: string, path: string, where: string) => {
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new ConfigError(`invalid ${where}: the key "${key}" must be letters, digits, _ or -`);
    if (RESERVED_FS_KEYS.has(key.toLowerCase())) throw new ConfigError(`invalid ${where}: the key "${key}" is reserved`);
    if (path.trim() === '') throw new ConfigError(`invalid ${where}: the path is empty`);
    out[key] = path;
  };
  if (entries.length > 0) {
    for (const entry of entries) {
      const colon = entry.indexOf(':');
      if (colon < 0) throw new ConfigError(`invalid -alt-fs "${entry}": expected key:path`);
      if (colon === 0) throw new ConfigError(`invalid -alt-fs "${entry}": the key is empty (an empty key is the main filesystem)`);
      add(entry.slice(0, colon), entry.slice(colon + 1), `-alt-fs "${entry}"`);
    }
    return out;
  }
  const count = Number(env.FILE_ALT_COUNT ?? '0');
  if (!Number.isInteger(count) || count < 0) throw new ConfigError(`invalid FILE_ALT_COUNT "${env.FILE_ALT_COUNT}": expected a number`);
  for (let i = 1; i <= count; i++) {
    const name = (env[`FILE_ALT_NAME_${i}`] ?? '').trim();
    const path = (env[`FILE_ALT_PATH_${i}`] ?? '').trim();
    if (name === '' || path === '') continue;
    add(name, path, `FILE_ALT_NAME_${i}`);
  }
  return out;
}

/** Splits "host:port"; an empty host means every interface. */
export function parseBindAddress(text: string): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new ConfigError(`invalid -bind-address "${text}": expected host:port such as :8181 or 127.0.0.1:8181`);
  const host = m[1].replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? '0.0.0.0' : host, port };
}

function mrqlSettings(f: LibraryFlags): LibraryConfig['mrql'] {
  const timeoutMs = f['mrql-query-timeout'];
  if (timeoutMs < 100 || timeoutMs > 300_000) throw new ConfigError('invalid -mrql-query-timeout: must be between 100ms and 5m');
  if (f['mrql-default-limit'] > 100_000) throw new ConfigError('invalid -mrql-default-limit: must be between 1 and 100000');
  if (f['mrql-page-query-budget'] > 100_000) throw new ConfigError('invalid -mrql-page-query-budget: must be between 0 and 100000');
  return { timeoutMs, defaultLimit: f['mrql-default-limit'], pageQueryBudget: f['mrql-page-query-budget'] };
}

function generationSettings(env: NodeJS.ProcessEnv): LibraryConfig['generation'] {
  let timeoutMs = 20_000;
  if (env.DEEPSEEK_TIMEOUT) {
    try {
      timeoutMs = parseDuration(env.DEEPSEEK_TIMEOUT);
    } catch (e) {
      throw new ConfigError(`invalid DEEPSEEK_TIMEOUT "${env.DEEPSEEK_TIMEOUT}": ${(e as Error).message}`);
    }
  }
  const apiKey = (env.DEEPSEEK_API_KEY ?? '').trim();
  return apiKey ? { apiKey, model: env.DEEPSEEK_MODEL || 'deepseek-v4-pro', timeoutMs } : null;
}

export function toLibraryConfig(f: LibraryFlags, env: NodeJS.ProcessEnv = process.env): LibraryConfig {
  const { host, port } = parseBindAddress(f['bind-address']);
  const memoryDb = f['memory-db'] || f.ephemeral;
  const sharePort = f['share-port'] === '' ? null : Number(f['share-port']);
  if (sharePort !== null && (!Number.isInteger(sharePort) || sharePort < 0 || sharePort > 65535)) {
    throw new ConfigError(`invalid -share-port "${f['share-port']}": expected a port number`);
  }
  if (memoryDb && f['db-type'] === 'POSTGRES' && f['db-dsn'] !== libraryFlags['db-dsn'].default) {
    throw new ConfigError('-memory-db/-ephemeral use a throw-away SQLite database and cannot be combined with -db-type POSTGRES');
  }
  if (!memoryDb && f['db-type'] === 'POSTGRES' && f['db-dsn'] === libraryFlags['db-dsn'].default) {
    throw new ConfigError('-db-dsn is required with -db-type POSTGRES (e.g. "host=127.0.0.1 user=postgres dbname=stacks")');
  }
  if (!f.ephemeral && f['file-save-path'].trim() === '') {
    throw new ConfigError('file save path is empty (use -ephemeral for a throw-away library)');
  }
  let allowed;
  try {
    allowed = parseAllowList(f['allow-private-fetch'].flatMap((v) => v.split(',')));
  } catch (e) {
    throw new ConfigError(`invalid -allow-private-fetch: ${(e as Error).message}`);
  }
  return {
    host,
    port,
    dbKind: memoryDb ? 'sqlite' : f['db-type'] === 'POSTGRES' ? 'postgres' : 'sqlite',
    dbDsn: memoryDb ? ':memory:' : f['db-dsn'],
    readonlyDsn: f['db-readonly-dsn'],
    maxDbConnections: f['max-db-connections'],
    filePath: f['file-save-path'],
    ephemeral: f.ephemeral,
    cleanupLogsDays: f['cleanup-logs-days'],
    sharePort,
    shareHost: f['share-bind-address'],
    jsonBodyLimit: f['max-json-body'] || 64 * 1024 * 1024,
    logRequests: !f.quiet,
    massEditFilterLimit: f['mass-edit-filter-limit'],
    reconcile: { graceMs: f['orphan-grace'], intervalMs: f['reconcile-interval'] },
    maxJobConcurrency: f['max-job-concurrency'],
    boot: {
      downloadFailedRetentionMs: f['download-failed-retention'],
      downloadHistoryRetentionMs: f['download-history-retention'],
      downloadCockpitLimit: f['download-cockpit-limit'],
      exportRetentionMs: f['export-retention'],
      maxImportSize: f['max-import-size'],
      sharePublicUrl: f['share-public-url'],
      docsSiteBaseUrl: f['docs-site-base-url'],
      docsLinksDisabled: f['docs-links-disabled'],
    },
    fetchPolicy: { allowPrivate: f['allow-private-hosts'], allowed },
    remote: {
      connectTimeoutMs: f['remote-connect-timeout'],
      idleTimeoutMs: f['remote-idle-timeout'],
      overallTimeoutMs: f['remote-overall-timeout'],
    },
    altFs: parseAltFs(f['alt-fs'], env),
    maxUploadSize: f['max-upload-size'],
    media: {
      ffmpegPath: f['ffmpeg-path'],
      videoThumbTimeoutMs: f['video-thumb-timeout'],
      videoThumbLockTimeoutMs: f['video-thumb-lock-timeout'],
      videoThumbConcurrency: f['video-thumb-concurrency'],
      thumbWorkerCount: f['thumb-worker-count'],
      thumbWorkerDisabled: f['thumb-worker-disabled'],
      thumbBatchSize: f['thumb-batch-size'],
      thumbPollIntervalMs: f['thumb-poll-interval'],
      thumbBackfill: f['thumb-backfill'],
    },
    hashing: {
      workerCount: f['hash-worker-count'],
      batchSize: f['hash-batch-size'],
      pollIntervalMs: f['hash-poll-interval'],
      similarityThreshold: boundedFlag(f['hash-similarity-threshold'], 0, 11, '-hash-similarity-threshold'),
      ahashThreshold: boundedFlag(f['hash-ahash-threshold'], 0, 64, '-hash-ahash-threshold'),
      disabled: f['hash-worker-disabled'],
      cacheSize: f['hash-cache-size'],
    },
    mrql: mrqlSettings(f),
    auth: authSettings(f),
    plugins: {
      path: f['plugins-disabled'] ? null : f['plugin-path'],
      scheduleTickMs: f['plugin-schedule-tick'],
      maxActionEntities: f['max-action-entities'] || 1000,
      memoryLimitBytes: f['plugin-memory-limit'] || 256 * 1024 * 1024,
    },
    fts: !f['skip-fts'],
    generation: generationSettings(env),
    templateSigningKey: env.TEMPLATE_SIGNING_KEY ?? '',
  };
}

function boundedFlag(value: number, min: number, max: number, name: string): number {
  if (value < min || value > max) throw new ConfigError(`value ${value} for ${name} is out of range (${min}-${max})`);
  return value;
}

export function parseLibraryArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const { values } = parseFlags(libraryFlags, argv, env);
  return { flags: values, config: toLibraryConfig(values, env) };
}
