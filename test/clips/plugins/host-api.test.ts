// Companion §15.15: schedules (T173), toasts (T174), the network allow-list (T175), file-system
// grants (T176), event payloads (T177, T212) and no rollback after an error (T214).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { fixtureF, sleep, startTestClips, waitFor, type FixtureF, type TestClips } from '../helper.js';
import { actionPlugin, freshUpload, install, settled, storage } from './helper.js';

let t: TestClips;
let F: FixtureF;
let web: StubServer;

beforeAll(async () => {
  web = await startStubServer();
  web.routes.set('/echo', (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain', 'x-seen': req.method ?? '' }).end(`${req.method} ${body}`));
  });
  web.routes.set('/to-http', (_req, res) => res.writeHead(302, { location: `${web.url}/echo` }).end());
  web.routes.set('/file.txt', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('downloaded'));
  t = await startTestClips(['--allow-private-hosts']);
  F = await fixtureF(t);
});
afterAll(async () => {
  await t.close();
  await web.close();
});

async function action(name: string, body: string, extra = ''): Promise<Record<string, string>> {
  const p = await install(t, `${name}.lua`, actionPlugin(name, body, extra));
  const r = await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
  if (r.status !== 200) throw new Error(r.text);
  return storage(t, p.id);
}

describe('schedules (T173)', () => {
  it('calls the named function every interval and stops when disabled', async () => {
    const p = await install(t, 'tick.lua', `Plugin = { name = "Tick", version = "1.0.0", schedules = {{name = "tick", interval = 1}, {name = "bad", interval = 0}} }
function tick() storage.set("ticks", tostring((tonumber(storage.get("ticks")) or 0) + 1)) end`);
    expect((await storage(t, p.id)).ticks).toBeUndefined();
    await waitFor(async () => Number((await storage(t, p.id)).ticks ?? 0) >= 2, 10_000, 'two ticks');
    await t.req(F.KA, 'PUT', `/plugins/${p.id}/disable`);
    const after = (await storage(t, p.id)).ticks;
    await sleep(2000);
    expect((await storage(t, p.id)).ticks).toBe(after);
  });
});

describe('toasts (T174)', () => {
  it('accepts five toasts a minute, cuts long messages', async () => {
    const p = await install(t, 'toast.lua', `Plugin = { name = "Toaster", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(d)
  local n = 0
  for i = 1, 10 do if toast.show(i == 1 and string.rep("x", 300) or "hi", "weird") == true then n = n + 1 end end
  storage.set("shown", tostring(n))
end`);
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await storage(t, p.id)).shown).toBe('5');
    const toasts = t.svc.services.pluginHost.activity.toasts.filter((x) => x.plugin === 'Toaster');
    expect(toasts[0].message).toBe(`${'x'.repeat(197)}...`);
    expect(toasts[0].type).toBe('info');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });
});

describe('network allow-list (T175)', () => {
  it('matches hosts exactly or one label under a wildcard, and checks the method', async () => {
    const s = await action(
      'Net',
      `  local r, e = http.get("https://example.com/")
  storage.set("a", tostring(r) .. " " .. tostring(e))
  r, e = http.post("https://api.example.com/")
  storage.set("b", tostring(r) .. " " .. tostring(e))
  r, e = http.get("https://a.b.example.com/")
  storage.set("c", tostring(e))
  r, e = http.get("ftp://example.com/")
  storage.set("d", tostring(r))`,
      'network = {["*.example.com"] = {"GET"}},',
    );
    expect(s.a).toBe('nil domain not in allowlist: example.com');
    expect(s.b).toMatch(/^nil .*POST not allowed/);
    expect(s.c).toBe('domain not in allowlist: a.b.example.com');
    expect(s.d).toBe('nil');
  });

  it('makes allowed requests and returns status, canonical headers and body', async () => {
    const host = new URL(web.url).host;
    const s = await action(
      'NetOk',
      `  local r = http.post("${web.url}/echo", {body = "ping", headers = {["X-Test"] = "1"}})
  storage.set("status", math.type(r.status) .. " " .. tostring(r.status))
  storage.set("body", r.body)
  storage.set("type", tostring(r.headers["Content-Type"]))
  storage.set("seen", tostring(r.headers["X-Seen"]))
  local g, e = http.put("${web.url}/echo")
  storage.set("put", tostring(e))
  local h, e2 = http.get("${web.url}/to-http")
  storage.set("redirect", tostring(e2))
  local made = clips.create_from_url("${web.url}/file.txt")
  storage.set("made", tostring(made and made.id))`,
      `network = {["${host.split(':')[0]}"] = {"GET", "post"}},`,
    );
    expect(s.status).toBe('integer 200');
    expect(s.body).toBe('POST ping');
    expect(s.type).toBe('text/plain');
    expect(s.seen).toBe('POST');
    expect(s.put).toMatch(/PUT not allowed/);
    expect(s.redirect).toMatch(/non-https/);
    const clip = await t.req<{ filename: string }>(F.KE, 'GET', `/clips/${s.made}`);
    expect(clip.body.filename).toBe('file.txt');
    expect((await t.raw(F.KE, 'GET', `/clips/${s.made}/data`)).text).toBe('downloaded');
  });
});

