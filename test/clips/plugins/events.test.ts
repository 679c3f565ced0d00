// Event delivery from every path that causes one (companion §8.5): the API, bulk operations,
// watch folders, the expiry sweep and a restore, each plugin seeing its events in order; loop
// protection; plugins in backups (T194) and reloaded by a restore.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, multipart, startTestClips, waitFor, type FixtureF, type TestClips } from '../helper.js';
import { readZip } from '../zip.js';
import { HELLO, install, settled, storage } from './helper.js';

let t: TestClips;
let F: FixtureF;

const EVENTS = ['app:startup', 'clip:created', 'clip:deleted', 'clip:archived', 'clip:unarchived', 'clip:renamed', 'watch:file_detected', 'watch:import_complete', 'tag:created', 'tag:added_to_clip', 'tag:removed_from_clip'];

/** Appends "<event> <id>" to storage `log` for every event. */
const TRACKER = `Plugin = { name = "Order", version = "1.0.0", events = {${EVENTS.map((e) => `"${e}"`).join(', ')}} }
local function add(line) storage.set("log", (storage.get("log") or "") .. line .. ";") end
function on_startup() add("startup") end
function on_clip_created(d) add("created " .. d.id) end
function on_clip_deleted(id) add("deleted " .. id) end
function on_clip_archived(d) add("archived " .. d.id) end
function on_clip_unarchived(d) add("unarchived " .. d.id) end
function on_clip_renamed(d) add("renamed " .. d.id) end
function on_watch_file_detected(d) add("detected " .. d.path:match("[^/]+$")) end
function on_watch_import_complete(d) add("imported " .. d.clip_id .. " " .. d.source_path:match("[^/]+$")) end
function on_tag_created(d) add("tag " .. d.name) end
function on_tag_added_to_clip(d) add("tagged " .. d.clip_id .. " " .. d.tag_id) end
function on_tag_removed_from_clip(d) add("untagged " .. d.clip_id .. " " .. d.tag_id) end
`;

let trackerId = 0;
const log = async () => ((await storage(t, trackerId)).log ?? '').split(';').filter(Boolean);
async function reset() {
  await settled(t);
  await t.req(F.KA, 'PUT', `/plugins/${trackerId}/storage/log`, { value: '' });
}

beforeAll(async () => {
  t = await startTestClips();
  F = await fixtureF(t);
  trackerId = (await install(t, 'order.lua', TRACKER)).id;
});
afterAll(async () => {
  await t.close();
});

describe('event order across paths', () => {
  it('API and bulk operations: one event per clip, in the order the changes happened', async () => {
    await reset();
    const a = (await t.upload(F.KE, { filename: 'a.txt', type: 'text/plain', data: 'order a' })).body.id;
    const b = (await t.upload(F.KE, { filename: 'b.txt', type: 'text/plain', data: 'order b' })).body.id;
    await t.req(F.KE, 'PATCH', `/clips/${a}`, { filename: 'a2.txt' });
    await t.req(F.KE, 'POST', '/clips/bulk/archive', { ids: [a, b] });
    await t.req(F.KE, 'POST', '/clips/bulk/tag', { ids: [a, b], tag_id: 4 });
    await t.req(F.KE, 'POST', '/clips/bulk/unarchive', { ids: [b] });
    await t.req(F.KE, 'POST', '/clips/bulk/delete', { ids: [a, b] });
    await settled(t);
    expect(await log()).toEqual([
      `created ${a}`,
      `created ${b}`,
      `renamed ${a}`,
      `archived ${a}`,
      `archived ${b}`,
      `tagged ${a} 4`,
      `tagged ${b} 4`,
      `unarchived ${b}`,
      `deleted ${a}`,
      `deleted ${b}`,
    ]);
  });

  it('watch folders: detected, created, imported', async () => {
    await reset();
    const dir = join(t.dir, 'watched');
    mkdirSync(dir);
    const folder = await t.req<{ id: number }>(F.KA, 'POST', '/watch', { path: dir });
    writeFileSync(join(dir, 'w1.txt'), 'watched one');
    await t.req(F.KA, 'POST', `/watch/${folder.body.id}/process`);
    await settled(t);
    const lines = await log();
    const created = lines.find((l) => l.startsWith('created '))!;
    const id = created.split(' ')[1];
    expect(lines).toEqual(['detected w1.txt', `created ${id}`, `imported ${id} w1.txt`]);
    await t.req(F.KA, 'DELETE', `/watch/${folder.body.id}`);
  });

  it('expiry: the cleanup sweep emits clip:deleted', async () => {
    const id = (await t.upload(F.KE, { filename: 'e.txt', type: 'text/plain', data: 'expires soon' })).body.id;
    await reset();
    await t.req(F.KE, 'PUT', `/clips/${id}/expiration`, { minutes: 1 });
    t.clock.advance(61_000);
    await t.svc.cleanup.runOnce();
    await settled(t);
    expect(await log()).toEqual([`deleted ${id}`]);
  });

  it('does not deliver a plugin its own changes (loop protection)', async () => {
    await reset();
    const self = await install(
      t,
      'self.lua',
      `Plugin = { name = "Self", version = "1.0.0", events = {"clip:created"}, ui = { global_actions = {{id = "make", label = "Make"}} } }
function on_clip_created(d) storage.set("heard", (storage.get("heard") or "") .. d.id .. ";") end
function on_ui_action() local c = clips.create({data = "made by self", content_type = "text/plain"}) return {success = true, result_clip_id = c.id} end`,
    );
    const made = (await t.req<{ result_clip_id: number }>(F.KE, 'POST', `/plugins/${self.id}/actions/make`, {})).body.result_clip_id;
    await settled(t);
    expect((await storage(t, self.id)).heard).toBeUndefined();
    expect(await log()).toEqual([`created ${made}`]);
    await t.req(F.KA, 'DELETE', `/plugins/${self.id}`);
  });
});

describe('backup and restore (T194)', () => {
  it('carries plugin sources and rows; a restore reloads plugins and sends app:startup', async () => {
    const hello = await install(t, 'hello.lua', HELLO);
    await reset();
    const res = await fetch(`${t.url}/api/v1/backup`, { headers: { authorization: `Bearer ${F.KA}` } });
    const zip = Buffer.from(await res.arrayBuffer());
    const entries = await readZip(zip);
    expect(entries.has('plugins/hello.lua')).toBe(true);
    expect(entries.has('plugins/order.lua')).toBe(true);
    expect(JSON.parse(entries.get('manifest.json')!.toString()).summary.plugins).toBe(2);
    expect(entries.get('database.sql')!.toString()).toContain('INSERT INTO plugins');

    // Changes after the backup disappear; the plugins come back loaded.
    await t.req(F.KA, 'DELETE', `/plugins/${hello.id}`);
    const form = multipart([{ name: 'file', filename: 'b.zip', type: 'application/zip', data: zip }]);
    const r = await t.raw(F.KA, 'POST', '/backup/restore', form.body, { 'content-type': form.contentType });
    expect(r.status).toBe(200);
    const plugins = (await t.req<{ plugins: { name: string; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins;
    expect(plugins.map((p) => [p.name, p.status])).toEqual([
      ['Hello', 'loaded'],
      ['Order', 'loaded'],
    ]);
    await waitFor(async () => (await log()).includes('startup'), 5000, 'app:startup after the restore');
    expect(await log()).toEqual(['startup']);
    // The restored Hello plugin reacts to events again.
    await t.upload(F.KE, { filename: 'after.txt', type: 'text/plain', data: 'after restore' });
    await settled(t);
    expect((await storage(t, hello.id)).count).toBe('1');
  });
});
