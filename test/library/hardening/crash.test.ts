// Issue 12: kill -9 of the server at random points of uploads and version uploads (library)
// and clip uploads (clip service), and of group imports during parse and apply (library), then
// a restart and an integrity check: every acknowledged write is present with the same bytes
// (hash), and after reconciliation no stored file is left that no row references. Seeded, with a
// bounded number of kills; prints the counts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../../../src/core/storage/reconcile.js';
import { freshPostgresDsn, freshSqliteFile, TEST_DB } from '../../helpers/library.js';
import { MANIFEST, rawTar, type RawEntry } from '../../helpers/transfer.js';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'stacks.cjs');
const SEED = Number(process.env.CRASH_SEED ?? 12);
const LIBRARY_KILLS = Number(process.env.CRASH_LIBRARY_KILLS ?? 6);
const CLIP_KILLS = Number(process.env.CRASH_CLIP_KILLS ?? 10);
// One round (a kill in the parse, one in the apply) by default keeps the file fast; the apply
// that lost its staged blob to a kill between placement and COMMIT is covered deterministically
// by test/library/imports/import-safety.test.ts. More rounds: CRASH_IMPORT_ROUNDS.
const IMPORT_ROUNDS = Number(process.env.CRASH_IMPORT_ROUNDS ?? 1);

/** mulberry32: a small seeded generator, so a failing run can be repeated with CRASH_SEED. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Child {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}

async function launch(args: string[]): Promise<Child> {
  const child = spawn('node', [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s,]+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`exited before listening: ${out}`)));
  });
  return { child, url, exited };
}

async function kill9(c: Child): Promise<void> {
  c.child.kill('SIGKILL');
  await c.exited;
}

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * 8 KiB – 3 MiB of random bytes: large enough that a kill often lands mid-stream, and about two
 * in three over 1 MiB, which the library reads directly and stages on its staging thread.
 */
const payload = (random: () => number) => randomBytes(8 * 1024 + Math.floor(random() * 3 * 1024 * 1024));

/**
 * POSTs `bytes` as one resource, sent in 64 KiB pieces spread over about `overMs`, so the round's
 * kill usually lands while the server is reading it (the direct reader and the staging thread
 * for a body over 1 MiB). The created row, or null when the upload got no 200.
 */
function pacedUpload(url: string, bytes: Buffer, filename: string, overMs: number): Promise<{ ID: number; Hash: string } | null> {
  const boundary = 'crash-paced-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="resource"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const piece = 64 * 1024;
  const pauseMs = Math.max(1, Math.floor(overMs / Math.ceil(body.length / piece)));
  return new Promise((resolve) => {
    const req = request(`${url}/v1/resource`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(res.statusCode === 200 ? (JSON.parse(Buffer.concat(chunks).toString()) as { ID: number; Hash: string }[])[0] : null));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    const send = (at: number) => {
      if (req.destroyed) return;
      if (at >= body.length) return void req.end();
      req.write(body.subarray(at, at + piece));
      setTimeout(() => send(at + piece), pauseMs);
    };
    send(0);
  });
}

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function libraryDbArgs(dir: string): Promise<string[]> {
  if (TEST_DB !== 'postgres') return ['-db-dsn', freshSqliteFile(dir)];
  const fresh = await freshPostgresDsn();
  cleanups.push(fresh.drop);
  return ['-db-type', 'POSTGRES', '-db-dsn', fresh.dsn];
}

