// Starts a clip service for a test file on a free loopback port with a temp data directory and
// a manual clock, and offers request helpers plus the spec's fixture F (companion §15.1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/clips/clock.js';
import { parseClipArgs } from '../../src/clips/config.js';
import { startClips, type RunningClips } from '../../src/clips/main.js';
import type { Role } from '../../src/clips/http/principal.js';

export const API = '/api/v1';

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Part {
  name?: string;
  filename?: string;
  /** Part Content-Type header; omitted when undefined. */
  type?: string;
  data: string | Buffer;
}

/** A multipart/form-data body built by hand, so tests control every part header. */
export function multipart(parts: Part[], boundary = `----stacks${Math.random().toString(16).slice(2)}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name ?? 'file'}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A small PNG-signature blob, distinct per `seed`. */
export function png(seed = 'x'): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`IHDR-${seed}`)]);
}

export interface TestClips {
  svc: RunningClips;
  url: string;
  dir: string;
  dataDir: string;
  clock: ManualClock;
  /** An unscoped admin key made like `stacks clips key create`. */
  admin: string;
  req<T = unknown>(key: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  /** Sends a raw body (no JSON encoding). */
  raw(key: string | null, method: string, path: string, body?: string | Buffer, headers?: Record<string, string>): Promise<Reply>;
  upload<T = ClipJson>(key: string, part: Part, query?: string): Promise<Reply<T>>;
  key(name: string, role: Role, scopedTagId?: number): Promise<string>;
  close(): Promise<void>;
}

export interface ClipJson {
  id: number;
  filename: string;
  content_type: string;
  size: number;
  is_archived: boolean;
  created_at: string;
  tags: { id: number; name: string; color: string; count: number }[];
}

async function toReply<T>(res: Response): Promise<Reply<T>> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/**
 * `clipboardEnv` is what the clipboard backend is chosen from: by default PATH only (no
 * display), so clipboard requests answer 501 whatever the machine running the tests has.
 */
export async function startTestClips(args: string[] = [], env: NodeJS.ProcessEnv = {}, clipboardEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH }): Promise<TestClips> {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-clips-test-'));
  const dataDir = join(dir, 'data');
  const { config } = parseClipArgs(['--port', '0', '--data-dir', dataDir, '-quiet', ...args], env);
  const clock = new ManualClock();
  const svc = await startClips(config, { clock, log: () => undefined, env: clipboardEnv });
  const auth = (key: string | null): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  const t: TestClips = {
    svc,
    url: svc.url,
    dir,
    dataDir,
    clock,
    admin: '',
    async req<T>(key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(svc.url + API + path, {
        method,
        headers: { ...auth(key), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      return toReply<T>(res);
    },
    async raw(key, method, path, body, headers = {}) {
      const res = await fetch(svc.url + API + path, { method, headers: { ...auth(key), ...headers }, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
      return toReply(res);
    },
    async upload<T>(key: string, part: Part, query = '') {
      const { body, contentType } = multipart([part]);
      const res = await fetch(`${svc.url}${API}/clips${query}`, { method: 'POST', headers: { ...auth(key), 'content-type': contentType }, body: new Uint8Array(body) });
      return toReply<T>(res);
    },
    async key(name, role, scopedTagId) {
      return (await svc.services.keys.create({ name, role, scoped_tag_id: scopedTagId })).key;
    },
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  t.admin = await t.key('KA', 'admin');
  return t;
}

export interface FixtureF {
  KA: string;
  KE: string;
  KV: string;
  /** editor scoped to work/client1 (tag 2) */
  KSE: string;
  /** admin scoped to work (tag 1) */
  KSA: string;
  /** viewer scoped to personal (tag 4) */
  KSV: string;
  pngBytes: Buffer;
}

/**
 * Fixture F on a fresh service: tags work (1), work/client1 (2), work/client2 (3), personal (4);
 * keys KA…KSV (ids 1–6); clips C1 notes.txt tagged 2, C2 shot.png tagged 4, C3 report.pdf archived.
 */
export async function fixtureF(t: TestClips): Promise<FixtureF> {
  const KA = t.admin;
  for (const name of ['work/client1', 'work/client2', 'personal']) {
    const r = await t.req(KA, 'POST', '/tags', { name });
    if (r.status !== 201) throw new Error(`fixture tag ${name}: ${r.status} ${r.text}`);
  }
  const KE = await t.key('KE', 'editor');
  const KV = await t.key('KV', 'viewer');
  const KSE = await t.key('KSE', 'editor', 2);
  const KSA = await t.key('KSA', 'admin', 1);
  const KSV = await t.key('KSV', 'viewer', 4);
  const pngBytes = png('fixture');
  const c1 = await t.upload(KE, { filename: 'notes.txt', type: 'text/plain', data: 'hello world' });
  await t.req(KE, 'PUT', `/clips/${c1.body.id}/tags/2`);
  const c2 = await t.upload(KE, { filename: 'shot.png', type: 'image/png', data: pngBytes });
  await t.req(KE, 'PUT', `/clips/${c2.body.id}/tags/4`);
  const c3 = await t.upload(KE, { filename: 'report.pdf', type: 'application/pdf', data: '%PDF-1.4\n%test\n' });
  await t.req(KE, 'PUT', `/clips/${c3.body.id}/archive`);
  if (c1.body.id !== 1 || c2.body.id !== 2 || c3.body.id !== 3) throw new Error('fixture F expects a fresh service');
  return { KA, KE, KV, KSE, KSA, KSV, pngBytes };
}

export const ids = (r: Reply<{ clips: { id: number }[] }>) => r.body.clips.map((c) => c.id);

/** Polls `probe` until it returns a truthy value (returned) or `timeoutMs` passes (throws). */
export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
