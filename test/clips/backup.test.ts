// Backup and restore (companion §10, test cases T194–T200): the archive's layout, a round trip
// into a fresh data directory compared row by row and byte by byte, archives that must be
// refused without touching the store, a swap that fails and rolls back, and what a restore
// does to watch folders, tag servers and scoped keys.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, ids, multipart, png, startTestClips, type ClipJson, type FixtureF, type Reply, type TestClips } from './helper.js';
import { install } from './plugins/helper.js';
import { rawZip, readZip, type RawEntry } from './zip.js';

const HELLO = 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9';
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

async function getBackup(t: TestClips, key: string) {
  const res = await fetch(`${t.url}/api/v1/backup`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function restore(t: TestClips, key: string, zip: Buffer): Promise<Reply> {
  const form = multipart([{ name: 'file', filename: 'backup.zip', type: 'application/zip', data: zip }]);
  return t.raw(key, 'POST', '/backup/restore', form.body, { 'content-type': form.contentType });
}

/** Files under a directory (relative paths), for "nothing left behind" checks. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

const TABLES = ['tags', 'clips', 'clip_tags', 'clip_metadata', 'settings', 'watched_folders', 'plugins', 'plugin_storage', 'plugin_permissions'];

function dump(dataDir: string): Record<string, unknown[]> {
  const db = new Database(join(dataDir, 'clips.db'), { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

let t: TestClips;
let f: FixtureF;
let B: Buffer;
const root = mkdtempSync(join(tmpdir(), 'stacks-backup-'));
beforeAll(async () => {
  t = await startTestClips();
  f = await fixtureF(t);
  B = (await getBackup(t, f.KA)).bytes;
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The state fixture F shows through the API. */
async function expectFixtureIntact(tt: TestClips, key: string) {
  expect(ids(await tt.req(key, 'GET', '/clips'))).toEqual([3, 2, 1]);
  expect((await tt.req<{ name: string }[]>(key, 'GET', '/tags')).body.map((x) => x.name)).toEqual(['personal', 'work', 'work/client1', 'work/client2']);
  expect((await tt.raw(key, 'GET', '/clips/1/data')).text).toBe('hello world');
}

describe('GET /backup', () => {
  it('streams a ZIP of manifest, SQL dump and blobs by hash, without API keys (T194)', async () => {
    const r = await getBackup(t, f.KA);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="clip-service-backup-\d{8}-\d{6}\.zip"$/);
    expect(r.headers.get('content-length')).toBe(String(r.bytes.length));
    const entries = await readZip(r.bytes);
    const blobs = [...entries.keys()].filter((n) => n.startsWith('blobs/'));
    expect([...entries.keys()].slice(0, 2)).toEqual(['manifest.json', 'database.sql']);
    expect(blobs).toHaveLength(3);
    expect(blobs).toContain(`blobs/${HELLO}`);
    for (const name of blobs) expect(sha256(entries.get(name)!)).toBe(name.slice(6));
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest).toMatchObject({ format_version: 1, app_version: '0.1.0', platform: process.platform, summary: { clips: 3, tags: 4, plugins: 0, watch_folders: 0 }, excluded: [], blob_store: 'sha256' });
    expect(manifest.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const sql = entries.get('database.sql')!.toString();
    expect(sql).not.toMatch(/api_keys|svc_/);
    expect(sql).toContain("INSERT INTO tags (id, name, color, created_at) VALUES (2, 'work/client1', '#78716C', ");
    expect(sql).not.toContain('text_content');
    for (const line of sql.split('\n')) expect(line === '' || line.startsWith('-- ') || line.startsWith('INSERT INTO ')).toBe(true);
    // Nothing of the build is left in tmp/.
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('is for admins only (T195)', async () => {
    expect((await t.req(f.KE, 'GET', '/backup')).status).toBe(403);
    expect((await restore(t, f.KE, B)).status).toBe(403);
    expect((await t.req(null, 'GET', '/backup')).status).toBe(401);
  });
});

describe('POST /backup/restore', () => {
  it('puts the store back as it was (T196), pauses watch folders (T197) and stops tag servers (T199)', async () => {
    const own = await startTestClips();
    try {
      const ff = await fixtureF(own);
      const dir = join(root, 'w-t197');
      mkdirSync(dir);
      expect((await own.req(ff.KA, 'POST', '/watch', { path: dir })).status).toBe(201);
      const b = (await getBackup(own, ff.KA)).bytes;
      await own.req(ff.KE, 'DELETE', '/clips/1');
      await own.req(ff.KA, 'POST', '/tags', { name: 'temp' });
      await own.req(ff.KA, 'PUT', '/watch/global-pause');
      const served = (await own.req<{ port: number }>(ff.KA, 'POST', '/serve', { tag_id: 4 })).body;

      const r = await restore(own, ff.KA, b);
      expect([r.status, r.body]).toEqual([200, { status: 'restored' }]);
      await expectFixtureIntact(own, ff.KA);
      expect((await own.req<{ name: string }[]>(ff.KA, 'GET', '/tags')).body.some((x) => x.name === 'temp')).toBe(false);
      expect((await own.req(ff.KA, 'GET', '/watch/1')).body).toMatchObject({ path: dir, is_paused: true });
      expect((await own.req(ff.KA, 'GET', '/watch/status')).body).toMatchObject({ global_paused: false, active_count: 0 });
      expect((await own.req(ff.KA, 'GET', '/serve')).body).toEqual({ servers: [] });
      await fetch(`http://127.0.0.1:${served.port}/`).then(
        () => expect.fail('the tag server still answers'),
        () => undefined,
      );
      // Paused after the restore: a file dropped in stays.
      writeFileSync(join(dir, 'after-restore.txt'), 'stays');
      await new Promise((res) => setTimeout(res, 900));
      expect(existsSync(join(dir, 'after-restore.txt'))).toBe(true);
      // The deleted clip's bytes are back, and new uploads carry on.
      expect((await own.upload(ff.KE, { filename: 'new.txt', data: 'after the restore' })).status).toBe(201);
      expect(readdirSync(join(own.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it('reproduces a store in a fresh data directory row by row and byte by byte', async () => {
    const a = await startTestClips();
    const b = await startTestClips();
    try {
      const fa = await fixtureF(a);
      await a.req(fa.KE, 'PUT', '/clips/1/metadata', { source: 'mail', "it's": 'quoted; -- not SQL' });
      await a.req(fa.KE, 'PUT', '/clips/2/metadata/multi%20line', { value: 'one\ntwo\r\nthree' });
      await a.req(fa.KE, 'PUT', '/clips/3/expiration', { minutes: 60 });
      await a.req(fa.KA, 'PUT', '/tags/3', { color: '#123ABC' });
      await a.req(fa.KA, 'PUT', '/tags/hidden', { ids: [3, 4] });
      const big = Buffer.alloc(3 * 1024 * 1024);
      for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
      await a.upload(fa.KE, { filename: 'big.bin', type: 'application/octet-stream', data: big });
      await a.upload(fa.KE, { filename: 'ünïcode – ✓.md', data: '# título\n' });
      const dir = join(root, 'w-roundtrip');
      mkdirSync(dir);
      await a.req(fa.KA, 'POST', '/watch', { path: dir, filter_mode: 'custom', filter_regex: '^x', auto_tag_id: 4, auto_archive: true });
      await a.req(fa.KA, 'PUT', '/watch/global-pause');

      const backup = (await getBackup(a, fa.KA)).bytes;
      expect((await restore(b, b.admin, backup)).status).toBe(200);

      const before = dump(a.dataDir);
      const after = dump(b.dataDir);
      for (const table of TABLES) {
        if (table === 'watched_folders') continue;
        expect(after[table], table).toEqual(before[table]);
      }
      // Restored folders are paused; everything else about them is the same.
      expect(after.watched_folders).toEqual(before.watched_folders.map((w) => ({ ...(w as object), is_paused: 1 })));
      expect(filesUnder(join(b.dataDir, 'blobs'))).toEqual(filesUnder(join(a.dataDir, 'blobs')));
      for (const file of filesUnder(join(a.dataDir, 'blobs'))) {
        expect(readFileSync(join(b.dataDir, 'blobs', file)).equals(readFileSync(join(a.dataDir, 'blobs', file))), file).toBe(true);
      }
      expect((await b.req(b.admin, 'GET', '/tags/hidden')).body).toEqual({ ids: [3, 4] });
      expect((await b.req<ClipJson[]>(b.admin, 'GET', '/clips?search=t%C3%ADtulo')).body).toMatchObject({ total: 1 });
      // API keys are never in a backup: the fresh store keeps its own.
      expect((await b.req<unknown[]>(b.admin, 'GET', '/keys')).body).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses what is not a sound backup and leaves the store untouched (T198)', async () => {
    const entries = await readZip(B);
    const manifest = entries.get('manifest.json')!;
    const sql = entries.get('database.sql')!;
    const blobEntries: RawEntry[] = [...entries].filter(([n]) => n.startsWith('blobs/')).map(([name, data]) => ({ name, data }));
    const sound = (extra: RawEntry[] = [], replace: Partial<Record<string, Buffer | string>> = {}): Buffer =>
      rawZip([
        { name: 'manifest.json', data: replace['manifest.json'] ?? manifest },
        { name: 'database.sql', data: replace['database.sql'] ?? sql, deflate: true },
        ...blobEntries.filter((e) => !(e.name in replace)),
        ...extra,
      ]);
    expect((await restore(t, f.KA, sound())).status).toBe(200); // the hand-made archive itself is fine

    const helloBlob = `blobs/${HELLO}`;
    const cases: [string, Buffer, string | RegExp][] = [
      ['a plain text file', Buffer.from('just text'), 'invalid backup file'],
      ['no manifest', rawZip([{ name: 'database.sql', data: sql }]), 'not a backup: missing manifest'],
      ['a broken manifest', sound([], { 'manifest.json': '{nope' }), 'failed to parse manifest'],
      ['a manifest without a version', sound([], { 'manifest.json': '{"blob_store":"sha256"}' }), /format_version/],
      ['another blob store', sound([], { 'manifest.json': '{"format_version":1,"blob_store":"md5"}' }), /blob_store/],
      ['no database.sql', rawZip([{ name: 'manifest.json', data: manifest }, ...blobEntries]), 'backup is corrupted (missing database.sql)'],
      ['DROP TABLE', sound([], { 'database.sql': `${sql}DROP TABLE clips;\n` }), /^not a backup statement at line \d+$/],
      ['an unterminated string', sound([], { 'database.sql': `${sql}INSERT INTO tags (id) VALUES ('x);\n` }), /^not a backup statement at line/],
      ['a missing blob', rawZip([{ name: 'manifest.json', data: manifest }, { name: 'database.sql', data: sql }, ...blobEntries.filter((e) => e.name !== helloBlob)]), 'backup is missing data for clip 1'],
      ['a blob whose bytes changed', sound([{ name: helloBlob, data: 'hello w0rld' }], { [helloBlob]: '' }), /does not match its content/],
      ['a blob name that is no hash', sound([{ name: 'blobs/notahash', data: 'x' }]), 'invalid blob entry name: blobs/notahash'],
      ['a traversal name', sound([{ name: '../evil.txt', data: 'x' }]), /unsafe backup entry "\.\.\/evil\.txt"/],
      ['a nested traversal name', sound([{ name: 'plugins/../../evil.lua', data: 'x' }]), /unsafe backup entry/],
      ['an absolute name', sound([{ name: '/etc/evil', data: 'x' }]), /absolute entry name/],
      ['a backslash name', sound([{ name: 'plugins\\evil.lua', data: 'x' }]), /backslash/],
      ['a link', sound([{ name: 'plugins/link.lua', data: '/etc/passwd', mode: 0o120777 }]), /is a link/],
      ['an oversized blob', sound([{ name: `blobs/${'a'.repeat(64)}`, data: 'x', declaredSize: 100 * 1024 * 1024 + 1, deflate: true }]), /larger than 104857600 bytes/],
      ['a rows that break the schema', sound([], { 'database.sql': `${sql}INSERT INTO watched_folders (id, path, filter_mode, created_at) VALUES (9, '/x', 'bogus', 'now');\n` }), /^invalid watched_folders row at line \d+: CHECK constraint failed/],
      ['a dangling reference', sound([], { 'database.sql': `${sql}INSERT INTO clip_tags (clip_id, tag_id, added_at) VALUES (1, 77, 'now');\n` }), /backup is inconsistent: clip_tags row \d+ refers to a missing tags row/],
    ];
    const truncated = B.subarray(0, Math.floor(B.length / 2));
    cases.push(['a truncated archive', truncated, /^invalid backup file/]);
    const corrupted = Buffer.from(B);
    const at = corrupted.indexOf(Buffer.from('database.sql')) + 40;
    corrupted.fill(0x55, at, at + 64);
    cases.push(['corrupted compressed data', corrupted, /^invalid backup file/]);

    await t.req(f.KA, 'PUT', '/clips/2/metadata/kept', { value: 'yes' });
    for (const [label, zip, message] of cases) {
      const r = await restore(t, f.KA, zip);
      expect(`${label} → ${r.status}`).toBe(`${label} → 400`);
      expect((r.body as { error: string }).error, label).toMatch(message);
      expect(readdirSync(join(t.dataDir, 'tmp')), label).toEqual([]);
    }
    await expectFixtureIntact(t, f.KA);
    expect((await t.req(f.KA, 'GET', '/clips/2/metadata')).body).toEqual({ kept: 'yes' });
    expect(existsSync(join(t.dataDir, 'plugins', 'evil.lua')) || existsSync(join(root, 'evil.txt'))).toBe(false);
  });

  it('answers 413 for an archive over the size limit, keeping nothing', async () => {
    const small = await startTestClips(['--max-restore-size', '100000']);
    try {
      const r = await restore(small, small.admin, Buffer.alloc(200_000));
      expect(r).toMatchObject({ status: 413, body: { error: 'backup exceeds 100000 bytes' } });
      expect(readdirSync(join(small.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('revokes scoped keys whose tag changed meaning or vanished (T200)', async () => {
    const other = await startTestClips();
    const own = await startTestClips();
    try {
      for (const name of ['work', 'other', 'x', 'personal']) await other.req(other.admin, 'POST', '/tags', { name });
      const b = (await getBackup(other, other.admin)).bytes;
      const ff = await fixtureF(own);
      expect((await restore(own, ff.KA, b)).status).toBe(200);
      expect((await own.req(ff.KSE, 'GET', '/clips')).status).toBe(401);
      expect((await own.req(ff.KSA, 'GET', '/clips')).status).toBe(200);
      expect((await own.req(ff.KSV, 'GET', '/clips')).status).toBe(200);
      expect((await own.req(ff.KA, 'GET', '/clips')).body).toMatchObject({ total: 0 });
      const keys = (await own.req<{ name: string; is_revoked: boolean; scoped_tag_id: number }[]>(ff.KA, 'GET', '/keys')).body;
      expect(keys.find((k) => k.name === 'KSE')).toMatchObject({ is_revoked: true, scoped_tag_id: 0 });

      const fewer = await startTestClips();
      try {
        await fewer.req(fewer.admin, 'POST', '/tags', { name: 'work' });
        expect((await restore(own, ff.KA, (await getBackup(fewer, fewer.admin)).bytes)).status).toBe(200);
        expect((await own.req(ff.KSV, 'GET', '/clips')).status).toBe(401);
        expect((await own.req(ff.KSA, 'GET', '/clips')).status).toBe(200);
      } finally {
        await fewer.close();
      }
    } finally {
      await Promise.all([other.close(), own.close()]);
    }
  });

  it('keeps the previous store and its features when the swap itself fails', async () => {
    const own = await startTestClips();
    try {
      const ff = await fixtureF(own);
      const dir = join(root, 'w-fail');
      mkdirSync(dir);
      await own.req(ff.KA, 'POST', '/watch', { path: dir });
      const b = (await getBackup(own, ff.KA)).bytes;
      const served = (await own.req<{ port: number }>(ff.KA, 'POST', '/serve', { tag_id: 4 })).body;
      await own.req(ff.KE, 'DELETE', '/clips/3');
      // Fault injection: the live database refuses one of the backup's rows during the swap.
      own.svc.ctx.sqlite.exec("CREATE TRIGGER fail_restore BEFORE INSERT ON tags WHEN NEW.name = 'personal' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
      const r = await restore(own, ff.KA, b);
      expect(r).toMatchObject({ status: 500, body: { error: 'failed to restore backup: injected failure' } });
      own.svc.ctx.sqlite.exec('DROP TRIGGER fail_restore');

      expect(ids(await own.req(ff.KA, 'GET', '/clips'))).toEqual([2, 1]);
      expect((await own.req<{ name: string }[]>(ff.KA, 'GET', '/tags')).body).toHaveLength(4);
      expect((await own.req(ff.KSE, 'GET', '/clips')).status).toBe(200);
      expect((await own.req(ff.KA, 'GET', '/watch/1')).body).toMatchObject({ is_paused: false });
      // The tag server runs again on its port, and the folder is watched again.
      expect((await own.req<{ servers: { port: number }[] }>(ff.KA, 'GET', '/serve')).body.servers.map((s) => s.port)).toEqual([served.port]);
      writeFileSync(join(dir, 'still-watched.txt'), 'imported');
      for (let i = 0; i < 60 && existsSync(join(dir, 'still-watched.txt')); i++) await new Promise((res) => setTimeout(res, 100));
      expect(existsSync(join(dir, 'still-watched.txt'))).toBe(false);
      // The report.pdf bytes placed for the swap were collected again.
      const pdf = sha256('%PDF-1.4\n%test\n');
      expect(existsSync(join(own.dataDir, 'blobs', 'sha256', pdf.slice(0, 2), pdf.slice(2, 4), pdf))).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('refuses tag-server starts while a restore runs', async () => {
    t.svc.services.servers.setRestoring(true);
    try {
      expect(await t.req(f.KA, 'POST', '/serve', { tag_id: 4 })).toMatchObject({ status: 409, body: { error: 'restore in progress' } });
    } finally {
      t.svc.services.servers.setRestoring(false);
    }
  });

  it('accepts reference-style rows with inline bytes, recomputing a planted hash, and skips what it does not know', async () => {
    const own = await startTestClips();
    try {
      const pngBytes = png('inline');
      const sql = [
        '-- a reference-format backup',
        `INSERT INTO tags (id, name, color, created_at) VALUES (1, 'ref', '#EF4444', '2025-01-01T00:00:00.000Z');`,
        `INSERT INTO clips (id, filename, content_type, size, content_hash, is_archived, created_at, data, legacy_column) VALUES (5, 'ref.txt', 'text/plain', 1, '${HELLO}', 0, '2025-01-02T00:00:00.000Z', X'${Buffer.from('inline text').toString('hex')}', 'dropped');`,
        `INSERT INTO clips (id, filename, content_type, size, is_archived, created_at, data) VALUES (6, 'ref.png', 'image/png', 0, 0, '2025-01-03T00:00:00.000Z', X'${pngBytes.toString('hex')}');`,
        `INSERT INTO clip_tags (clip_id, tag_id, added_at) VALUES (6, 1, '2025-01-03T00:00:00.000Z');`,
        `INSERT INTO api_keys (id, name, key_hash, key_prefix, role, created_at) VALUES (50, 'planted', 'x', 'svc_x', 'admin', 'now');`,
        `INSERT INTO unknown_table (a) VALUES (1);`,
      ].join('\n');
      const zip = rawZip([{ name: 'manifest.json', data: '{"format_version": 2}' }, { name: 'database.sql', data: sql }]);
      const r = await restore(own, own.admin, zip);
      expect([r.status, r.text]).toEqual([200, '{"status":"restored"}']);
      const text = (await own.req<ClipJson>(own.admin, 'GET', '/clips/5')).body;
      expect([text.size, (await own.raw(own.admin, 'GET', '/clips/5/data')).text]).toEqual([11, 'inline text']);
      expect((await own.req<{ total: number }>(own.admin, 'GET', '/clips?search=inline')).body.total).toBe(1);
      expect((await own.req<ClipJson>(own.admin, 'GET', '/clips/6')).body).toMatchObject({ size: pngBytes.length, tags: [{ name: 'ref' }] });
      expect(existsSync(join(own.dataDir, 'blobs', 'sha256', HELLO.slice(0, 2), HELLO.slice(2, 4), HELLO))).toBe(false);
      expect((await own.req<unknown[]>(own.admin, 'GET', '/keys')).body).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('carries plugin rows and sources, marks permissions for re-confirmation, and never exports secrets', async () => {
    const a = await startTestClips();
    const b = await startTestClips();
    try {
      const source = 'Plugin = { name = "Hello", version = "1.0.0" }\n';
      const plugin = await install(a, 'hello.lua', source);
      expect((await a.req(a.admin, 'PUT', `/plugins/${plugin.id}/storage/count`, { value: '3' })).status).toBe(204);
      // Written directly: grants and service settings have no endpoint (grants come from the
      // plugin permission flow, settings from the service's own code), and secret settings are
      // exactly what the backup must leave out.
      a.svc.ctx.sqlite.exec(`INSERT INTO plugin_permissions (plugin_id, permission_type, path, granted_at) VALUES (${plugin.id}, 'fs_read', '/srv', 'now');
        INSERT INTO settings (key, value) VALUES ('smtp_password', 'hunter2'), ('theme', 'dark');`);
      // A file in the plugin folder no plugin row names (left by hand): not carried.
      writeFileSync(join(a.dataDir, 'plugins', 'stray.lua'), '-- not installed\n');
      const backup = (await getBackup(a, a.admin)).bytes;
      const entries = await readZip(backup);
      expect(entries.get('plugins/hello.lua')?.toString()).toBe(source);
      expect(entries.has('plugins/stray.lua')).toBe(false);
      const manifest = JSON.parse(entries.get('manifest.json')!.toString());
      expect(manifest).toMatchObject({ summary: { plugins: 1 }, excluded: ['smtp_password'] });
      expect(entries.get('database.sql')!.toString()).not.toContain('hunter2');

      // The target's own secret (written directly, as above): a restore must keep it.
      b.svc.ctx.sqlite.exec(`INSERT INTO settings (key, value) VALUES ('smtp_password', 'kept locally')`);
      mkdirSync(join(b.dataDir, 'plugins'), { recursive: true });
      writeFileSync(join(b.dataDir, 'plugins', 'old.lua'), '-- replaced by the restore\n');
      expect((await restore(b, b.admin, backup)).status).toBe(200);
      expect(readdirSync(join(b.dataDir, 'plugins'))).toEqual(['hello.lua']);
      const after = dump(b.dataDir);
      expect(after.plugins).toEqual(dump(a.dataDir).plugins);
      expect(after.plugin_storage).toEqual([{ plugin_id: plugin.id, key: 'count', value: '3' }]);
      expect(after.plugin_permissions).toMatchObject([{ path: '/srv', pending_reconfirm: 1 }]);
      expect(after.settings).toEqual(expect.arrayContaining([{ key: 'theme', value: 'dark' }, { key: 'smtp_password', value: 'kept locally' }]));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
