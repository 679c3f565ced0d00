// The blob journal (docs/storage.md, "Small clips"): a small upload's file is written without an
// fsync and its bytes ride in the clip row's transaction. These tests run the service as its own
// process and kill it, to show that what was acknowledged survives with its bytes intact even
// where the file did not, that a clean shutdown leaves the journal empty, and that only small
// uploads read whole are journaled.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DIRECT_BODY_BYTES } from '../../src/clips/clips/upload.js';
import { keyCreate, startProcess, streamUpload, type ServiceProcess } from './process.js';
import { API, multipart } from './helper.js';

const root = mkdtempSync(join(tmpdir(), 'stacks-clips-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Store {
  dataDir: string;
  key: string;
}

function newStore(name: string): Store {
  const dataDir = join(root, name);
  const key = keyCreate(dataDir, ['--name', 'journal', '--role', 'admin']).stdout.trim();
  return { dataDir, key };
}

const start = (store: Store) => startProcess(['--port', '0', '--data-dir', store.dataDir]);

/** Uploads `text` with its Content-Length (the whole-body reader); answers the clip's id and hash. */
async function upload(svc: ServiceProcess, store: Store, text: string, filename: string, status = 201): Promise<{ id: number; hash: string }> {
  const { body, contentType } = multipart([{ filename, type: 'text/plain', data: text }]);
  const r = await fetch(`${svc.url}${API}/clips`, { method: 'POST', headers: { authorization: `Bearer ${store.key}`, 'content-type': contentType }, body: new Uint8Array(body) });
  expect(r.status).toBe(status);
  const clip = (await r.json()) as { id: number };
  return { id: clip.id, hash: createHash('sha256').update(text).digest('hex') };
}

async function content(svc: ServiceProcess, store: Store, id: number): Promise<string> {
  const r = await fetch(`${svc.url}${API}/clips/${id}/data`, { headers: { authorization: `Bearer ${store.key}` } });
  expect(r.status).toBe(200);
  return r.text();
}

/** The journal's entries, read from the database file (the service may be stopped). */
function journal(store: Store): { hash: string; bytes: Buffer }[] {
  const db = new Database(join(store.dataDir, 'clips.db'), { readonly: true });
  try {
    return db.prepare('SELECT hash, bytes FROM blob_journal ORDER BY hash').all() as { hash: string; bytes: Buffer }[];
  } finally {
    db.close();
  }
}

const blobPath = (store: Store, hash: string) => join(store.dataDir, 'blobs', 'sha256', hash.slice(0, 2), hash.slice(2, 4), hash);

describe('blob journal', () => {
  it('keeps a small upload’s bytes beside its row until the file is flushed; a clean shutdown flushes them all', async () => {
    const store = newStore('clean');
    const svc = await start(store);
    const first = await upload(svc, store, 'first small clip', 'a.txt');
    // The same bytes again: deduplicated to the first clip (200), one entry.
    const again = await upload(svc, store, 'first small clip', 'again.txt', 200);
    const second = await upload(svc, store, 'second small clip', 'b.txt');
    const entries = journal(store);
    expect(entries.map((e) => e.hash)).toEqual([first.hash, second.hash].sort());
    expect(entries.find((e) => e.hash === first.hash)!.bytes.toString()).toBe('first small clip');
    expect(again.id).toBe(first.id);
    expect(await content(svc, store, second.id)).toBe('second small clip');
    expect(await svc.stop('SIGTERM')).toBe(0);
    expect(journal(store)).toEqual([]);
    expect(readFileSync(blobPath(store, first.hash), 'utf8')).toBe('first small clip');
  });

  it('writes a lost or torn file again from the journal after a crash, and keeps every acknowledged clip', async () => {
    const store = newStore('crash');
    const svc = await start(store);
    const lost = await upload(svc, store, 'this file is lost in the crash', 'lost.txt');
    const torn = await upload(svc, store, 'this file is torn in the crash', 'torn.txt');
    const kept = await upload(svc, store, 'this file survives the crash', 'kept.txt');
    svc.child.kill('SIGKILL');
    await svc.exited;
    expect(journal(store)).toHaveLength(3);
    // What a power cut can leave of files written without an fsync: none, or part of them.
    rmSync(blobPath(store, lost.hash));
    writeFileSync(blobPath(store, torn.hash), 'this file is');

    const back = await start(store);
    try {
      expect(journal(store)).toEqual([]);
      expect(await content(back, store, lost.id)).toBe('this file is lost in the crash');
      expect(await content(back, store, torn.id)).toBe('this file is torn in the crash');
      expect(await content(back, store, kept.id)).toBe('this file survives the crash');
      expect(back.output()).not.toMatch(/is missing/);
    } finally {
      await back.stop();
    }
  });

  it('drops the entry of a clip deleted before the crash without bringing its file back', async () => {
    const store = newStore('deleted');
    const svc = await start(store);
    const gone = await upload(svc, store, 'deleted before the crash', 'gone.txt');
    const r = await fetch(`${svc.url}${API}/clips/${gone.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${store.key}` } });
    expect(r.status).toBe(204);
    expect(existsSync(blobPath(store, gone.hash))).toBe(false);
    svc.child.kill('SIGKILL');
    await svc.exited;
    expect(journal(store)).toHaveLength(1);

    const back = await start(store);
    await back.stop();
    expect(journal(store)).toEqual([]);
    expect(existsSync(blobPath(store, gone.hash))).toBe(false);
  });

  it('journals nothing for an upload too large to be read whole: its file is fsynced before the answer', async () => {
    const store = newStore('large');
    const svc = await start(store);
    try {
      const r = await streamUpload(svc.url, store.key, DIRECT_BODY_BYTES + 1);
      expect(r.status).toBe(201);
      expect(journal(store)).toEqual([]);
    } finally {
      await svc.stop();
    }
  });
});
