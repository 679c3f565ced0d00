// `stacks clips` as an operator runs it: key creation, start-up, flags and environment,
// restart, start-up sweep, graceful stop with a stalled download, and memory while streaming a
// 100 MiB upload (companion §1, §2.2.4, §6.6, §15.19).
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyCreate, peakRss, startProcess, streamUpload } from './process.js';

const root = mkdtempSync(join(tmpdir(), 'stacks-clips-proc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${++n}`);

const api = async (url: string, path: string, key?: string, init: RequestInit = {}) => {
  const r = await fetch(`${url}/api/v1${path}`, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) } });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
};

describe('stacks clips key create', () => {
  it('prints a new key once and stores it, with an optional scope by tag name', async () => {
    const dir = freshDir();
    const made = keyCreate(dir, ['--name', 'KA', '--role', 'admin']);
    expect(made.status).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(made.stderr).toContain('admin key 1');
    expect(readFileSync(join(dir, 'clips.db')).includes(Buffer.from(key))).toBe(false);

    expect(keyCreate(dir, ['--name', 'S', '--scope', 'work']).status).toBe(2);
    const svc = await startProcess(['--port', '0', '--data-dir', dir]);
    try {
      expect((await api(svc.url, '/tags', key, { method: 'POST', body: JSON.stringify({ name: 'work/client1' }) })).status).toBe(201);
      await svc.stop();
      const scoped = keyCreate(dir, ['--name', 'S', '--role', 'editor', '--scope', 'work/client1']);
      expect(scoped.status).toBe(0);
      const again = await startProcess(['--port', '0', '--data-dir', dir]);
      const keys = (await api(again.url, '/keys', key)).body as { name: string; scoped_tag_name: string; role: string }[];
      expect(keys.find((k) => k.name === 'S')).toMatchObject({ role: 'editor', scoped_tag_name: 'work/client1' });
      expect((await api(again.url, '/tags', scoped.stdout.trim())).body).toEqual([{ id: 2, name: 'work/client1', color: '#78716C', count: 0 }]);
      await again.stop();
    } finally {
      svc.child.kill();
    }
  });

  it('refuses a missing name or a bad role', () => {
    const dir = freshDir();
    const noName = keyCreate(dir, ['--role', 'admin']);
    expect([noName.status, noName.stderr]).toEqual([2, expect.stringContaining('--name is required')]);
    const badRole = keyCreate(dir, ['--name', 'x', '--role', 'owner']);
    expect(badRole.status).toBe(2);
    expect(badRole.stderr).toContain('-role');
  });
});