describe('file system (T176)', () => {
  it('confines reads and writes to the private directory and granted folders', async () => {
    const granted = join(t.dir, 'granted');
    mkdirSync(granted);
    writeFileSync(join(granted, 'in.txt'), 'inside');
    writeFileSync(join(t.dir, 'secret.txt'), 'secret');
    symlinkSync(join(t.dir, 'secret.txt'), join(granted, 'link.txt'));
    const src = actionPlugin(
      'Files',
      `  local dir = "${t.dataDir}/plugin-data/" .. storage.get("id")
  local function keep(k, a, b) storage.set(k, tostring(a) .. " " .. tostring(b)) end
  keep("etc", fs.read("/etc/hostname"))
  keep("write", fs.write(dir .. "/x.txt", "1"))
  keep("read", fs.read(dir .. "/x.txt"))
  keep("rel", fs.read("x.txt"))
  keep("granted", fs.read("${granted}/in.txt"))
  keep("grantedWrite", fs.write("${granted}/new.txt", "no"))
  keep("link", fs.read("${granted}/link.txt"))
  keep("traverse", fs.read("${granted}/../secret.txt"))
  keep("exists", fs.exists("/etc/hostname"))
  keep("existsOwn", fs.exists(dir .. "/x.txt"))
  local list = fs.list(dir)
  keep("list", list[1].name, math.type(list[1].size))`,
      'filesystem = {read = true, write = true},',
    );
    const p = await install(t, 'files.lua', src);
    await t.req(F.KA, 'PUT', `/plugins/${p.id}/storage/id`, { value: String(p.id) });
    await t.svc.services.plugins['repo'].addGrant(p.id, 'fs_read', granted, 'now');
    await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
    const s = await storage(t, p.id);
    expect(s.etc).toBe('nil permission denied: /etc/hostname');
    expect(s.write).toBe('true nil');
    expect(s.read).toBe('1 nil');
    expect(s.rel).toBe('1 nil');
    expect(s.granted).toBe('inside nil');
    expect(s.grantedWrite).toBe(`false permission denied: ${granted}/new.txt`);
    expect(s.link).toBe(`nil permission denied: ${granted}/link.txt`);
    expect(s.traverse).toMatch(/^nil permission denied/);
    expect(s.exists).toBe('false nil');
    expect(s.existsOwn).toBe('true nil');
    expect(s.list).toBe('x.txt integer');
  });

  it('refuses everything without the declared capability', async () => {
    const s = await action('NoFiles', '  local a, b = fs.write("x.txt", "1")\n  storage.set("w", tostring(a) .. " " .. tostring(b))');
    expect(s.w).toBe('false permission denied: x.txt');
  });
});

describe('events (T177, T212, T214)', () => {
  it('delivers renames and tag moves with their payloads (T177)', async () => {
    const all = ['app:startup', 'app:shutdown', 'clip:created', 'clip:deleted', 'clip:archived', 'clip:unarchived', 'clip:renamed', 'watch:file_detected', 'watch:import_complete', 'tag:created', 'tag:updated', 'tag:deleted', 'tag:added_to_clip', 'tag:removed_from_clip'];
    const handlers = all
      .map((e) => {
        const fn = e.startsWith('app:') ? `on_${e.slice(4)}` : `on_${e.replace(':', '_')}`;
        return `function ${fn}(d) storage.set("${e}", json.encode(d)) end`;
      })
      .join('\n');
    const p = await install(t, 'tracker.lua', `Plugin = { name = "Tracker", version = "1.0.0", events = {${all.map((e) => `"${e}"`).join(', ')}} }\n${handlers}`);
    expect((await t.req(F.KE, 'PATCH', '/clips/1', { filename: 'n2.txt' })).status).toBe(204);
    expect((await t.req(F.KE, 'PUT', '/clips/1/tags/3')).status).toBe(204);
    await settled(t);
    const s = await storage(t, p.id);
    expect(JSON.parse(s['clip:renamed'])).toEqual({ filename: 'n2.txt', id: 1 });
    expect(JSON.parse(s['tag:removed_from_clip'])).toEqual({ clip_id: 1, tag_id: 2 });
    expect(JSON.parse(s['tag:added_to_clip'])).toEqual({ clip_id: 1, tag_id: 3 });
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });

  it('hands integers to Lua as integers (T212)', async () => {
    const p = await install(t, 'ints.lua', `Plugin = { name = "Ints", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(data)
  storage.set("id", math.type(data.id) .. " " .. tostring(data.id))
  storage.set("time", math.type(utils.time()))
  storage.set("created", tostring(clips.list({limit = 1})[1].created_at))
  storage.set("json", json.encode({id = data.id}))
  storage.set("decoded", "n=" .. json.decode('{"n":7}').n)
end`);
    const r = await freshUpload(t, F.KE);
    await settled(t);
    const s = await storage(t, p.id);
    const id = (r.body as { id: number }).id;
    expect(s.id).toBe(`integer ${id}`);
    expect(s.time).toBe('integer');
    expect(s.created).toMatch(/^\d+$/);
    expect(s.json).toBe(`{"id":${id}}`);
    expect(s.decoded).toBe('n=7');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });

  it('keeps what a handler wrote before it failed (T214)', async () => {
    const p = await install(t, 'late.lua', `Plugin = { name = "Late", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(data)
  storage.set("before", "1")
  clips.create({data = "side", content_type = "text/plain"})
  error("late")
end`);
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await t.req(F.KA, 'GET', `/plugins/${p.id}/storage/before`)).body).toEqual({ key: 'before', value: '1' });
    expect((await t.req<{ total: number }>(F.KE, 'GET', '/clips?search=side')).body.total).toBe(1);
    const plugin = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins.find((x) => x.id === p.id);
    expect(plugin!.status).toBe('loaded');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });
});
