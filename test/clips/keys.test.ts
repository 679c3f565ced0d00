// API keys: format, storage, roles, revocation, retention and scope-tag deletion (§15.3, §6).
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseClipArgs } from '../../src/clips/config.js';
import { KeyService } from '../../src/clips/keys/service.js';
import { openStore } from '../../src/clips/store.js';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from './helper.js';

interface Info {
  id: number;
  name: string;
  key_prefix: string;
  role: string;
  scoped_tag_id: number;
  scoped_tag_name: string;
  is_revoked: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

const KEY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('creating keys', () => {
  it('mints svc_ + 48 hex characters, returns it once, and stores only its SHA-256', async () => {
    const r = await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'CI', role: 'editor' });
    expect(r.status).toBe(201);
    expect(r.body.key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(r.body.info).toMatchObject({ name: 'CI', role: 'editor', scoped_tag_id: 0, scoped_tag_name: '', is_revoked: false, last_used_at: null, revoked_at: null });
    expect(r.body.info.key_prefix).toBe(r.body.key.slice(0, 8));
    expect(r.body.info.created_at).toMatch(KEY_TIME);

    const db = new Database(join(t.dataDir, 'clips.db'), { readonly: true });
    const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(r.body.info.id) as Record<string, unknown>;
    db.close();
    expect(row.key_hash).toBe(createHash('sha256').update(r.body.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(r.body.key);

    const list = await t.req<Record<string, unknown>[]>(f.KA, 'GET', '/keys');
    for (const info of list.body) {
      expect(info).not.toHaveProperty('key');
      expect(info).not.toHaveProperty('key_hash');
    }
    expect(JSON.stringify(list.body)).not.toContain(r.body.key);
  });

  it('makes distinct keys every time', async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) keys.add((await t.req<{ key: string }>(f.KA, 'POST', '/keys', { name: `k${i}` })).body.key);
    expect(keys.size).toBe(20);
  });

  it('defaults the role to viewer and validates name, role and scope', async () => {
    expect((await t.req<{ info: Info }>(f.KA, 'POST', '/keys', { name: 'R' })).body.info.role).toBe('viewer');
    expect((await t.req<{ info: Info }>(f.KA, 'POST', '/keys', { name: 'R', role: '' })).body.info.role).toBe('viewer');
    expect((await t.req(f.KA, 'POST', '/keys', { name: '   ' })).body).toEqual({ error: 'key name cannot be empty' });
    expect((await t.req(f.KA, 'POST', '/keys', {})).status).toBe(400);
    expect((await t.req(f.KA, 'POST', '/keys', { name: 'x'.repeat(101) })).status).toBe(400);
    expect((await t.req(f.KA, 'POST', '/keys', { name: 5 })).status).toBe(400);
    const role = await t.req<{ error: string }>(f.KA, 'POST', '/keys', { name: 'x', role: 'owner' });
    expect(role.status).toBe(400);
    expect(role.body.error).toBe('invalid role: owner (must be viewer, editor, or admin)');
    expect((await t.req(f.KA, 'POST', '/keys', { name: 'x', scoped_tag_id: 999 })).body).toEqual({ error: 'scoped tag 999 not found' });
    expect((await t.req(f.KA, 'POST', '/keys', { name: 'x', scoped_tag_id: -1 })).status).toBe(400);
    expect((await t.req(f.KA, 'POST', '/keys', { name: 'x', scoped_tag_id: '2' })).status).toBe(400);
    const zero = await t.req<{ info: Info }>(f.KA, 'POST', '/keys', { name: 'zero', scoped_tag_id: 0 });
    expect(zero.body.info.scoped_tag_id).toBe(0);
  });

  it('records the scope tag id and its current name', async () => {
    const r = await t.req<{ info: Info }>(f.KA, 'POST', '/keys', { name: 'x', scoped_tag_id: 2 });
    expect(r.status).toBe(201);
    expect(r.body.info).toMatchObject({ scoped_tag_id: 2, scoped_tag_name: 'work/client1' });
  });

  it('lets a tag-scoped admin mint an unscoped admin key that escapes the scope', async () => {
    const r = await t.req<{ key: string; info: Info }>(f.KSA, 'POST', '/keys', { name: 'wide', role: 'admin' });
    expect(r.status).toBe(201);
    expect(r.body.info.scoped_tag_id).toBe(0);
    expect((await t.req(r.body.key, 'GET', '/dedup')).status).toBe(200);
    expect((await t.req(f.KSA, 'GET', '/dedup')).status).toBe(403);
    expect((await t.req(f.KSA, 'GET', '/keys')).status).toBe(200);
  });

  it('refuses key management below admin', async () => {
    expect((await t.req(f.KV, 'POST', '/keys', { name: 'x' })).status).toBe(403);
    expect((await t.req(f.KE, 'GET', '/keys')).status).toBe(403);
    expect((await t.req(f.KE, 'DELETE', '/keys/3')).status).toBe(403);
  });
});

