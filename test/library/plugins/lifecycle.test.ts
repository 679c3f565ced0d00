// library-plugins.md §32.2: settings, lifecycle, dependencies, consent (T-016 … T-030).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, writePlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const BANNER = `plugin = {
  name = "banner-fixture", version = "1.0",
  settings = {
    { name = "text",    type = "string",   label = "Banner Text", default = "Hello banner" },
    { name = "token",   type = "password", label = "Token", required = true },
    { name = "visible", type = "boolean",  label = "Visible", default = true },
    { name = "tone",    type = "select",   label = "Tone", options = { "calm", "loud" }, default = "calm" },
    { name = "limit",   type = "number",   label = "Limit", default = 5 },
  },
}
function init()
  mah.api("GET", "settings", function(ctx)
    local out = {}
    for _, k in ipairs({ "text", "token", "visible", "tone", "limit" }) do
      local v = mah.get_setting(k)
      out[#out + 1] = k .. "=" .. tostring(v) .. ":" .. type(v)
    end
    ctx.json({ s = table.concat(out, ";") })
  end)
end`;

const KV = `plugin = { name = "kv-fixture", api_version = 1, capabilities = { "kv", "api" } }
function init()
  mah.api("POST", "set", function(ctx) local r = mah.json.decode(ctx.body); mah.kv.set(r.key, r.value); ctx.json({ ok = true }) end)
  mah.api("GET", "get", function(ctx) local v = mah.kv.get(ctx.query.key); ctx.json({ found = v ~= nil, value = v }) end)
  mah.api("GET", "list", function(ctx) ctx.json({ keys = mah.kv.list(ctx.query.prefix) }) end)
end`;

const plugins: Record<string, string> = {
  'banner-fixture': BANNER,
  'kv-fixture': KV,
  'echo-api': 'plugin = { name = "echo-api", version = "1.0" }\nfunction init() mah.api("GET", "echo", function(ctx) ctx.json({ ok = true }) end) end',
  base: 'plugin = { name = "base", api_version = 1 }',
  addon: 'plugin = { name = "addon", api_version = 1, dependencies = { "base" } }',
  aaa: 'plugin = { name = "aaa", api_version = 1, capabilities = { "api" }, dependencies = { "zzz" } }\nfunction init() mah.api("GET", "ping", function(ctx) ctx.json({ a = true }) end) end',
  zzz: 'plugin = { name = "zzz", api_version = 1, capabilities = { "api" } }\nfunction init() mah.api("GET", "ping", function(ctx) ctx.json({ z = true }) end) end',
  head: 'plugin = { name = "head", api_version = 1 }\nfunction init() error("head refuses") end',
  middle: 'plugin = { name = "middle", api_version = 1, dependencies = { "head" } }',
  tail: 'plugin = { name = "tail", api_version = 1, dependencies = { "middle" } }',
  grow: 'plugin = { name = "grow", api_version = 1, capabilities = { "api" } }\nfunction init() mah.api("GET", "ping", function(ctx) ctx.json({ pong = true }) end) end',
  nets: 'plugin = { name = "nets", api_version = 1, capabilities = { "api" }, network = { "a.example.com" } }\nfunction init() mah.api("GET", "ping", function(ctx) ctx.json({}) end) end',
  half: `plugin = { name = "half", api_version = 1, capabilities = { "pages", "api" } }
function init()
  mah.page("p", function() return "page" end)
  mah.api("GET", "e", function(ctx) ctx.json({}) end)
  mah.menu("Half", "p")
  error("init gave up")
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
}, 120_000);
afterAll(async () => lib?.close());

const save = (name: string, body: unknown) => lib.json<Record<string, unknown>>('POST', `/v1/plugin/settings?name=${name}`, body);
const settingsLine = async () => ((await lib.json<{ s: string }>('GET', '/v1/plugins/banner-fixture/settings')).body as { s: string }).s;

