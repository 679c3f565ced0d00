// Watch folders on real temporary directories (companion §7, test cases T139–T153): filters,
// auto-archive and auto-tag, dot-files and sub-directories, moves and pieces, pauses, the scan
// of existing files, folders that vanish and come back, the size limit, and events.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WatchRepository } from '../../src/clips/watch/repository.js';
import { fixtureF, png, sleep, startTestClips, waitFor, type ClipJson, type FixtureF, type TestClips } from './helper.js';

const root = mkdtempSync(join(tmpdir(), 'stacks-watch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let seq = 0;
/** A fresh empty directory. */
function folder(): string {
  const dir = join(root, `w${++seq}`);
  mkdirSync(dir);
  return dir;
}

interface Folder {
  id: number;
  path: string;
  filter_mode: string;
  filter_presets: string[];
  filter_regex: string;
  auto_archive: boolean;
  auto_tag_id: number | null;
  is_paused: boolean;
  exists: boolean;
}

let t: TestClips;
let f: FixtureF;
beforeAll(async () => {
  t = await startTestClips(['--watch-debounce-ms', '100', '--watch-recheck-ms', '200']);
  f = await fixtureF(t);
});
afterAll(async () => t?.close());

async function watch(body: Record<string, unknown>): Promise<Folder> {
  const r = await t.req<Folder>(f.KA, 'POST', '/watch', body);
  if (r.status !== 201) throw new Error(`POST /watch: ${r.status} ${r.text}`);
  return r.body;
}

async function clipNamed(name: string): Promise<ClipJson | undefined> {
  const r = await t.req<{ clips: ClipJson[] }>(f.KA, 'GET', `/clips?search=${encodeURIComponent(name)}&limit=200`);
  return r.body.clips.find((c) => c.filename === name);
}

const imported = (name: string): Promise<ClipJson> => waitFor(() => clipNamed(name), 5000, `clip ${name}`) as Promise<ClipJson>;

describe('creating and reading', () => {
  it('creates a folder (T139), refuses the same path again (T146), and stores it normalised', async () => {
    const dir = folder();
    const r = await t.req<Folder & { created_at: string }>(f.KA, 'POST', '/watch', { path: `${dir}/../${dir.split('/').pop()}/`, filter_mode: 'presets', filter_presets: ['images'] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: r.body.id, path: dir, filter_mode: 'presets', filter_presets: ['images'], filter_regex: '', process_existing: false,
      auto_archive: false, auto_tag_id: null, is_paused: false, created_at: r.body.created_at, exists: true,
    });
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await t.req(f.KA, 'POST', '/watch', { path: dir })).toMatchObject({ status: 409, body: { error: 'folder is already watched' } });
    expect((await t.req<Folder>(f.KV, 'GET', `/watch/${r.body.id}`)).body.path).toBe(dir);
  });

  it('answers 409 when the unique index, not the lookup, finds the duplicate (T146 under a race)', async () => {
    // Two requests for one path can both pass the service's lookup before either inserts. Within
    // one process the lookup and the insert run without a pause in between, so the race is
    // simulated: the lookup misses once, as it would for the second of two racing requests.
    const dir = folder();
    expect((await t.req(f.KA, 'POST', '/watch', { path: dir })).status).toBe(201);
    const lookup = vi.spyOn(WatchRepository.prototype, 'findByPath').mockResolvedValueOnce(undefined);
    try {
      expect(await t.req(f.KA, 'POST', '/watch', { path: dir })).toMatchObject({ status: 409, body: { error: 'folder is already watched' } });
      expect(lookup).toHaveBeenCalledTimes(1);
    } finally {
      lookup.mockRestore();
    }
    const listed = (await t.req<{ folders: Folder[] }>(f.KV, 'GET', '/watch')).body.folders.filter((w) => w.path === dir);
    expect(listed).toHaveLength(1);
  });

  it('validates every field (T145)', async () => {
    const dir = folder();
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const dataLink = join(dir, 'data-link');
    symlinkSync(join(t.dataDir, 'blobs'), dataLink);
    const cases: [unknown, string | RegExp][] = [
      [{}, 'path is required'],
      [{ path: 'rel/dir' }, 'path must be absolute: rel/dir'],
      [{ path: '/does/not/exist' }, 'folder does not exist: /does/not/exist'],
      [{ path: file }, `not a directory: ${file}`],
      [{ path: dir, filter_mode: 'some' }, /^invalid filter_mode/],
      [{ path: dir, filter_presets: ['audio'] }, /^invalid filter preset: audio/],
      [{ path: dir, filter_presets: 'images' }, 'filter_presets must be an array of strings'],
      [{ path: dir, filter_mode: 'custom', filter_regex: '(' }, /^invalid filter_regex: /],
      [{ path: dir, auto_tag_id: 999 }, 'tag not found'],
      [{ path: dir, auto_tag_id: -1 }, /^auto_tag_id must be/],
      [{ path: dir, auto_archive: 'yes' }, 'auto_archive must be a boolean'],
      [{ path: 5 }, 'path must be a string'],
      [{ path: t.dataDir }, 'folder is inside the clip data directory'],
      [{ path: join(t.dataDir, 'blobs') }, 'folder is inside the clip data directory'],
      [{ path: dataLink }, 'folder is inside the clip data directory'],
    ];
    for (const [body, message] of cases) {
      const r = await t.req<{ error: string }>(f.KA, 'POST', '/watch', body);
      expect(`${JSON.stringify(body)} → ${r.status}`).toBe(`${JSON.stringify(body)} → 400`);
      expect(r.body.error).toMatch(message);
    }
    expect((await t.req(f.KE, 'POST', '/watch', { path: dir })).status).toBe(403);
    expect((await t.req<{ folders: Folder[] }>(f.KA, 'GET', '/watch')).body.folders.some((x) => x.path === dir)).toBe(false);
  });

  it('refuses patterns outside the safe subset: backreferences, lookaround, nested repetition', async () => {
    const dir = folder();
    for (const [regex, reason] of [
      ['(a)\\1', 'backreferences are not supported'],
      ['\\k<n>(?<n>a)', 'backreferences are not supported'],
      ['^(?=x).png$', 'lookaround is not supported'],
      ['(?<!x)\\.png$', 'lookaround is not supported'],
      ['^(a+)+$', 'nested repetition'],
      ['((ab)*c)*', 'nested repetition'],
    ]) {
      const r = await t.req<{ error: string }>(f.KA, 'POST', '/watch', { path: dir, filter_mode: 'custom', filter_regex: regex });
      expect([regex, r.status, r.body.error]).toEqual([regex, 400, expect.stringContaining(reason)]);
    }
    // Safe shapes are fine, also when the mode does not use the pattern.
    const ok = await watch({ path: dir, filter_mode: 'presets', filter_presets: ['videos'], filter_regex: '^(IMG|DSC)_\\d{4}\\.(jpe?g|png)$' });
    expect(ok.filter_regex).toBe('^(IMG|DSC)_\\d{4}\\.(jpe?g|png)$');
    await t.req(f.KA, 'DELETE', `/watch/${ok.id}`);
  });
});

describe('importing', () => {
  it('imports files matching a preset and removes them; other files stay (T140), with its events in order', async () => {
    const dir = folder();
    const w = await watch({ path: dir, filter_mode: 'presets', filter_presets: ['images'] });
    const events: string[] = [];
    const off = t.svc.ctx.events.subscribe((name, payload) => {
      if (name.startsWith('watch:') || name === 'clip:created') {
        events.push(`${name} ${JSON.stringify(payload)}`);
        // The source is deleted only after the row committed and the events went out.
        if (name === 'watch:import_complete') events.push(`source still there: ${existsSync(join(dir, 'a.PNG'))}`);
      }
    });
    writeFileSync(join(dir, 'a.PNG'), png('t140'));
    writeFileSync(join(dir, 'b.txt'), 'not an image');
    const clip = await imported('a.PNG');
    off();
    expect(clip).toMatchObject({ content_type: 'image/png', size: png('t140').length, is_archived: false, tags: [] });
    await waitFor(() => !existsSync(join(dir, 'a.PNG')), 2000, 'a.PNG removed');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('not an image');
    expect(await clipNamed('b.txt')).toBeUndefined();
    const data = await t.raw(f.KA, 'GET', `/clips/${clip.id}/data`);
    expect(Buffer.from(data.text, 'latin1').length).toBe(png('t140').length);
    const path = join(dir, 'a.PNG');
    expect(events).toEqual([
      `watch:file_detected ${JSON.stringify({ path, folder_id: w.id })}`,
      `clip:created ${JSON.stringify({ id: clip.id, content_type: 'image/png', filename: 'a.PNG', size: png('t140').length })}`,
      `watch:import_complete ${JSON.stringify({ clip_id: clip.id, source_path: path, folder_id: w.id })}`,
      'source still there: true',
    ]);
  });

  it('ignores dot-files, sub-directories and links (T141)', async () => {
    const dir = folder();
    await watch({ path: dir });
    writeFileSync(join(dir, '.h.png'), png('hidden'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'c.png'), png('sub'));
    const target = join(folder(), 'target.txt');
    writeFileSync(target, 'secret');
    symlinkSync(target, join(dir, 'link.txt'));
    writeFileSync(join(dir, 'marker.txt'), 'imported last');
    await imported('marker.txt');
    await sleep(300);
    for (const name of ['.h.png', 'c.png', 'link.txt']) expect(await clipNamed(name)).toBeUndefined();
    expect(existsSync(join(dir, '.h.png')) && existsSync(join(dir, 'sub', 'c.png')) && existsSync(join(dir, 'link.txt'))).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('secret');
  });

  it('matches a custom pattern against the base name, case-sensitively (T142)', async () => {
    const dir = folder();
    await watch({ path: dir, filter_mode: 'custom', filter_regex: '^shot_.*\\.png$' });
    for (const name of ['shot_1.png', 'Shot_2.png', 'xshot_1.png']) writeFileSync(join(dir, name), png(name));
    await imported('shot_1.png');
    await sleep(300);
    expect(await clipNamed('Shot_2.png')).toBeUndefined();
    expect(await clipNamed('xshot_1.png')).toBeUndefined();
  });

  it('archives and tags imports (T143), keeping same-root exclusivity', async () => {
    const dir = folder();
    await watch({ path: dir, auto_archive: true, auto_tag_id: 4 });
    writeFileSync(join(dir, 'x.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    const clip = await imported('x.jpg');
    expect(clip).toMatchObject({ content_type: 'image/jpeg', is_archived: true, tags: [{ id: 4, name: 'personal' }] });
  });

  it('imports files moved in and files written in pieces, once, with all their bytes', async () => {
    const dir = folder();
    await watch({ path: dir });
    const outside = join(folder(), 'moved.txt');
    writeFileSync(outside, 'moved in');
    renameSync(outside, join(dir, 'moved.txt'));
    expect(await imported('moved.txt')).toMatchObject({ content_type: 'text/plain', size: 8 });
  });

  it('takes the type from the extension first, then the bytes', async () => {
    const dir = folder();
    await watch({ path: dir });
    writeFileSync(join(dir, 'data.json'), '{"a":1}');
    writeFileSync(join(dir, 'noext'), png('noext'));
    writeFileSync(join(dir, 'notes.md'), '# title');
    expect((await imported('data.json')).content_type).toBe('application/json');
    expect((await imported('noext')).content_type).toBe('image/png');
    expect((await imported('notes.md')).content_type).toBe('text/markdown');
  });

  it('scans existing files after answering when process_existing is set (T144)', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.txt'), 'existing a');
    writeFileSync(join(dir, 'b.txt'), 'existing b');
    writeFileSync(join(dir, '.dot.txt'), 'hidden');
    const w = await watch({ path: dir, process_existing: true });
    expect(w).toMatchObject({ process_existing: true });
    await imported('a.txt');
    await imported('b.txt');
    await waitFor(() => !existsSync(join(dir, 'a.txt')) && !existsSync(join(dir, 'b.txt')), 2000, 'folder emptied');
    expect(existsSync(join(dir, '.dot.txt'))).toBe(true);
  });

  it('imports files that arrive while a scan empties the folder', async () => {
    const dir = folder();
    for (let i = 0; i < 150; i++) writeFileSync(join(dir, `bulk-${String(i).padStart(3, '0')}.txt`), `bulk file ${i}`);
    const w = await watch({ path: dir, process_existing: true });
    await waitFor(() => readdirSync(dir).length < 150, 5000, 'the scan to start');
    writeFileSync(join(dir, 'late.txt'), 'arrived during the scan');
    await waitFor(() => readdirSync(dir).length === 0, 20000, 'the folder to be emptied');
    expect(await clipNamed('late.txt')).toBeDefined();
    expect(await clipNamed('bulk-149.txt')).toBeDefined();
    // The watcher is back afterwards.
    writeFileSync(join(dir, 'after-scan.txt'), 'watched again');
    await imported('after-scan.txt');
    await t.req(f.KA, 'DELETE', `/watch/${w.id}`);
  });

  it('takes a burst of files, written fresh or moved in, all of them', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    const outside = folder();
    for (let i = 0; i < 80; i++) writeFileSync(join(outside, `moved-${i}.txt`), `moved ${i}`);
    for (let i = 0; i < 80; i++) renameSync(join(outside, `moved-${i}.txt`), join(dir, `moved-${i}.txt`));
    for (let i = 0; i < 80; i++) writeFileSync(join(dir, `fresh-${i}.txt`), `fresh ${i}`);
    await waitFor(() => readdirSync(dir).length === 0, 30000, 'the burst to be imported');
    const listed = await t.req<{ total: number }>(f.KA, 'GET', '/clips?search=fresh-&limit=1');
    expect(listed.body.total).toBe(80);
    expect((await t.req<{ total: number }>(f.KA, 'GET', '/clips?search=moved-&limit=1')).body.total).toBe(80);
    writeFileSync(join(dir, 'after-burst.txt'), 'watched again');
    await imported('after-burst.txt');
    await t.req(f.KA, 'DELETE', `/watch/${w.id}`);
  });

  it('leaves files over 100 MiB in place', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    const big = join(dir, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, 100 * 1024 * 1024 + 1);
    writeFileSync(join(dir, 'after-big.txt'), 'small');
    await imported('after-big.txt');
    expect((await t.req(f.KA, 'POST', `/watch/${w.id}/process`)).status).toBe(204);
    expect(existsSync(big)).toBe(true);
    expect(await clipNamed('big.bin')).toBeUndefined();
  });

  it('makes a new clip for known content, which GET /dedup then lists', async () => {
    const dir = folder();
    await watch({ path: dir });
    const before = (await t.req<{ groups: unknown[] }>(f.KA, 'GET', '/dedup')).body.groups.length;
    writeFileSync(join(dir, 'again.txt'), 'hello world');
    await imported('again.txt');
    writeFileSync(join(dir, 'again2.txt'), 'hello world');
    await imported('again2.txt');
    const groups = (await t.req<{ groups: { content_hash: string; count: number; oldest_id: number }[] }>(f.KA, 'GET', '/dedup')).body.groups;
    expect(groups.length).toBe(before + 1);
    expect(groups.find((g) => g.content_hash.startsWith('b94d27b9'))).toMatchObject({ count: 3, oldest_id: 1 });
  });
});