describe('stacks clips', () => {
  it('starts on the configured port and data directory from the environment and reports status', async () => {
    const dir = freshDir();
    const key = keyCreate(dir, ['--name', 'KA', '--role', 'admin']).stdout.trim();
    const port = await freePort();
    const svc = await startProcess([], { CLIP_API_PORT: String(port), CLIP_DATA_DIR: dir });
    try {
      expect(svc.url).toBe(`http://127.0.0.1:${port}`);
      expect((await api(svc.url, '/status')).body).toEqual({ running: true, port, bind_all: false, url: `http://127.0.0.1:${port}`, request_count: 0 });
      expect((await api(svc.url, '/clips', key)).status).toBe(200);
      expect(existsSync(join(dir, 'clips.db'))).toBe(true);
      expect(statSync(join(dir, 'blobs', 'sha256')).isDirectory()).toBe(true);
    } finally {
      expect(await svc.stop('SIGINT')).toBe(0);
    }
  });

  it('binds every interface with --network, still reporting a 127.0.0.1 URL', async () => {
    const svc = await startProcess(['--port', '0', '--network', '--data-dir', freshDir()]);
    try {
      const status = (await api(svc.url, '/status')).body as { bind_all: boolean; url: string; port: number };
      expect(status.bind_all).toBe(true);
      expect(status.url).toBe(`http://127.0.0.1:${status.port}`);
    } finally {
      await svc.stop();
    }
  });

  it('exits non-zero naming the port when it cannot listen', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    try {
      await expect(startProcess(['--port', String(port), '--data-dir', freshDir()])).rejects.toThrow(new RegExp(`exited 1: .*${port}`, 's'));
    } finally {
      blocker.close();
    }
  });

  it('keeps its data across a restart and creates no key by itself', async () => {
    const dir = freshDir();
    const first = await startProcess(['--port', '0', '--data-dir', dir]);
    expect((await api(first.url, '/clips', `svc_${'a'.repeat(48)}`)).status).toBe(401);
    await first.stop();
    expect(existsSync(join(dir, 'bootstrap_admin_key'))).toBe(false);
    const key = keyCreate(dir, ['--name', 'KA', '--role', 'admin']).stdout.trim();
    const second = await startProcess(['--port', '0', '--data-dir', dir]);
    const form = new FormData();
    form.append('file', new Blob(['kept across restarts'], { type: 'text/plain' }), 'kept.txt');
    expect((await api(second.url, '/clips', key, { method: 'POST', body: form })).status).toBe(201);
    await second.stop();
    const third = await startProcess(['--port', '0', '--data-dir', dir]);
    try {
      const list = (await api(third.url, '/clips', key)).body as { clips: { filename: string }[] };
      expect(list.clips.map((c) => c.filename)).toEqual(['kept.txt']);
      expect(((await api(third.url, '/keys', key)).body as unknown[]).length).toBe(1);
    } finally {
      await third.stop();
    }
  });

  it('writes a bootstrap admin key file (0600) only when asked and only on an empty key table', async () => {
    const dir = freshDir();
    const svc = await startProcess(['--port', '0', '--data-dir', dir], { CLIP_BOOTSTRAP_KEY: '1' });
    const file = join(dir, 'bootstrap_admin_key');
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      expect(svc.output()).not.toContain(key);
      expect((await api(svc.url, '/keys', key)).status).toBe(200);
    } finally {
      await svc.stop();
    }
    rmSync(file);
    const again = await startProcess(['--port', '0', '--data-dir', dir], { CLIP_BOOTSTRAP_KEY: '1' });
    await again.stop();
    expect(existsSync(file)).toBe(false);
  });

  it('sweeps stale temp files and old unreferenced blobs at start-up', async () => {
    const dir = freshDir();
    keyCreate(dir, ['--name', 'KA', '--role', 'admin']);
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'stale.part'), 'half an upload');
    const blob = (hash: string) => join(dir, 'blobs', 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);
    const old = 'a'.repeat(64);
    const young = 'b'.repeat(64);
    for (const h of [old, young]) {
      mkdirSync(join(blob(h), '..'), { recursive: true });
      writeFileSync(blob(h), h);
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(blob(old), twoHoursAgo, twoHoursAgo);
    const svc = await startProcess(['--port', '0', '--data-dir', dir]);
    await svc.stop();
    expect(existsSync(join(dir, 'tmp', 'stale.part'))).toBe(false);
    expect(existsSync(blob(old))).toBe(false);
    expect(existsSync(blob(young))).toBe(true);
  });

  it('stops on SIGTERM while a client stalls a download: refuses new connections and exits', async () => {
    const dir = freshDir();
    const key = keyCreate(dir, ['--name', 'KA', '--role', 'admin']).stdout.trim();
    const svc = await startProcess(['--port', '0', '--data-dir', dir]);
    const up = await streamUpload(svc.url, key, 32 * 1024 * 1024);
    expect(up.status).toBe(201);
    const id = (JSON.parse(up.body) as { id: number }).id;
    // Start a download and never read it: the server is stuck writing to a full socket.
    const stalled = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      const req = get(`${svc.url}/api/v1/clips/${id}/data`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
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
  });

  it('streams an upload of exactly 100 MiB within 150 MB of resident memory', async () => {
    const dir = freshDir();
    const key = keyCreate(dir, ['--name', 'KA', '--role', 'admin']).stdout.trim();
    const svc = await startProcess(['--port', '0', '--data-dir', dir]);
    try {
      const r = await streamUpload(svc.url, key, 104_857_600);
      expect(r.status).toBe(201);
      expect(JSON.parse(r.body)).toMatchObject({ size: 104_857_600, content_type: 'application/octet-stream' });
      const peak = peakRss(svc.child.pid!);
      console.log(`peak RSS of the clip service after a 100 MiB upload: ${(peak / 1048576).toFixed(1)} MiB`);
      expect(peak).toBeLessThan(150 * 1000 * 1000);
    } finally {
      await svc.stop();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