describe('settings', () => {
  it('T-016 required settings gate enabling', async () => {
    expect(await lib.enable('banner-fixture')).toEqual({ status: 400, body: { error: 'missing required settings: [Token]' } });
    expect((await lib.rec('banner-fixture'))!.enabled).toBe(false);
  });

  it('T-017 validation answers 422 with every failing field', async () => {
    const bad = await save('banner-fixture', { token: 'k', visible: 'true', limit: '5', tone: 'shouty' });
    expect(bad).toMatchObject({
      status: 422,
      body: {
        errors: [
          { field: 'visible', message: 'Visible must be a boolean' },
          { field: 'tone', message: 'Tone must be one of the available options' },
          { field: 'limit', message: 'Limit must be a number' },
        ],
      },
    });
    expect((await lib.rec('banner-fixture'))!.values).toEqual({});
    expect(await save('banner-fixture', {})).toMatchObject({ status: 422, body: { errors: [{ field: 'token', message: 'Token is required' }] } });
    expect((await save('banner-fixture', [1, 2])).status).toBe(400);
    expect(await lib.json('POST', '/v1/plugin/settings', {})).toMatchObject({ status: 400, body: { error: 'missing plugin name' } });
    expect(await save('ghost', {})).toMatchObject({ status: 404, body: { error: 'plugin "ghost" not found' } });
  });

  it('T-018 save replaces; defaults merge at enable; runtime types', async () => {
    expect(await save('banner-fixture', { token: 's3cret', limit: 42, tone: 'loud', junk: 1 })).toEqual(expect.objectContaining({ status: 200, body: { ok: true, name: 'banner-fixture' } }));
    expect((await lib.rec('banner-fixture'))!.values).toEqual({ limit: 42, token: 's3cret', tone: 'loud' });
    expect((await lib.enable('banner-fixture')).status).toBe(200);
    expect(await settingsLine()).toBe('text=Hello banner:string;token=s3cret:string;visible=true:boolean;tone=loud:string;limit=42:number');
    await save('banner-fixture', { token: 't2' });
    expect(await settingsLine()).toBe('text=nil:nil;token=t2:string;visible=nil:nil;tone=nil:nil;limit=nil:nil');
    await lib.disable('banner-fixture');
    await lib.enable('banner-fixture');
    expect(await settingsLine()).toBe('text=Hello banner:string;token=t2:string;visible=true:boolean;tone=calm:string;limit=5:number');
  });
});

describe('lifecycle', () => {
  it('T-019 enable / disable edge cases', async () => {
    expect(await lib.json('POST', '/v1/plugin/enable', {})).toMatchObject({ status: 400, body: { error: 'missing plugin name' } });
    expect(await lib.enable('ghost')).toEqual({ status: 404, body: { error: 'plugin "ghost" not found' } });
    expect(await lib.disable('ghost')).toEqual({ status: 404, body: { error: 'plugin "ghost" not found' } });
    expect((await lib.enable('echo-api')).status).toBe(200);
    expect(await lib.enable('echo-api')).toEqual({ status: 400, body: { error: 'plugin "echo-api" is already enabled' } });
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo')).status).toBe(200);
    expect(await lib.disable('echo-api')).toEqual({ status: 200, body: { ok: true, name: 'echo-api', enabled: false } });
    expect(await lib.disable('echo-api')).toEqual({ status: 200, body: { ok: true, name: 'echo-api', enabled: false } });
    expect(await lib.json('GET', '/v1/plugins/echo-api/echo')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
  });

  it('T-020 dependencies are enforced both ways and never cascade', async () => {
    expect(await lib.enable('addon')).toEqual({ status: 400, body: { error: 'a dependency is not enabled: plugin "addon" depends on "base"; enable "base" first' } });
    expect((await lib.enable('base')).status).toBe(200);
    expect((await lib.enable('addon')).status).toBe(200);
    expect(await lib.disable('base')).toEqual({ status: 400, body: { error: 'another enabled plugin depends on this one: addon still depends on "base"; disable addon first' } });
    expect((await lib.rec('base'))!.enabled).toBe(true);
    expect((await lib.disable('addon')).status).toBe(200);
    expect((await lib.disable('base')).status).toBe(200);
  });

  it('T-023 purge', async () => {
    expect((await lib.enable('kv-fixture')).status).toBe(200);
    await lib.json('POST', '/v1/plugins/kv-fixture/set', { key: 'a', value: 1 });
    await lib.json('POST', '/v1/plugins/kv-fixture/set', { key: 'b', value: 2 });
    const purge = (name: string) => lib.form('/v1/plugin/purge-data', [['name', name]], { accept: 'application/json' });
    const refused = await purge('kv-fixture');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'cannot purge data for enabled plugin — disable it first' });
    await lib.disable('kv-fixture');
    const ok = await purge('kv-fixture');
    expect(await ok.json()).toEqual({ ok: true, name: 'kv-fixture' });
    await lib.enable('kv-fixture');
    expect((await lib.fetch('/v1/plugins/kv-fixture/list').then((r) => r.text())).trim()).toBe('{"keys":{}}');
    const ghost = await purge('never-existed');
    expect(ghost.status).toBe(404);
    expect(await ghost.json()).toEqual({ error: 'plugin "never-existed" not found' });
  });

  it('T-030 a failing init() leaves nothing behind', async () => {
    const r = await lib.enable('half');
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('init gave up');
    expect(await lib.json('GET', '/v1/plugins/half/e')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
    expect((await lib.rec('half'))!.enabled).toBe(false);
  });

  it('T-029 a file changed without restart is refused', async () => {
    const file = join(lib.pluginDir, 'echo-api', 'plugin.lua');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('version = "1.0"', 'version = "1.0", api_version = 1, capabilities = { "api" }'));
    const widened = await lib.enable('echo-api');
    expect(widened.status).toBe(400);
    expect(widened.body.error).toContain('declares different capabilities than it did at startup');
    writeFileSync(file, original.replace('name = "echo-api"', 'name = "echo-api2"'));
    const renamed = await lib.enable('echo-api');
    expect(renamed.body.error).toContain('now declares the name "echo-api2", not "echo-api"');
    writeFileSync(file, original);
  });
});

