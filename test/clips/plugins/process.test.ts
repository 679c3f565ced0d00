// Plugins across process restarts (companion T211's restart step, T215): on_shutdown runs to
// its end before the process exits and its storage writes survive; app:startup reaches enabled
// plugins at the next start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyCreate, startProcess } from '../process.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-clip-plugins-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BYE = `Plugin = { name = "Bye", version = "1.0.0", events = {"app:startup", "app:shutdown"} }
storage.set("boots", tostring((tonumber(storage.get("boots")) or 0) + 1))
function on_startup() storage.set("startup_seen", "true") end
function on_shutdown()
  local t = utils.time()
  repeat until utils.time() >= t + 2
  storage.set("bye", "1")
end
`;

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, string> };
}

describe('plugins and the process lifecycle', () => {
  it('waits for on_shutdown before exiting, and sends app:startup at the next start (T211, T215)', { timeout: 90_000 }, async () => {
    const dataDir = join(dir, 'data');
    const key = keyCreate(dataDir, ['--name', 'KA', '--role', 'admin']).stdout.trim();
    const source = join(dir, 'bye.lua');
    writeFileSync(source, BYE);
    let svc = await startProcess(['--port', '0', '--data-dir', dataDir]);
    try {
      const installed = await api(svc.url, key, 'POST', '/plugins', { source });
      expect(installed.status).toBe(201);
      expect((await api(svc.url, key, 'GET', '/plugins/1/storage')).body).toEqual({ boots: '1' });
      const signalled = Date.now();
      const code = await svc.stop('SIGTERM');
      expect(code).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1000);
    } finally {
      svc.child.kill('SIGKILL');
    }
    svc = await startProcess(['--port', '0', '--data-dir', dataDir]);
    try {
      expect((await api(svc.url, key, 'GET', '/plugins/1/storage/bye')).body).toEqual({ key: 'bye', value: '1' });
      const deadline = Date.now() + 10_000;
      let s: Record<string, string> = {};
      while (Date.now() < deadline) {
        s = (await api(svc.url, key, 'GET', '/plugins/1/storage')).body;
        if (s.startup_seen) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(s).toMatchObject({ boots: '2', startup_seen: 'true' });
    } finally {
      svc.child.kill('SIGKILL');
    }
  });
});
