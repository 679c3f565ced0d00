// Starts a library service for a test file: SQLite in a temp folder by default, or a fresh
// PostgreSQL database when TEST_DB=postgres (created here, dropped on close).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parseLibraryArgs } from '../../src/library/config.js';
import { startLibrary, type RunningLibrary } from '../../src/library/main.js';

export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

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
}

/** A new, empty PostgreSQL database (benchmarks use it for a library started as its own process). */
export async function freshPostgresDsn(): Promise<{ dsn: string; drop: () => Promise<void> }> {
  const name = `stacks_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    dsn: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startTestLibrary(extraArgs: string[] = [], options: TestStartOptions = {}): Promise<TestLibrary> {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-lib-test-'));
  let drop = async () => {};
  const dbArgs: string[] = [];
  if (TEST_DB === 'postgres') {
    const fresh = await freshPostgresDsn();
    drop = fresh.drop;
    dbArgs.push('-db-type', 'POSTGRES', '-db-dsn', fresh.dsn);
  } else if (!extraArgs.includes('-db-dsn')) {
    dbArgs.push('-db-dsn', join(dir, 'library.db'));
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
