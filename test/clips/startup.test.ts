// Start-up duties run in-process: the sweep of stale temp files and orphan blobs (§2.2.4), the
// optional bootstrap admin key (§6.6), and an empty store refusing every request (T208).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseClipArgs } from '../../src/clips/config.js';
import { startClips } from '../../src/clips/main.js';

const root = mkdtempSync(join(tmpdir(), 'stacks-clips-start-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const start = (dir: string, args: string[] = []) => startClips(parseClipArgs(['--port', '0', '--data-dir', dir, '-quiet', ...args], {}).config, { log: () => undefined });

describe('start-up', () => {
  it('empties tmp/ and removes unreferenced blobs older than an hour, keeping young and referenced ones', async () => {
    const dir = join(root, 'sweep');
    const svc = await start(dir);
    const key = (await svc.services.keys.create({ name: 'KA', role: 'admin' })).key;
    const form = new FormData();
    form.append('file', new Blob(['referenced bytes']), 'ref.txt');
    await fetch(`${svc.url}/api/v1/clips`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const refHash = (await svc.ctx.db.selectFrom('clips').select('content_hash').executeTakeFirstOrThrow()).content_hash;
    await svc.close();

    const blob = (hash: string) => join(dir, 'blobs', 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);
    writeFileSync(join(dir, 'tmp', 'stale.part'), 'half an upload');
    const [old, young] = ['a'.repeat(64), 'b'.repeat(64)];
    for (const h of [old, young]) {
      mkdirSync(join(blob(h), '..'), { recursive: true });
      writeFileSync(blob(h), h);
    }
    const longAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(blob(old), longAgo, longAgo);
    utimesSync(blob(refHash), longAgo, longAgo);

    const again = await start(dir);
    await again.close();
    expect(existsSync(join(dir, 'tmp', 'stale.part'))).toBe(false);
    expect(existsSync(blob(old))).toBe(false);
    expect(existsSync(blob(young))).toBe(true);
    expect(existsSync(blob(refHash))).toBe(true);
  });

  it('names each referenced content whose blob is missing, once, and still starts', async () => {
    const dir = join(root, 'missing');
    const svc = await start(dir);
    const key = (await svc.services.keys.create({ name: 'KA', role: 'admin' })).key;
    for (const [text, name] of [['first', 'a.txt'], ['second', 'b.txt'], ['second', 'c.txt'], ['third', 'd.txt']]) {
      const form = new FormData();
      form.append('file', new Blob([text]), name);
      expect([200, 201]).toContain((await fetch(`${svc.url}/api/v1/clips`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form })).status);
    }
    const hashes = (await svc.ctx.db.selectFrom('clips').select('content_hash').distinct().orderBy('content_hash').execute()).map((r) => r.content_hash);
    await svc.close();
    expect(hashes).toHaveLength(3);
    const gone = hashes[1];
    rmSync(join(dir, 'blobs', 'sha256', gone.slice(0, 2), gone.slice(2, 4), gone));

    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const again = await start(dir);
      await again.close();
      const reports = errors.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith('clip content '));
      expect(reports).toEqual([`clip content ${gone} is missing from ${join(dir, 'blobs', 'sha256')}`]);
    } finally {
      errors.mockRestore();
    }
  });

  it('answers 401 to everything but status on a store without keys, and writes no key file by default', async () => {
    const dir = join(root, 'empty');
    const svc = await start(dir);
    try {
      expect((await fetch(`${svc.url}/api/v1/clips`, { headers: { authorization: `Bearer svc_${'1'.repeat(48)}` } })).status).toBe(401);
      expect((await fetch(`${svc.url}/api/v1/status`)).status).toBe(200);
      expect(existsSync(join(dir, 'bootstrap_admin_key'))).toBe(false);
    } finally {
      await svc.close();
    }
  });

  it('with the bootstrap switch, writes one admin key to a 0600 file when no key exists, and only then', async () => {
    const dir = join(root, 'bootstrap');
    const svc = await start(dir, ['--bootstrap-key']);
    const file = join(dir, 'bootstrap_admin_key');
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      const keys = await fetch(`${svc.url}/api/v1/keys`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await keys.json()) as { name: string; role: string }[]).map((k) => [k.name, k.role])).toEqual([['bootstrap', 'admin']]);
    } finally {
      await svc.close();
    }
    rmSync(file);
    await (await start(dir, ['--bootstrap-key'])).close();
    expect(existsSync(file)).toBe(false);
  });
});