describe('changing, pausing, deleting', () => {
  it('updates only the fields sent (T147)', async () => {
    const dir = folder();
    const w = await watch({ path: dir, filter_mode: 'presets', filter_presets: ['images'] });
    const get = async () => (await t.req<Folder>(f.KA, 'GET', `/watch/${w.id}`)).body;
    expect((await t.req(f.KA, 'PUT', `/watch/${w.id}`, { auto_archive: true })).status).toBe(204);
    expect(await get()).toMatchObject({ filter_mode: 'presets', filter_presets: ['images'], auto_archive: true });
    await t.req(f.KA, 'PUT', `/watch/${w.id}`, { auto_tag_id: 4 });
    expect((await get()).auto_tag_id).toBe(4);
    await t.req(f.KA, 'PUT', `/watch/${w.id}`, { auto_tag_id: null });
    expect((await get()).auto_tag_id).toBeNull();
    await t.req(f.KA, 'PUT', `/watch/${w.id}`, { auto_tag_id: 4 });
    await t.req(f.KA, 'PUT', `/watch/${w.id}`, { auto_tag_id: 0 });
    expect((await get()).auto_tag_id).toBeNull();
    expect(await t.req(f.KA, 'PUT', `/watch/${w.id}`, { path: folder() })).toMatchObject({ status: 400, body: { error: 'path cannot be changed' } });
    expect((await t.req(f.KA, 'PUT', `/watch/${w.id}`, { path: dir })).status).toBe(204);
    expect((await t.req(f.KA, 'PUT', `/watch/${w.id}`, { filter_regex: '(x+)*' })).status).toBe(400);
    expect((await t.req(f.KA, 'PUT', '/watch/999', {})).status).toBe(404);
    // A changed filter takes effect on the running watcher.
    await t.req(f.KA, 'PUT', `/watch/${w.id}`, { filter_mode: 'all' });
    writeFileSync(join(dir, 'now-all.txt'), 'all mode');
    await imported('now-all.txt');
  });

  it('pauses and resumes one folder; the explicit scan runs while paused (T148)', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    expect((await t.req(f.KA, 'PUT', `/watch/${w.id}/pause`)).status).toBe(204);
    expect((await t.req(f.KA, 'PUT', `/watch/${w.id}/pause`)).status).toBe(204);
    writeFileSync(join(dir, 'p-a.txt'), 'while paused');
    await sleep(500);
    expect(await clipNamed('p-a.txt')).toBeUndefined();
    expect((await t.req(f.KA, 'DELETE', `/watch/${w.id}/pause`)).status).toBe(204);
    await sleep(500);
    expect(await clipNamed('p-a.txt')).toBeUndefined();
    writeFileSync(join(dir, 'p-b.txt'), 'after resume');
    await imported('p-b.txt');
    await t.req(f.KA, 'PUT', `/watch/${w.id}/pause`);
    expect((await t.req(f.KA, 'POST', `/watch/${w.id}/process`)).status).toBe(204);
    expect(await clipNamed('p-a.txt')).toBeDefined();
    expect(existsSync(join(dir, 'p-a.txt'))).toBe(false);
    await t.req(f.KA, 'DELETE', `/watch/${w.id}`);
  });

  it('pauses everything globally without clearing folder pauses (T149, T150)', async () => {
    const fresh = await startTestClips(['--watch-debounce-ms', '100']);
    try {
      const KA = fresh.admin;
      const dir = folder();
      const w = (await fresh.req<Folder>(KA, 'POST', '/watch', { path: dir })).body;
      expect((await fresh.req(KA, 'PUT', '/watch/global-pause')).status).toBe(204);
      expect((await fresh.req(KA, 'GET', '/watch/status')).body).toEqual({ global_paused: true, active_count: 1, total_count: 1, is_watching: false });
      writeFileSync(join(dir, 'g.txt'), 'global pause');
      await sleep(500);
      expect(existsSync(join(dir, 'g.txt'))).toBe(true);
      expect((await fresh.req(KA, 'DELETE', '/watch/global-pause')).status).toBe(204);
      expect((await fresh.req(KA, 'GET', '/watch/status')).body).toEqual({ global_paused: false, active_count: 1, total_count: 1, is_watching: true });
      writeFileSync(join(dir, 'g2.txt'), 'watching again');
      await waitFor(() => !existsSync(join(dir, 'g2.txt')), 5000, 'g2 imported');

      await fresh.req(KA, 'PUT', `/watch/${w.id}/pause`);
      await fresh.req(KA, 'PUT', '/watch/global-pause');
      await fresh.req(KA, 'DELETE', '/watch/global-pause');
      expect((await fresh.req<Folder>(KA, 'GET', `/watch/${w.id}`)).body.is_paused).toBe(true);
      expect((await fresh.req(KA, 'GET', '/watch/status')).body).toMatchObject({ active_count: 0, is_watching: false });
    } finally {
      await fresh.close();
    }
  });

  it('reports a removed folder and watches it again once it is back (T151)', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    rmSync(dir, { recursive: true });
    const listed = (await t.req<{ folders: Folder[]; total: number }>(f.KV, 'GET', '/watch')).body;
    expect(listed.folders.find((x) => x.id === w.id)).toMatchObject({ exists: false });
    expect(listed.total).toBe(listed.folders.length);
    expect((await t.req(f.KA, 'POST', `/watch/${w.id}/process`)).body).toEqual({ error: `folder does not exist: ${dir}` });
    mkdirSync(dir);
    expect((await t.req<Folder>(f.KV, 'GET', `/watch/${w.id}`)).body.exists).toBe(true);
    // Picked up by the periodic re-check (every 200 ms in this test).
    await sleep(600);
    writeFileSync(join(dir, 'came-back.txt'), 'folder is back');
    await imported('came-back.txt');
  });

  it('stops watching a deleted folder; unknown ids answer 404 (T152)', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    writeFileSync(join(dir, 'kept.txt'), 'imported before delete');
    await imported('kept.txt');
    expect((await t.req(f.KA, 'GET', '/watch/999')).body).toEqual({ error: 'watch folder not found' });
    expect((await t.req(f.KA, 'DELETE', `/watch/${w.id}`)).status).toBe(204);
    writeFileSync(join(dir, 'after-delete.txt'), 'not imported');
    await sleep(500);
    expect(existsSync(join(dir, 'after-delete.txt'))).toBe(true);
    expect(await clipNamed('kept.txt')).toBeDefined();
    for (const [method, path] of [['DELETE', `/watch/${w.id}`], ['PUT', '/watch/999/pause'], ['DELETE', '/watch/999/pause'], ['POST', '/watch/999/process'], ['GET', '/watch/999']]) {
      expect(`${method} ${path} → ${(await t.req(f.KA, method, path)).status}`).toBe(`${method} ${path} → 404`);
    }
    expect((await t.req(f.KA, 'GET', '/watch/abc')).status).toBe(400);
  });

  it('lets viewers read and only admins change, scoped or not (T153)', async () => {
    const dir = folder();
    const w = await watch({ path: dir });
    expect((await t.req(f.KV, 'GET', '/watch')).status).toBe(200);
    expect((await t.req(f.KV, 'GET', '/watch/status')).status).toBe(200);
    expect((await t.req(f.KV, 'GET', `/watch/${w.id}`)).status).toBe(200);
    for (const [method, path] of [['PUT', `/watch/${w.id}/pause`], ['PUT', '/watch/global-pause'], ['DELETE', '/watch/global-pause'], ['PUT', `/watch/${w.id}`], ['DELETE', `/watch/${w.id}`], ['POST', `/watch/${w.id}/process`]]) {
      expect(`${method} ${path} → ${(await t.req(f.KE, method, path, {})).status}`).toBe(`${method} ${path} → 403`);
    }
    // Watch folders are not confined by tag scope: a scoped admin manages them by role.
    expect((await t.req(f.KSA, 'PUT', `/watch/${w.id}/pause`)).status).toBe(204);
    expect((await t.req(f.KSV, 'GET', `/watch/${w.id}`)).status).toBe(200);
    expect((await t.req(null, 'GET', '/watch')).status).toBe(401);
  });
});

describe('debounce', () => {
  it('imports a file written in pieces 500 ms after its last write, once, whole', async () => {
    const d = await startTestClips();
    try {
      const dir = folder();
      expect((await d.req(d.admin, 'POST', '/watch', { path: dir })).status).toBe(201);
      const file = join(dir, 'pieces.txt');
      writeFileSync(file, 'one ');
      for (const piece of ['two ', 'three ', 'four']) {
        await sleep(250);
        appendFileSync(file, piece);
      }
      await sleep(250);
      // Less than 500 ms after the last write: still waiting.
      expect(existsSync(file)).toBe(true);
      await waitFor(() => !existsSync(file), 5000, 'pieces imported');
      const list = (await d.req<{ clips: ClipJson[] }>(d.admin, 'GET', '/clips')).body.clips;
      expect(list.map((c) => [c.filename, c.size])).toEqual([['pieces.txt', 18]]);
      expect((await d.raw(d.admin, 'GET', `/clips/${list[0].id}/data`)).text).toBe('one two three four');
    } finally {
      await d.close();
    }
  });
});