describe('listing and use', () => {
  it('lists newest first, ties broken by id', async () => {
    const list = await t.req<Info[]>(f.KA, 'GET', '/keys');
    const order = list.body.map((k) => [k.created_at, k.id] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
    expect(order).toEqual(sorted);
    expect(list.body.slice(-6).map((k) => k.id)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('sets last_used_at when the key authenticates a request', async () => {
    const { key, info } = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'use' })).body;
    expect(info.last_used_at).toBeNull();
    await t.req(key, 'GET', '/clips');
    const after = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!;
    expect(after.last_used_at).toMatch(KEY_TIME);
  });
});

describe('revocation', () => {
  it('stops a key on the very next request, keeps the row, and 404s a second revoke', async () => {
    const { key, info } = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'doomed' })).body;
    expect((await t.req(key, 'GET', '/clips')).status).toBe(200);
    expect((await t.req(f.KA, 'DELETE', `/keys/${info.id}`)).status).toBe(204);
    expect((await t.req(key, 'GET', '/clips')).body).toEqual({ error: 'invalid or revoked API key' });
    const row = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!;
    expect(row.is_revoked).toBe(true);
    expect(row.revoked_at).toMatch(KEY_TIME);
    expect((await t.req(f.KA, 'DELETE', `/keys/${info.id}`)).body).toEqual({ error: 'key not found or already revoked' });
    expect((await t.req(f.KA, 'DELETE', '/keys/999999')).status).toBe(404);
  });

  it('lets a key revoke itself', async () => {
    const { key, info } = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'self', role: 'admin' })).body;
    expect((await t.req(key, 'DELETE', `/keys/${info.id}`)).status).toBe(204);
    expect((await t.req(key, 'GET', '/keys')).status).toBe(401);
  });

  it('purges revoked keys 7 days after revocation in the cleanup job, not before', async () => {
    const old = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'old' })).body.info;
    await t.req(f.KA, 'DELETE', `/keys/${old.id}`);
    t.clock.advance(2 * 86_400_000);
    const young = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'young' })).body.info;
    await t.req(f.KA, 'DELETE', `/keys/${young.id}`);
    t.clock.advance(5 * 86_400_000 + 1000); // old: 7 days + 1 s; young: 5 days
    await t.svc.cleanup.runOnce();
    const ids = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.map((k) => k.id);
    expect(ids).not.toContain(old.id);
    expect(ids).toContain(young.id);
    t.clock.advance(2 * 86_400_000);
    await t.svc.cleanup.runOnce();
    expect((await t.req<Info[]>(f.KA, 'GET', '/keys')).body.map((k) => k.id)).not.toContain(young.id);
    expect((await t.req(f.KA, 'GET', '/keys')).status).toBe(200);
  });

  it('revokes keys scoped to a deleted tag, clears their scope, and keeps others working', async () => {
    const tag = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: 'ephemeral' })).body;
    const { key, info } = (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', { name: 'scoped', role: 'editor', scoped_tag_id: tag.id })).body;
    expect((await t.req(key, 'GET', '/clips')).status).toBe(200);
    expect((await t.req(f.KA, 'DELETE', `/tags/${tag.id}`)).status).toBe(204);
    expect((await t.req(key, 'GET', '/clips')).status).toBe(401);
    const row = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!;
    expect(row).toMatchObject({ is_revoked: true, scoped_tag_id: 0, scoped_tag_name: '' });
    expect(row.revoked_at).toMatch(KEY_TIME);
    expect((await t.req(f.KSE, 'GET', '/clips')).status).toBe(200);
  });

  it('follows a renamed scope tag at once', async () => {
    const tag = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: 'before' })).body;
    const info = (await t.req<{ info: Info }>(f.KA, 'POST', '/keys', { name: 's', scoped_tag_id: tag.id })).body.info;
    await t.req(f.KA, 'PUT', `/tags/${tag.id}`, { name: 'after' });
    const row = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!;
    expect(row.scoped_tag_name).toBe('after');
  });
});

