// The `stacks` command as a user runs it: bad flags stop start-up with a message, and a real
// start answers HTTP and persists its database and file folder.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DB } from '../../helpers/library.js';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'stacks.mjs');

/** Starts `stacks library` with the arguments and resolves once it prints its URL. */
async function startCli(args: string[], cwd?: string) {
  const child = spawn('node', [BIN, 'library', '-quiet', '-bind-address=127.0.0.1:0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const stop = async (signal: NodeJS.Signals) => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  };
  return { url, stop };
}

// Child processes start slowly on a busy two-core machine; these tests check behaviour, not speed.
describe.skipIf(TEST_DB !== 'sqlite')('stacks command', { timeout: 180_000 }, () => {
  it('stops start-up on a bad flag or environment value with a clear message', () => {
    const flag = spawnSync('node', [BIN, 'library', '-db-type', 'ORACLE'], { encoding: 'utf8' });
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('invalid value "ORACLE" for flag -db-type');
    const env = spawnSync('node', [BIN, 'library'], { encoding: 'utf8', env: { ...process.env, MAX_DB_CONNECTIONS: 'many' } });
    expect(env.status).toBe(2);
    expect(env.stderr).toContain('environment variable MAX_DB_CONNECTIONS');
  });

  it('starts on the given address, creates the database and files folder, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stacks-cli-'));
    const server = await startCli([`-db-dsn=${join(dir, 'db', 'lib.db')}`, `-file-save-path=${join(dir, 'files')}`]);
    try {
      const r = await fetch(`${server.url}/v1/tags`);
      expect(r.status).toBe(200);
      expect(existsSync(join(dir, 'db', 'lib.db'))).toBe(true);
      expect(existsSync(join(dir, 'files'))).toBe(true);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(TEST_DB !== 'sqlite')('stacks library openapi', { timeout: 180_000 }, () => {
  it('prints the OpenAPI description without starting a server', () => {
    const r = spawnSync('node', [BIN, 'library', 'openapi'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/v1/tags');
  });
});

describe.skipIf(TEST_DB !== 'sqlite')('stacks library -ephemeral', { timeout: 180_000 }, () => {
  it('keeps nothing: no data folder is created and data is gone after a restart', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'stacks-eph-'));
    const start = () => startCli(['-ephemeral'], cwd);
    try {
      const first = await start();
      await fetch(`${first.url}/v1/tag`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Name":"fleeting"}' });
      expect(((await (await fetch(`${first.url}/v1/tags`)).json()) as unknown[]).length).toBe(1);
      await first.stop('SIGINT');
      const second = await start();
      expect(await (await fetch(`${second.url}/v1/tags`)).json()).toEqual([]);
      await second.stop('SIGINT');
      expect(existsSync(join(cwd, 'data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
