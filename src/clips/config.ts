// Flags of `stacks clips` (companion §1.1). Each flag is accepted as -flag and --flag and has an
// environment variable; the flag wins. Boolean variables are on only with the value 1.
import { ConfigError, flag, parseFlags, type FlagValues } from '../core/config/flags.js';

export const clipFlags = {
  'data-dir': flag.string('root of all persistent state (database, clip files)', './data/clips', { env: 'CLIP_DATA_DIR' }),
  port: flag.int('REST API port (0 picks a free port)', 8484, { env: 'CLIP_API_PORT', min: 0 }),
  network: flag.bool('listen on 0.0.0.0 instead of 127.0.0.1', 'CLIP_API_BIND_ALL'),
  'cleanup-interval-ms': flag.int('period of the cleanup job (expired clips, revoked keys)', 60_000, { env: 'CLIP_CLEANUP_INTERVAL_MS', min: 1 }),
  'orphan-grace-ms': flag.int('age before a blob no clip references (or a stale upload part) is removed by reconciliation', 3_600_000, { env: 'CLIP_ORPHAN_GRACE_MS', min: 0 }),
  'watch-debounce-ms': flag.int('quiet time after the last change of a watched file before it is imported', 500, { env: 'CLIP_WATCH_DEBOUNCE_MS', min: 1 }),
  'watch-recheck-ms': flag.int('how often watch folders missing on disk are looked for again', 60_000, { env: 'CLIP_WATCH_RECHECK_MS', min: 1 }),
  'max-restore-size': flag.int('largest backup archive POST /backup/restore accepts, in bytes', 8 * 1024 ** 3, { env: 'CLIP_MAX_RESTORE_SIZE', min: 1 }),
  'plugin-handler-timeout-ms': flag.int('time limit of a plugin event handler, scheduled call or load', 30_000, { env: 'CLIP_PLUGIN_HANDLER_TIMEOUT_MS', min: 1 }),
  'plugin-action-timeout-ms': flag.int('time limit of a plugin UI action', 300_000, { env: 'CLIP_PLUGIN_ACTION_TIMEOUT_MS', min: 1 }),
  'allow-private-hosts': flag.bool('let plugin HTTP calls and clips.create_from_url reach private and loopback addresses', 'CLIP_ALLOW_PRIVATE_HOSTS'),
  'bootstrap-key': flag.bool('create a first admin key into <data-dir>/bootstrap_admin_key when no key exists', 'CLIP_BOOTSTRAP_KEY'),
  quiet: flag.bool('do not log each request', 'QUIET'),
  help: flag.bool('print the flags and exit'),
};

export const keyCreateFlags = {
  'data-dir': clipFlags['data-dir'],
  name: flag.string('label of the key'),
  role: flag.string('viewer, editor or admin', 'viewer', { choices: ['viewer', 'editor', 'admin'] }),
  scope: flag.string('tag name (or id) the key is confined to, with its subtags'),
  help: flag.bool('print the flags and exit'),
};

export type ClipFlags = FlagValues<typeof clipFlags>;

export interface ClipConfig {
  dataDir: string;
  host: string;
  port: number;
  bindAll: boolean;
  cleanupIntervalMs: number;
  /** Reconciliation's grace period for unreferenced blobs and upload parts (docs/storage.md). */
  orphanGraceMs: number;
  watchDebounceMs: number;
  watchRecheckMs: number;
  maxRestoreBytes: number;
  bootstrapKey: boolean;
  logRequests: boolean;
  pluginHandlerTimeoutMs: number;
  pluginActionTimeoutMs: number;
  /** Plugin fetches (install, update, http, create_from_url) may reach private addresses. */
  allowPrivateHosts: boolean;
}

export function toClipConfig(f: ClipFlags): ClipConfig {
  if (f.port > 65535) throw new ConfigError(`invalid port ${f.port}: expected 0-65535`);
  if (f['data-dir'].trim() === '') throw new ConfigError('the data directory is empty');
  return {
    dataDir: f['data-dir'],
    host: f.network ? '0.0.0.0' : '127.0.0.1',
    port: f.port,
    bindAll: f.network,
    cleanupIntervalMs: f['cleanup-interval-ms'],
    orphanGraceMs: f['orphan-grace-ms'],
    watchDebounceMs: f['watch-debounce-ms'],
    watchRecheckMs: f['watch-recheck-ms'],
    maxRestoreBytes: f['max-restore-size'],
    bootstrapKey: f['bootstrap-key'],
    logRequests: !f.quiet,
    pluginHandlerTimeoutMs: f['plugin-handler-timeout-ms'],
    pluginActionTimeoutMs: f['plugin-action-timeout-ms'],
    allowPrivateHosts: f['allow-private-hosts'],
  };
}

export function parseClipArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const { values, positionals } = parseFlags(clipFlags, argv, env);
  return { flags: values, positionals, config: toClipConfig(values) };
}