// The service caches active keys (src/clips/keys/cache.ts); every change must still reach the
// very next request, whichever connection or code path made it. Each key is used twice first,
// so it is in the cache when the change happens.
describe('key changes reach the next request despite the key cache', () => {
  const mint = async (body: Record<string, unknown>) => (await t.req<{ key: string; info: Info }>(f.KA, 'POST', '/keys', body)).body;
  const warm = async (key: string) => {
    for (let i = 0; i < 2; i++) expect((await t.req(key, 'GET', '/clips')).status).toBe(200);
  };
  const otherConnection = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(join(t.dataDir, 'clips.db'));
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('refuses a key revoked through the CLI code path (its own store and connection)', async () => {
    const { key, info } = await mint({ name: 'cli-revoked' });
    await warm(key);
    const store = await openStore(parseClipArgs(['--data-dir', t.dataDir], {}).config, t.clock, () => undefined);
    try {
      await new KeyService(store.ctx).revoke(info.id);
    } finally {
      await store.close();
    }
    expect((await t.req(key, 'GET', '/clips')).body).toEqual({ error: 'invalid or revoked API key' });
  });

  it('refuses a key revoked by another process writing the database directly', async () => {
    const { key, info } = await mint({ name: 'sql-revoked' });
    await warm(key);
    otherConnection((db) => db.prepare("UPDATE api_keys SET is_revoked = 1, revoked_at = '2026-01-01 00:00:00' WHERE id = ?").run(info.id));
    expect((await t.req(key, 'GET', '/clips')).status).toBe(401);
  });

  it('refuses a key deleted by another connection, and follows a role lowered there', async () => {
    const gone = await mint({ name: 'deleted', role: 'editor' });
    const lowered = await mint({ name: 'lowered', role: 'editor' });
    await warm(gone.key);
    await warm(lowered.key);
    expect((await t.upload(lowered.key, { filename: 'cache-1.txt', data: 'cache one' })).status).toBe(201);
    otherConnection((db) => {
      db.prepare('DELETE FROM api_keys WHERE id = ?').run(gone.info.id);
      db.prepare("UPDATE api_keys SET role = 'viewer' WHERE id = ?").run(lowered.info.id);
    });
    expect((await t.req(gone.key, 'GET', '/clips')).status).toBe(401);
    expect((await t.upload(lowered.key, { filename: 'cache-2.txt', data: 'cache two' })).status).toBe(403);
    expect((await t.req(lowered.key, 'GET', '/clips')).status).toBe(200);
  });

  it('refuses a key revoked through the API while requests with it keep coming', async () => {
    const { key, info } = await mint({ name: 'busy', role: 'admin' });
    await warm(key);
    const [, revoked] = await Promise.all([t.req(key, 'GET', '/clips'), t.req(f.KA, 'DELETE', `/keys/${info.id}`)]);
    expect(revoked.status).toBe(204);
    expect((await t.req(key, 'GET', '/clips')).status).toBe(401);
  });

  it('follows a scope tag renamed through the API or by another connection on the next request', async () => {
    const scope = (await t.req<{ id: number }>(f.KA, 'POST', '/tags', { name: 'cache-scope' })).body;
    const { key } = await mint({ name: 'scoped-admin', role: 'admin', scoped_tag_id: scope.id });
    expect((await t.req(key, 'POST', '/tags', { name: 'cache-scope/a' })).status).toBe(201);
    await warm(key);
    expect((await t.req(f.KA, 'PUT', `/tags/${scope.id}`, { name: 'cache-moved' })).status).toBe(204);
    // A child under the old name is now outside the scope; under the new one it is inside.
    expect((await t.req(key, 'POST', '/tags', { name: 'cache-scope/b' })).status).toBe(403);
    expect((await t.req(key, 'POST', '/tags', { name: 'cache-moved/b' })).status).toBe(201);
    await warm(key);
    otherConnection((db) => db.prepare("UPDATE tags SET name = 'cache-again' WHERE id = ?").run(scope.id));
    expect((await t.req(key, 'POST', '/tags', { name: 'cache-moved/c' })).status).toBe(403);
    expect((await t.req(key, 'POST', '/tags', { name: 'cache-again/c' })).status).toBe(201);
  });

  it('still stamps last_used_at once the key is cached', async () => {
    const { key, info } = await mint({ name: 'stamped' });
    await warm(key);
    const first = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!.last_used_at;
    t.clock.advance(5000);
    await t.req(key, 'GET', '/clips');
    const second = (await t.req<Info[]>(f.KA, 'GET', '/keys')).body.find((k) => k.id === info.id)!.last_used_at;
    expect(first).toMatch(KEY_TIME);
    expect(second).toMatch(KEY_TIME);
    expect(second! > first!).toBe(true);
  });
});
