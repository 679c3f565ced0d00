// Flags of `stacks library` (companion §1). Later issues add their flags here.
import { ConfigError, flag, parseFlags, type FlagValues } from '../core/config/flags.js';
import { parseAllowList, type AddressPolicy } from '../core/net/addresses.js';
import { parseDuration } from '../core/config/duration.js';

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
  'mrql-query-timeout': flag.duration('per-statement limit of MRQL queries (100ms–5m)', '10s', 'MRQL_QUERY_TIMEOUT'),
  'mrql-default-limit': flag.int('LIMIT applied to MRQL queries without one (1–100000)', 500, { env: 'MRQL_DEFAULT_LIMIT', min: 1 }),
  'mrql-page-query-budget': flag.int('distinct inline [mrql] queries one page render may run (0 = no limit)', 200, { env: 'MRQL_PAGE_QUERY_BUDGET', min: 0 }),
  'skip-fts': flag.bool('do not use full-text indexes; search and TEXT ~ fall back to LIKE matching', 'SKIP_FTS'),
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
  jsonBodyLimit: number;
  logRequests: boolean;
  /** Which addresses server-side fetches may reach. */
  fetchPolicy: AddressPolicy;
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
    fetchPolicy: { allowPrivate: f['allow-private-hosts'], allowed },
    remote: {
      connectTimeoutMs: f['remote-connect-timeout'],
      idleTimeoutMs: f['remote-idle-timeout'],
      overallTimeoutMs: f['remote-overall-timeout'],
    },
    mrql: mrqlSettings(f),
    fts: !f['skip-fts'],
    generation: generationSettings(env),
    templateSigningKey: env.TEMPLATE_SIGNING_KEY ?? '',
  };
}

export function parseLibraryArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const { values } = parseFlags(libraryFlags, argv, env);
  return { flags: values, config: toLibraryConfig(values, env) };
}