describe('kill -9 at random points', () => {
  it('library: acknowledged uploads and versions survive, and reconciliation leaves no orphan', { timeout: 600_000 }, async () => {
    const random = rng(SEED);
    const dir = mkdtempSync(join(tmpdir(), 'stacks-crash-lib-'));
    dirs.push(dir);
    const base = ['library', '-quiet', '-bind-address=127.0.0.1:0', '-file-save-path', join(dir, 'files'), ...(await libraryDbArgs(dir))];
    let server = await launch(base);
    // Resource id → the hashes its current file may have: the acknowledged one, plus those of
    // version uploads killed before they answered (their COMMIT may or may not have happened).
    const acked = new Map<number, Set<string>>();
    const ackedVersions: { versionId: number; sha1: string }[] = [];
    let kills = 0;

    for (let round = 0; round < LIBRARY_KILLS; round++) {
      const url = server.url;
      // One small upload answered before the kill window opens: every round has writes that
      // must survive, however slowly the restarted server warms up.
      const warm = randomBytes(4096);
      const warmForm = new FormData();
      warmForm.append('resource', new Blob([new Uint8Array(warm)]), `warm${round}.bin`);
      const warmRes = await fetch(`${url}/v1/resource`, { method: 'POST', body: warmForm, headers: { accept: 'application/json' } });
      expect(warmRes.status).toBe(200);
      const [warmRow] = (await warmRes.json()) as { ID: number; Hash: string }[];
      acked.set(warmRow.ID, new Set([sha1(warm)]));
      const ops: Promise<void>[] = [];
      const targeted = new Set<number>();
      for (let i = 0; i < 4; i++) {
        const bytes = payload(random);
        // One version upload per resource and round: answers may arrive out of commit order.
        const ids = [...acked.keys()].filter((id) => !targeted.has(id));
        if (ids.length > 0 && random() < 0.5) {
          const id = ids[Math.floor(random() * ids.length)];
          targeted.add(id);
          acked.get(id)!.add(sha1(bytes));
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(bytes)]), `v${round}-${i}.bin`);
          ops.push(
            fetch(`${url}/v1/resource/versions?resourceId=${id}`, { method: 'POST', body: form, headers: { accept: 'application/json' } })
              .then(async (res) => {
                if (res.status !== 200 && res.status !== 201) return;
                const v = (await res.json()) as { id: number; hash: string };
                expect(v.hash).toBe(sha1(bytes));
                ackedVersions.push({ versionId: v.id, sha1: sha1(bytes) });
                acked.set(id, new Set([sha1(bytes)]));
              })
              .catch(() => undefined),
          );
        } else {
          const form = new FormData();
          form.append('resource', new Blob([new Uint8Array(bytes)]), `r${round}-${i}.bin`);
          ops.push(
            fetch(`${url}/v1/resource`, { method: 'POST', body: form, headers: { accept: 'application/json' } })
              .then(async (res) => {
                if (res.status !== 200) return;
                const [r] = (await res.json()) as { ID: number; Hash: string }[];
                expect(r.Hash).toBe(sha1(bytes));
                acked.set(r.ID, new Set([r.Hash]));
              })
              .catch(() => undefined),
          );
        }
      }
      // And one sent slowly, over 1 MiB: the kill usually finds it half read.
      const slow = randomBytes(1024 * 1024 + Math.floor(random() * 2 * 1024 * 1024));
      ops.push(
        pacedUpload(url, slow, `slow${round}.bin`, 1500).then((r) => {
          if (!r) return;
          expect(r.Hash).toBe(sha1(slow));
          acked.set(r.ID, new Set([r.Hash]));
        }),
      );
      await sleep(Math.floor(random() * 1500));
      await kill9(server);
      kills++;
      await Promise.all(ops);
      server = await launch(base);
    }

    // Integrity: every acknowledged resource and version has its bytes.
    for (const [id, hashes] of acked) {
      const res = await fetch(`${server.url}/v1/resource/download?id=${id}`);
      expect(res.status, `resource ${id}`).toBe(200);
      expect([...hashes], `resource ${id}`).toContain(sha1(Buffer.from(await res.arrayBuffer())));
    }
    for (const v of ackedVersions) {
      const res = await fetch(`${server.url}/v1/resource/version/file?versionId=${v.versionId}`);
      expect(res.status, `version ${v.versionId}`).toBe(200);
      expect(sha1(Buffer.from(await res.arrayBuffer())), `version ${v.versionId}`).toBe(v.sha1);
    }
    // No part file of a killed upload outlives the restart after it (the start sweeps them;
    // reconciliation would only take those older than the orphan grace).
    const tempDir = join(dir, 'files', '.tmp');
    expect(existsSync(tempDir) ? readdirSync(tempDir) : []).toEqual([]);
    const before = (await (await fetch(`${server.url}/v1/admin/reconcile`, { headers: { accept: 'application/json' } })).json()) as ReconcileReport;
    await kill9(server);
    server = await launch([...base, '-orphan-grace', '0s']);
    const after = (await (await fetch(`${server.url}/v1/admin/reconcile`, { headers: { accept: 'application/json' } })).json()) as ReconcileReport;
    for (const [id, hashes] of acked) {
      const res = await fetch(`${server.url}/v1/resource/download?id=${id}`);
      expect([...hashes], `resource ${id} after reconciliation`).toContain(sha1(Buffer.from(await res.arrayBuffer())));
    }
    await kill9(server);
    console.log(
      `crash test (library, ${TEST_DB}, seed ${SEED}): ${kills} kills, ${acked.size} acknowledged resources and ${ackedVersions.length} acknowledged versions checked, ` +
        `orphans before reconciliation ${before.orphans.count + before.young} (${before.orphans.bytes} bytes old, ${before.young} young), after ${after.orphans.count + after.young}`,
    );
    expect(acked.size).toBeGreaterThan(0);
    expect(after.orphans.count + after.young).toBe(0);
    expect(after.tempParts.count).toBe(0);
  });

  it.skipIf(IMPORT_ROUNDS === 0)('library imports: a kill during parse or apply leaves no hung import, no partial rows and no stray staging', { timeout: 600_000 }, async () => {
    const random = rng(SEED + 2);
    const dir = mkdtempSync(join(tmpdir(), 'stacks-crash-import-'));
    dirs.push(dir);
    const files = join(dir, 'files');
    // No grace period: every restart's reconciliation removes what a killed apply placed
    // without a row, so the next apply must place it again from the staged archive.
    const base = ['library', '-quiet', '-bind-address=127.0.0.1:0', '-file-save-path', files, '-orphan-grace', '0s', ...(await libraryDbArgs(dir))];
    let server = await launch(base);
    const call = async <T>(url: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(url + path, { method, headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const finished = async (url: string, id: string) => {
      for (;;) {
        const r = await call<{ status: string; error?: string }>(url, 'GET', `/v1/jobs/get?id=${id}`);
        if (r.status === 200 && ['completed', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
        await sleep(50);
      }
    };
    const parse = async (url: string, archive: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(archive)]), 'crash.tar');
      const up = await fetch(`${url}/v1/groups/import/parse`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
      expect(up.status).toBe(202);
      return ((await up.json()) as { jobId: string }).jobId;
    };
    const applyNow = async (url: string, id: string) => {
      const r = await call<{ jobId: string }>(url, 'POST', `/v1/imports/${id}/apply`, {});
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const job = await finished(url, r.body.jobId);
      expect(job.status, `apply again: ${job.error}`).toBe('completed');
    };
    // Group name → the names and hashes of the resources its archive carries.
    const imported = new Map<string, Map<string, string>>();
    let kills = 0;
    let parseKills = 0;
    let applyKills = 0;
    let settledByRestart = 0;

    for (let round = 0; round < IMPORT_ROUNDS; round++) {
      // A fresh archive per round (new GUIDs), so every apply creates rows rather than merging.
      // Written here in the export format (a second server to export from would cost a launch).
      const groupName = `crash-import-${round}`;
      const group = (exportId: string, name: string, owner: string | null) => ({ export_id: exportId, guid: randomUUID(), shell: false, name, description: '', owner_ref: owner, tags: [], related_groups: [], related_resources: [], related_notes: [], relationships: [], meta: {} });
      const entries: RawEntry[] = [
        { name: 'manifest.json', data: MANIFEST },
        { name: 'groups/g0001.json', data: JSON.stringify(group('g0001', groupName, null)) },
        { name: 'groups/g0002.json', data: JSON.stringify(group('g0002', `${groupName}-child`, 'g0001')) },
      ];
      const blobs: RawEntry[] = [];
      const expected = new Map<string, string>();
      for (let i = 0; i < 4; i++) {
        const bytes = payload(random);
        const name = `imp${round}-${i}.bin`;
        const hash = sha1(bytes);
        const resource = { export_id: `r000${i + 1}`, guid: randomUUID(), name, original_name: name, hash: `blobs/${hash}`, hash_type: 'SHA1', file_size: bytes.length, content_type: 'application/octet-stream', owner_ref: 'g0001', tags: [], groups: [], notes: [], meta: {} };
        entries.push({ name: `resources/r000${i + 1}.json`, data: JSON.stringify(resource) });
        blobs.push({ name: `blobs/${hash}`, data: bytes });
        expected.set(name, hash);
      }
      const archive = rawTar([...entries, ...blobs]);

      // Kill during the parse: afterwards the import is ready, failed with a reason, or unknown,
      // never "still parsing" with no job left to finish it.
      let id = await parse(server.url, archive);
      await sleep(Math.floor(random() * 150));
      await kill9(server);
      kills++;
      parseKills++;
      server = await launch(base);
      const plan = await call<{ error?: string }>(server.url, 'GET', `/v1/imports/${id}/plan`);
      if (plan.status !== 200) {
        if (plan.status === 404) expect(plan.body.error).not.toMatch(/not ready/);
        else expect(plan.status, JSON.stringify(plan.body)).toBe(422);
        settledByRestart++;
        id = await parse(server.url, archive);
        const job = await finished(server.url, id);
        expect(job.status, `parse again: ${job.error}`).toBe('completed');
      }

      // Kill during the apply: afterwards either the result is there, or the import is not
      // marked applied and applying again completes it without duplicating anything.
      const applied = await call<{ jobId: string }>(server.url, 'POST', `/v1/imports/${id}/apply`, {});
      expect(applied.status, JSON.stringify(applied.body)).toBe(202);
      await sleep(Math.floor(random() * 250));
      await kill9(server);
      kills++;
      applyKills++;
      server = await launch(base);
      const result = await call<{ error?: string }>(server.url, 'GET', `/v1/imports/${id}/result`);
      if (result.status !== 200) {
        expect(result.status).toBe(404);
        expect(result.body.error).not.toMatch(/status: applied/);
        settledByRestart++;
        await applyNow(server.url, id);
      }
      imported.set(groupName, expected);
    }

    const verify = async (url: string) => {
      for (const [groupName, expected] of imported) {
        const groups = (await call<{ Name: string }[]>(url, 'GET', `/v1/groups?Name=${groupName}`)).body.filter((g) => g.Name === groupName || g.Name === `${groupName}-child`);
        expect(groups.map((g) => g.Name).sort(), groupName).toEqual([groupName, `${groupName}-child`]);
        for (const [name, hash] of expected) {
          const rows = (await call<{ ID: number; Name: string; Hash: string }[]>(url, 'GET', `/v1/resources?Name=${name}`)).body.filter((r) => r.Name === name);
          expect(rows, name).toHaveLength(1);
          expect(rows[0].Hash, name).toBe(hash);
          const file = await fetch(`${url}/v1/resource/download?id=${rows[0].ID}`);
          expect(file.status, name).toBe(200);
          expect(sha1(Buffer.from(await file.arrayBuffer())), name).toBe(hash);
        }
      }
    };
    await verify(server.url);
    // A dry run with no grace period: anything unreferenced would be listed.
    const after = (await (await fetch(`${server.url}/v1/admin/reconcile`, { headers: { accept: 'application/json' } })).json()) as ReconcileReport;
    // Staging: no upload folder, no half-written file, no import stuck mid-way, no extracted
    // bytes kept by an applied import.
    const staging = join(files, '_imports');
    const left = existsSync(staging) ? readdirSync(staging) : [];
    expect(left.filter((n) => !/^[0-9a-f]{16}$/.test(n))).toEqual([]);
    for (const name of left) {
      const meta = JSON.parse(readFileSync(join(staging, name, 'meta.json'), 'utf8')) as { status: string };
      expect(['ready', 'failed', 'applied'], name).toContain(meta.status);
      const inside = readdirSync(join(staging, name));
      expect(inside.filter((f) => f.endsWith('.part')), name).toEqual([]);
      if (meta.status !== 'ready') expect(inside.filter((f) => ['json', 'blobs', 'previews', 'archive.tar'].includes(f)), name).toEqual([]);
    }
    expect((await fetch(`${server.url}/v1/groups`, { headers: { accept: 'application/json' } })).status).toBe(200);
    await kill9(server);
    console.log(
      `crash test (imports, ${TEST_DB}, seed ${SEED + 2}): ${kills} kills (${parseKills} in parse, ${applyKills} in apply), ${imported.size} imports checked, ` +
        `${settledByRestart} interrupted and completed again, unreferenced files at the end ${after.orphans.count + after.young}`,
    );
    expect(imported.size).toBe(IMPORT_ROUNDS);
    expect(after.orphans.count + after.young).toBe(0);
    expect(after.tempParts.count).toBe(0);
  });

  it('clips: acknowledged uploads survive, and reconciliation leaves no orphan blob', { timeout: 600_000 }, async () => {
    const random = rng(SEED + 1);
    const dir = mkdtempSync(join(tmpdir(), 'stacks-crash-clips-'));
    dirs.push(dir);
    const dataDir = join(dir, 'data');
    const made = spawnSync('node', [BIN, 'clips', 'key', 'create', '--data-dir', dataDir, '--name', 'crash', '--role', 'admin'], { encoding: 'utf8' });
    const key = made.stdout.trim();
    expect(key).toMatch(/^\S+$/);
    const auth = { authorization: `Bearer ${key}` };
    const base = ['clips', '-quiet', '--port', '0', '--data-dir', dataDir];
    let server = await launch(base);
    const acked = new Map<number, string>();
    let kills = 0;
    for (let round = 0; round < CLIP_KILLS; round++) {
      const url = server.url;
      const warm = randomBytes(4096);
      const warmForm = new FormData();
      warmForm.append('file', new Blob([new Uint8Array(warm)]), `warm${round}.bin`);
      const warmRes = await fetch(`${url}/api/v1/clips`, { method: 'POST', body: warmForm, headers: auth });
      expect(warmRes.status).toBe(201);
      acked.set(((await warmRes.json()) as { id: number }).id, sha256(warm));
      const ops: Promise<void>[] = [];
      for (let i = 0; i < 4; i++) {
        const bytes = payload(random);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)]), `c${round}-${i}.bin`);
        ops.push(
          fetch(`${url}/api/v1/clips`, { method: 'POST', body: form, headers: auth })
            .then(async (res) => {
              if (res.status !== 201 && res.status !== 200) return;
              const clip = (await res.json()) as { id: number };
              acked.set(clip.id, sha256(bytes));
            })
            .catch(() => undefined),
        );
      }
      await sleep(Math.floor(random() * 1200));
      await kill9(server);
      kills++;
      await Promise.all(ops);
      server = await launch(base);
    }
    for (const [id, hash] of acked) {
      const res = await fetch(`${server.url}/api/v1/clips/${id}/data`, { headers: auth });
      expect(res.status, `clip ${id}`).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer())), `clip ${id}`).toBe(hash);
    }
    const before = (await (await fetch(`${server.url}/api/v1/admin/reconcile`, { headers: auth })).json()) as ReconcileReport;
    await kill9(server);
    server = await launch([...base, '--orphan-grace-ms', '0']);
    const after = (await (await fetch(`${server.url}/api/v1/admin/reconcile`, { headers: auth })).json()) as ReconcileReport;
    for (const [id, hash] of acked) {
      const res = await fetch(`${server.url}/api/v1/clips/${id}/data`, { headers: auth });
      expect(sha256(Buffer.from(await res.arrayBuffer())), `clip ${id} after reconciliation`).toBe(hash);
    }
    await kill9(server);
    console.log(
      `crash test (clips, seed ${SEED + 1}): ${kills} kills, ${acked.size} acknowledged clips checked, ` +
        `orphan blobs before reconciliation ${before.orphans.count + before.young}, after ${after.orphans.count + after.young}`,
    );
    expect(acked.size).toBeGreaterThan(0);
    expect(after.orphans.count + after.young).toBe(0);
    expect(after.tempParts.count).toBe(0);
  });
});