describe('across restarts', () => {
  it('T-021, T-022, T-024, T-025, T-027, T-028: activation, stalls, data, consent', async () => {
    // Stored enabled without being loadable now: zzz/aaa load in dependency order; head fails.
    for (const n of ['zzz', 'aaa', 'grow', 'nets']) expect((await lib.enable(n)).status, n).toBe(200);
    expect((await lib.enable('head')).status).toBe(400);
    if (!(await lib.rec('kv-fixture'))!.enabled) await lib.enable('kv-fixture');
    await lib.json('POST', '/v1/plugins/kv-fixture/set', { key: 'survivor', value: 'still here' });
    await lib.disable('kv-fixture');
    await lib.enable('kv-fixture');
    // Mark head/middle/tail enabled in storage the way an older run would have left them.
    const { PluginStateRepository } = await import('../../../src/library/plugins/repository.js');
    const states = new PluginStateRepository(lib.lib.db, lib.lib.dialect);
    for (const n of ['head', 'middle', 'tail']) await states.setEnabled(n, true);
    // T-028: a stored enabled plugin without consent record is grandfathered.
    await states.setGrants('base', '');
    await states.setEnabled('base', true);
    // T-025 / T-027: widen two manifests while the server is down.
    writePlugins(lib.pluginDir, {
      grow: plugins.grow.replace('capabilities = { "api" }', 'capabilities = { "api", "http" }'),
      nets: plugins.nets.replace('network = { "a.example.com" }', 'network = { "a.example.com", "b.example.com" }'),
    });
    lib = await lib.restart();

    expect((await lib.json('GET', '/v1/plugins/aaa/ping')).body).toEqual({ a: true });
    expect((await lib.json('GET', '/v1/plugins/zzz/ping')).body).toEqual({ z: true });
    expect((await lib.json('GET', '/v1/plugins/kv-fixture/get?key=survivor')).body).toEqual({ found: true, value: 'still here' });
    expect((await lib.json('GET', '/v1/plugins/banner-fixture/settings')).status).toBe(200);

    const logs = (await lib.json<{ logs: { level: string; entityName: string; message: string; details: unknown }[] }>('GET', '/v1/logs?entityType=plugin&pageSize=100')).body.logs;
    const startupFailures = logs.filter((l) => l.message === 'failed to enable plugin at startup');
    expect(startupFailures.map((l) => l.entityName).sort()).toEqual(['grow', 'head', 'nets']);
    const stalled = logs.filter((l) => l.message.includes('waits for'));
    expect(stalled).toHaveLength(1);
    expect(stalled[0].message).toContain('middle waits for head (it failed to load)');
    expect(stalled[0].message).toContain('tail waits for middle (also waiting for a dependency of its own)');
    expect((await lib.rec('middle'))!.enabled).toBe(true);

    const grow = await lib.rec('grow');
    expect(grow).toMatchObject({ enabled: true, capabilities: ['http', 'api'] });
    expect(await lib.json('GET', '/v1/plugins/grow/ping')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
    const growError = JSON.stringify(startupFailures.find((l) => l.entityName === 'grow')!.details);
    expect(growError).toContain('plugin declares more than was consented to: new capabilities: http (');
    expect(growError).toContain('Re-enable grow to consent to it');
    expect(JSON.stringify(startupFailures.find((l) => l.entityName === 'nets')!.details)).toContain('new network hosts');
    expect((await lib.enable('grow')).status).toBe(200);
    expect((await lib.json('GET', '/v1/plugins/grow/ping')).body).toEqual({ pong: true });

    // T-028: base was grandfathered and its record written.
    const base = await new PluginStateRepository(lib.lib.db, lib.lib.dialect).find('base');
    expect(base!.grants_json).toBe('{"api_version":1}');
  }, 120_000);

  it('T-026 narrowing loads quietly and keeps the record', async () => {
    writePlugins(lib.pluginDir, { grow: plugins.grow });
    lib = await lib.restart();
    expect((await lib.json('GET', '/v1/plugins/grow/ping')).body).toEqual({ pong: true });
    const { PluginStateRepository } = await import('../../../src/library/plugins/repository.js');
    const row = await new PluginStateRepository(lib.lib.db, lib.lib.dialect).find('grow');
    expect(JSON.parse(row!.grants_json!)).toEqual({ api_version: 1, capabilities: ['http', 'api'] });
  }, 120_000);
});
