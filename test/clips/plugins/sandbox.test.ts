// What a clip plugin cannot reach (companion §8.4, §8.9): files outside its grants, hosts
// outside its allow-list or on private networks, processes, bytecode, and no loop or memory
// bomb keeps it running or takes the service down.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { fixtureF, startTestClips, waitFor, type FixtureF, type TestClips } from '../helper.js';
import { actionPlugin, freshUpload, install, pluginFile, settled, storage } from './helper.js';

let t: TestClips;
let F: FixtureF;
let web: StubServer;
let n = 0;

beforeAll(async () => {
  web = await startStubServer();
  web.routes.set('/ok', (_req, res) => res.writeHead(200).end('reached'));
  web.routes.set('/away', (_req, res) => res.writeHead(302, { location: 'https://elsewhere.example/' }).end());
  // No --allow-private-hosts: the stub on 127.0.0.1 is a private host.
  t = await startTestClips(['--plugin-handler-timeout-ms', '1000', '--plugin-action-timeout-ms', '3000']);
  F = await fixtureF(t);
});
afterAll(async () => {
  await t.close();
  await web.close();
});

/** Installs an action plugin, runs it and returns its storage and the action's answer. */
async function run(body: string, extra = '') {
  const name = `S${++n}`;
  const p = await install(t, `${name.toLowerCase()}.lua`, actionPlugin(name, body, extra));
  const r = await t.req<{ success: boolean; error?: string }>(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
  return { id: p.id, result: r.body, storage: await storage(t, p.id) };
}

const keep = 'local function keep(k, a, b) storage.set(k, tostring(a) .. " " .. tostring(b)) end\n';

describe('file system outside the grants', () => {
  it('refuses system files, the data directory, traversal, symlinks and NUL bytes', async () => {
    const outside = join(t.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret'), 'secret');
    const p = await install(
      t,
      'fsescape.lua',
      actionPlugin(
        'FsEscape',
        `${keep}
  keep("passwd", fs.read("/etc/passwd"))
  keep("environ", fs.read("/proc/self/environ"))
  keep("db", fs.read("${t.dataDir}/clips.db"))
  keep("source", fs.read("${t.dataDir}/plugins/fsescape.lua"))
  keep("up", fs.read("../../clips.db"))
  keep("abs_up", fs.read("${t.dataDir}/plugin-data/" .. storage.get("id") .. "/../../clips.db"))
  keep("nul", fs.read("x\\0y"))
  keep("dirlink", fs.read("escape/secret"))
  keep("writelink", fs.write("escape/new", "x"))
  keep("listroot", fs.list("/"))
  keep("exists", fs.exists("${outside}/secret"))
  keep("own", fs.write("mine.txt", "ok"))`,
        'filesystem = {read = true, write = true},',
      ),
    );
    const own = join(t.dataDir, 'plugin-data', String(p.id));
    mkdirSync(own, { recursive: true });
    symlinkSync(outside, join(own, 'escape'));
    await t.req(F.KA, 'PUT', `/plugins/${p.id}/storage/id`, { value: String(p.id) });
    expect((await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {})).body).toEqual({ success: true });
    const s = await storage(t, p.id);
    for (const k of ['passwd', 'environ', 'db', 'source', 'up', 'abs_up', 'nul', 'dirlink', 'listroot']) {
      expect(s[k], k).toMatch(/^nil permission denied: /);
    }
    expect(s.writelink).toMatch(/^false permission denied: /);
    expect(s.exists).toBe('false nil');
    expect(s.own).toBe('true nil');
  });
});

describe('network outside the allow-list', () => {
  it('refuses unlisted hosts, unlisted methods, private addresses and redirects that leave the list', async () => {
    const host = new URL(web.url).hostname;
    const { storage: s } = await run(
      `${keep}
  keep("unlisted", http.get("https://unlisted.example/"))
  keep("private", http.get("${web.url}/ok"))
  keep("localhost", http.get("http://localhost:${new URL(web.url).port}/ok"))
  keep("metadata", http.get("http://169.254.169.254/latest"))
  keep("method", http.delete("${web.url}/ok"))
  keep("fromurl", clips.create_from_url("${web.url}/ok"))
  keep("scheme", http.get("file:///etc/passwd"))`,
      `network = {["${host}"] = {"GET"}, ["localhost"] = {"GET"}},`,
    );
    expect(s.unlisted).toBe('nil domain not in allowlist: unlisted.example');
    expect(s.private).toMatch(/^nil blocked request/);
    expect(s.localhost).toMatch(/^nil blocked request/);
    expect(s.metadata).toBe('nil domain not in allowlist: 169.254.169.254');
    expect(s.method).toMatch(/DELETE not allowed/);
    expect(s.fromurl).toMatch(/^nil blocked request/);
    expect(s.scheme).toMatch(/^nil /);
  });

  it('refuses a redirect to a host outside the list even when private hosts are allowed', async () => {
    const open = await startTestClips(['--allow-private-hosts']);
    try {
      const host = new URL(web.url).hostname;
      const p = await install(open, 'redir.lua', actionPlugin('Redir', `  local r, e = http.get("${web.url}/away")\n  storage.set("r", tostring(e))\n  local ok = http.get("${web.url}/ok")\n  storage.set("ok", ok.body)`, `network = {["${host}"] = {"GET"}},`));
      await open.req(open.admin, 'POST', `/plugins/${p.id}/actions/run`, {});
      const s = await storage(open, p.id);
      expect(s.r).toMatch(/domain not in allowlist: elsewhere.example|non-https/);
      expect(s.ok).toBe('reached');
    } finally {
      await open.close();
    }
  });
});

describe('processes and bytecode', () => {
  it('offers no os, io, debug, package, require, load or string.dump', async () => {
    const { storage: s } = await run(`
  local names = {}
  for _, k in ipairs({"os", "io", "debug", "package", "require", "load", "loadstring", "dofile", "loadfile", "rawget", "rawset", "rawequal", "setmetatable", "getmetatable", "collectgarbage", "coroutine"}) do
    if _G[k] ~= nil then names[#names + 1] = k end
  end
  storage.set("present", table.concat(names, ","))
  storage.set("dump", tostring(string.dump))`);
    expect(s.present).toBe('');
    expect(s.dump).toBe('nil');
  });

  it('refuses a precompiled chunk as a source', async () => {
    const path = pluginFile(t, 'bytecode.lua', '\x1bLua\x54\x00Plugin = { name = "Byte" }');
    const r = await t.req<{ error: string }>(F.KA, 'POST', '/plugins', { source: path });
    expect(r.status).toBe(400);
  });
});

describe('loops and memory bombs', () => {
  it('stops a top-level infinite loop and refuses the install', async () => {
    const path = pluginFile(t, 'spin.lua', 'Plugin = { name = "Spin" }\nwhile true do end');
    const r = await t.req<{ error: string }>(F.KA, 'POST', '/plugins', { source: path });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^failed to load plugin: .*timed out/);
  });

  it('stops loops that pcall the timeout away, in actions too', async () => {
    const { result } = await run('  while true do pcall(function() while true do end end) end');
    expect(result.success).toBe(false);
  });

  it('fails memory bombs inside the plugin and keeps the plugin and the service usable', async () => {
    const { storage: s, id } = await run(`
  local ok1, e1 = pcall(string.rep, "x", 1024 * 1024 * 1024)
  storage.set("rep", tostring(ok1))
  local ok2 = pcall(function() local t = {} for i = 1, 1e9 do t[i] = i end end)
  storage.set("table", tostring(ok2))
  storage.set("after", "alive")`);
    expect(s.rep).toBe('false');
    expect(s.table).toBe('false');
    expect(s.after).toBe('alive');
    const again = await t.req<{ success: boolean }>(F.KE, 'POST', `/plugins/${id}/actions/run`, {});
    expect(again.body.success).toBe(true);
    expect((await freshUpload(t, F.KE)).status).toBe(201);
  });

  it('kills a VM stuck where the hook cannot reach, counts an error and starts the plugin afresh', async () => {
    const p = await install(t, 'stuck.lua', `Plugin = { name = "Stuck", version = "1.0.0", events = {"clip:created"} }
storage.set("loads", tostring((tonumber(storage.get("loads")) or 0) + 1))
function on_clip_created()
  -- Exponential backtracking inside string.find: C code, no VM instructions for the hook.
  string.find(string.rep("a", 40), string.rep("a?", 40) .. string.rep("a", 40) .. "b")
end`);
    await freshUpload(t, F.KE);
    await settled(t);
    await waitFor(async () => (await storage(t, p.id)).loads === '2', 10_000, 'the plugin to be started again');
    const plugin = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins.find((x) => x.id === p.id);
    expect(plugin!.status).toBe('loaded');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });

  it('counts an event handler that exhausts memory as an error, not a crash of the service', async () => {
    const p = await install(t, 'hog.lua', `Plugin = { name = "Hog", version = "1.0.0", events = {"clip:created"} }
function on_clip_created() local t = {} while true do t[#t + 1] = string.rep("z", 4096) .. #t end end`);
    for (let i = 0; i < 3; i++) await freshUpload(t, F.KE);
    await settled(t);
    const plugin = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins.find((x) => x.id === p.id);
    expect(plugin!.status).toBe('error');
    expect((await t.req(F.KV, 'GET', '/clips')).status).toBe(200);
  });
});
