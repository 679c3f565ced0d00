// Starts a library service for a test file: SQLite in a temp folder by default, or a fresh
// PostgreSQL database when TEST_DB=postgres (created here, dropped on close). Under vitest the
// database starts as a copy of the run's migrated template (test/global-setup.ts).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLibraryArgs } from '../../src/library/config.js';
import { startLibrary, type RunningLibrary } from '../../src/library/main.js';
import { adminQuery, postgresUrl, runDatabasePrefix, TEMPLATE_ENV } from './test-databases.js';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestLibrary extends RunningLibrary {
  dir: string;
  /** fetch relative to the service URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** JSON request helper: sends a JSON body, returns status, headers and parsed body. */
  json<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: T }>;
  /** Form-encoded POST (pairs allow repeated keys). */
  form(path: string, pairs: [string, string | number][], headers?: Record<string, string>): Promise<Response>;
  /** Stops this server and starts another on the same database and files with other flags. */
  restart(extraArgs?: string[], options?: TestStartOptions): Promise<TestLibrary>;
}

export interface TestStartOptions {
  /** Receives the start-up log lines (default: discarded). */
  log?: (msg: string) => void;
  /** Start on a database without tables, so start-up runs every migration (not the template copy). */
  emptyDatabase?: boolean;
}

export interface DatabaseOptions {
  /** A database without tables even when the run has a migrated template. */
  empty?: boolean;
}

/**
 * A new PostgreSQL database (benchmarks use it for a library started as its own process): a copy
 * of the run's migrated template under vitest, else empty.
 */
export async function freshPostgresDsn(options: DatabaseOptions = {}): Promise<{ dsn: string; drop: () => Promise<void> }> {
  const prefix = process.env[TEMPLATE_ENV.runPrefix] ?? runDatabasePrefix();
  const name = `${prefix}${Math.floor(Math.random() * 1e9)}`;
  const template = options.empty ? undefined : process.env[TEMPLATE_ENV.postgres];
  await adminQuery(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl());
  url.pathname = `/${name}`;
  return {
    dsn: url.toString(),
    // Under vitest the global setup drops the run's databases at its end: a DROP DATABASE waits
    // for a checkpoint (seconds on a busy server), which would otherwise stall every test file.
    drop: process.env[TEMPLATE_ENV.runPrefix] ? async () => {} : () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** A SQLite file path in `dir`: a copy of the run's migrated template under vitest, else not yet created. */
export function freshSqliteFile(dir: string, options: DatabaseOptions = {}): string {
  const file = join(dir, 'library.db');
  const template = options.empty ? undefined : process.env[TEMPLATE_ENV.sqlite];
  if (template) copyFileSync(template, file);
  return file;
}

export async function startTestLibrary(extraArgs: string[] = [], options: TestStartOptions = {}): Promise<TestLibrary> {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-lib-test-'));
  let drop = async () => {};
  const dbArgs: string[] = [];
  const database = { empty: options.emptyDatabase };
  if (TEST_DB === 'postgres') {
    const fresh = await freshPostgresDsn(database);
    drop = fresh.drop;
    dbArgs.push('-db-type', 'POSTGRES', '-db-dsn', fresh.dsn);
  } else if (!extraArgs.includes('-db-dsn')) {
    dbArgs.push('-db-dsn', freshSqliteFile(dir, database));
  }
  try {
    return await launch(dir, dbArgs, extraArgs, options, drop);
  } catch (e) {
    await drop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function launch(dir: string, dbArgs: string[], extraArgs: string[], options: TestStartOptions, drop: () => Promise<void>): Promise<TestLibrary> {
  const args = ['-bind-address', '127.0.0.1:0', '-file-save-path', join(dir, 'files'), '-quiet', ...extraArgs, ...dbArgs];
  const { config } = parseLibraryArgs(args, {});
  const running = await startLibrary(config, { log: options.log ?? (() => undefined) });
  const lib: TestLibrary = {
    ...running,
    dir,
    fetch: (path, init) => fetch(running.url + path, { redirect: 'manual', ...init }),
    async json<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(running.url + path, {
        method,
        redirect: 'manual',
        headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, headers: res.headers, body: parsed as T };
    },
    form(path, pairs, headers = {}) {
      const body = new URLSearchParams(pairs.map(([k, v]) => [k, String(v)]));
      return fetch(running.url + path, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    },
    async restart(nextArgs: string[] = [], nextOptions: TestStartOptions = {}) {
      await running.close();
      return launch(dir, dbArgs, nextArgs, nextOptions, drop);
    },
    async close() {
      await running.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return lib;
}
