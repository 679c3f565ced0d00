// `stacks clips` as an operator runs it, as child processes: key creation, configuration from
// the environment and flags, restart, memory while streaming a 100 MiB upload, and a graceful
// stop while a client stalls a download (companion §1, §6.6, §15.19). Few processes, each
// doing a lot, because every start costs about a second.
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyCommand } from '../../src/clips/keys/cli.js';
import { keyCreate, peakRss, startProcess, streamUpload } from './process.js';

const root = mkdtempSync(join(tmpdir(), 'stacks-clips-proc-'));
afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5 }));

const api = async (url: string, path: string, key?: string, init: RequestInit = {}) => {
  const r = await fetch(`${url}/api/v1${path}`, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) } });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// Child processes start slowly on a busy two-core machine; these tests check behaviour, not speed.
describe('stacks clips', { timeout: 180_000 }, () => {
  it('makes keys, starts from the environment, survives a restart with flags, streams 100 MiB with under 64 MiB of memory growth and stops gracefully', async () => {
    const dir = join(root, 'main');
    // The first admin key, printed once, never stored in plaintext.
    const made = keyCreate(dir, ['--name', 'KA', '--role', 'admin']);
    expect(made.status).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(made.stderr).toContain('admin key 1');
    expect(readFileSync(join(dir, 'clips.db')).includes(Buffer.from(key))).toBe(false);

    await expect(keyCommand(['create', '--data-dir', dir, '--role', 'admin'])).rejects.toThrow('--name is required');
    await expect(keyCommand(['create', '--data-dir', dir, '--name', 'x', '--role', 'owner'])).rejects.toThrow('-role');
    await expect(keyCommand(['create', '--data-dir', dir, '--name', 'x', '--scope', 'nowhere'])).rejects.toThrow('--scope');
    await expect(keyCommand(['list'])).rejects.toThrow('unknown key command');

    // Started from the environment only.
    const port = await freePort();
    const first = await startProcess([], { CLIP_API_PORT: String(port), CLIP_DATA_DIR: dir });
    expect(first.url).toBe(`http://127.0.0.1:${port}`);
    expect((await api(first.url, '/status')).body).toEqual({ running: true, port, bind_all: false, url: `http://127.0.0.1:${port}`, request_count: 0 });
    const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect((await api(first.url, '/tags', key, json({ name: 'work/client1' }))).status).toBe(201);
    const form = new FormData();
    form.append('file', new Blob(['kept across restarts'], { type: 'text/plain' }), 'kept.txt');
    expect((await api(first.url, '/clips', key, { method: 'POST', body: form })).status).toBe(201);
    expect(await first.stop('SIGINT')).toBe(0);

    // --scope names a tag the stopped service made.
    const lines: string[] = [];
    await keyCommand(['create', '--data-dir', dir, '--name', 'S', '--role', 'editor', '--scope', 'work/client1'], (l) => lines.push(l));
    const scoped = lines[0];

    // Restarted with flags on every interface: data kept, no key added, no bootstrap file.
    const svc = await startProcess(['--port', '0', '--network', '--data-dir', dir]);
    try {
      const status = (await api(svc.url, '/status')).body as { bind_all: boolean; url: string; port: number };
      expect(status).toMatchObject({ bind_all: true, url: `http://127.0.0.1:${status.port}` });
      expect(((await api(svc.url, '/clips', key)).body as { clips: { filename: string }[] }).clips.map((c) => c.filename)).toEqual(['kept.txt']);
      expect(((await api(svc.url, '/keys', key)).body as unknown[]).length).toBe(2);
      expect((await api(svc.url, '/tags', scoped)).body).toEqual([{ id: 2, name: 'work/client1', color: '#78716C', count: 0 }]);
      expect(existsSync(join(dir, 'bootstrap_admin_key'))).toBe(false);
      expect(statSync(join(dir, 'blobs', 'sha256')).isDirectory()).toBe(true);

      // Exactly 100 MiB, streamed: accepted, and the process never held it in memory. The
      // growth of its peak RSS is what shows that (a buffered body adds at least 100 MiB); the
      // absolute figure moves with the size of the code the service loads.
      const before = peakRss(svc.child.pid!);
      const up = await streamUpload(svc.url, key, 104_857_600);
      expect(up.status).toBe(201);
      const clip = JSON.parse(up.body) as { id: number; size: number };
      expect(clip.size).toBe(104_857_600);
      const peak = peakRss(svc.child.pid!);
      const mib = (n: number) => (n / 1048576).toFixed(1);
      console.log(`peak RSS of the clip service: ${mib(before)} MiB before a 100 MiB upload, ${mib(peak)} MiB after (growth ${mib(peak - before)} MiB)`);
      expect(peak - before).toBeLessThan(64 * 1048576);

      // A download the client never reads keeps a response in flight; SIGTERM still ends the
      // process (the in-flight response gets the 5-second grace) and new connections are refused.
      const stalled = await new Promise<IncomingMessage>((resolve) => {
        const req = get(`${svc.url}/api/v1/clips/${clip.id}/data`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.pause();
          resolve(res);
        });
        req.on('error', () => undefined);
      });
      expect(stalled.statusCode).toBe(200);
      svc.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      await expect(fetch(`${svc.url}/api/v1/status`)).rejects.toThrow();
      expect(await svc.exited).toBe(0);
      stalled.destroy();
    } finally {
      svc.child.kill('SIGKILL');
    }
  });

  it('runs with 16 threads in libuv\'s pool (its uploads wait on fsyncs there) unless the environment sets the size', async () => {
    // The only difference between the two processes is the pool, which has started by the time
    // a service listens (its start-up reads files through it).
    const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;
    const sized = await startProcess(['--port', '0', '--data-dir', join(root, 'pool-default')], { UV_THREADPOOL_SIZE: undefined });
    const kept = await startProcess(['--port', '0', '--data-dir', join(root, 'pool-env')], { UV_THREADPOOL_SIZE: '4' });
    try {
      expect(threads(sized.child.pid!) - threads(kept.child.pid!)).toBe(16 - 4);
    } finally {
      sized.child.kill('SIGKILL');
      kept.child.kill('SIGKILL');
    }
  });

  it('exits non-zero naming the port when it cannot listen', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      await expect(startProcess(['--port', String(port), '--data-dir', join(root, 'busy')])).rejects.toThrow(new RegExp(`exited 1: .*${port}`, 's'));
    } finally {
      blocker.close();
    }
  });
});
