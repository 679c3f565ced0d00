// library-plugins.md §32.7 hooks (T-061 … T-066, T-068 … T-072), T-138 logging, T-139/T-140
// host results, and mah.db reads and writes running through the services.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const chain = (letter: string) => `plugin = { name = "chain-${letter}", api_version = 1, capabilities = { "hooks" } }
function init() mah.on("before_tag_create", function(t) t.name = t.name .. "-${letter}"; return t end) end`;

const plugins: Record<string, string> = {
  'banner-fixture': `plugin = { name = "banner-fixture", version = "1.0" }
function init()
  mah.on("before_note_create", function(note) note.name = "[BF] " .. note.name; return note end)
end`,
  gatekeeper: `plugin = { name = "gatekeeper", api_version = 1, capabilities = { "hooks" } }
function init()
  mah.on("before_group_create", function(g)
    if g.name:find("forbidden", 1, true) then mah.abort("names containing 'forbidden' are refused") end
  end)
end`,
  broken: `plugin = { name = "broken", api_version = 1, capabilities = { "hooks" } }
function init() mah.on("before_note_create", function() error("oops") end) end`,
  'chain-a': chain('a'),
  'chain-b': chain('b'),
  watcher: `plugin = { name = "watcher", api_version = 1, capabilities = { "hooks", "kv", "api" } }
function init()
  mah.on("before_group_create", function(g) mah.kv.set("bc", { id = g.id, t = math.type(g.id) }) end)
  mah.on("after_group_create", function(g) mah.kv.set("ac", { id = g.id, name = g.name, t = math.type(g.id) }) end)
  mah.on("before_group_update", function(g) mah.kv.set("bu", g.id) end)
  mah.on("before_group_delete", function(g) mah.kv.set("bd", g) end)
  mah.on("after_group_delete", function(g) mah.kv.set("ad", g) end)
  mah.api("GET", "seen", function(ctx)
    ctx.json({ bc = mah.kv.get("bc"), ac = mah.kv.get("ac"), bu = mah.kv.get("bu"), bd = mah.kv.get("bd"), ad = mah.kv.get("ad") })
  end)
end`,
  'bad-event': 'plugin = { name = "bad-event", api_version = 1, capabilities = { "hooks" } }\nfunction init() mah.on("before_note_save", function() end) end',
  'no-job-events': 'plugin = { name = "no-job-events", api_version = 1, capabilities = { "hooks" } }\nfunction init() mah.on("after_job_failed", function() end) end',
  echoer: `plugin = { name = "echoer", api_version = 1, capabilities = { "hooks", "db:write" } }
function init() mah.on("after_tag_create", function(t) mah.db.create_tag({ name = "echo-" .. t.name }) end) end`,
  maker: `plugin = { name = "maker", api_version = 1, capabilities = { "hooks", "db:write", "api", "kv" } }
function init()
  mah.api("POST", "mk", function(ctx) ctx.json(mah.db.create_group({ name = "G1" })) end)
  mah.on("after_note_create", function(n) mah.kv.set("maker-saw-note", n.name) end)
  mah.api("GET", "saw", function(ctx) ctx.json({ saw = mah.kv.get("maker-saw-note") }) end)
end`,
  relay: `plugin = { name = "relay", api_version = 1, capabilities = { "hooks", "db:write" } }
function init() mah.on("after_group_create", function(g) mah.db.create_note({ name = "for " .. g.name }) end) end`,
  protector: `plugin = { name = "protector", api_version = 1, capabilities = { "hooks", "db:read" } }
function init()
  mah.on("before_tag_delete", function(t) local tag = mah.db.get_tag(t.id) if tag and tag.name == "keep" then mah.abort("tag 'keep' is protected") end end)
end`,
  writer: `plugin = { name = "writer", api_version = 1, capabilities = { "db:write", "api" } }
function init() mah.api("POST", "mk", function(ctx) ctx.json(mah.db.create_note({ name = "from plugin" })) end) end`,
  counter: `plugin = { name = "counter", api_version = 1, capabilities = { "hooks", "kv", "api" } }
function init()
  mah.on("before_tag_create", function(t) if t.name == "dup" then mah.kv.set("b", (mah.kv.get("b") or 0) + 1) end end)
  mah.on("after_tag_create", function(t) if t.name == "dup" then mah.kv.set("a", (mah.kv.get("a") or 0) + 1) end end)
  mah.api("GET", "n", function(ctx) ctx.json({ b = mah.kv.get("b") or 0, a = mah.kv.get("a") or 0 }) end)
end`,
  logger: `plugin = { name = "logger", api_version = 1, capabilities = { "api" } }
function init()
  mah.api("POST", "log", function(ctx)
    mah.log("debug", "hello log", { k = 1 })
    mah.log("warning", "careful")
    mah.log("error", string.rep("e", 5000))
    ctx.status(204)
  end)
end`,
  nilprobe: `plugin = { name = "nilprobe", api_version = 1, capabilities = { "db:read", "kv", "api" },
  settings = { { name = "opt", type = "string", label = "Opt" } } }
function init()
  mah.kv.set("absent-null", nil)
  mah.api("GET", "t", function(ctx)
    ctx.json({
      s = tostring(mah.get_setting("opt")), sn = select("#", mah.get_setting("opt")),
      u = tostring(mah.get_setting("undeclared")),
      k = tostring(mah.kv.get("absent")), kn = select("#", mah.kv.get("absent")),
      kz = tostring(mah.kv.get("absent-null")),
      g = tostring(mah.db.get_note(999999)), gn = select("#", mah.db.get_note(999999)),
    })
  end)
end`,
  tableprobe: `plugin = { name = "tableprobe", api_version = 1, capabilities = { "db:read", "kv", "api" } }
function init()
  mah.kv.set("prefs", { theme = "dark", list = { 1, 2 } })
  mah.api("GET", "t", function(ctx)
    local d = mah.json.decode('{"a":[1,2],"o":{"x":1}}')
    local vals = { ctx = ctx, query = ctx.query, d = d, da = d.a, obj = d.o,
                   kv = mah.kv.get("prefs"), kvl = mah.kv.get("prefs").list,
                   tag = mah.db.get_tag(tonumber(ctx.query.id)), tags = mah.db.list_tags({}) }
    local out = {}
    for k, v in pairs(vals) do out[k] = type(v) .. ":" .. tostring(getmetatable(v) == nil) end
    local n = 0
    for _ in ipairs(vals.tags) do n = n + 1 end
    out.len, out.n, out.count = #d.a, n, #vals.tags
    ctx.json(out)
  end)
  mah.api("GET", "bad-id", function(ctx)
    local ok, e = pcall(mah.db.get_note, 1.5)
    local ok0, e0 = pcall(mah.db.get_note, 0)
    ctx.json({ ok = ok, e = e, ok0 = ok0, e0 = e0 })
  end)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
}, 120_000);
afterAll(async () => lib?.close());

async function on(...names: string[]) {
  for (const n of names) expect((await lib.enable(n)).status, n).toBe(200);
}
async function off(...names: string[]) {
  for (const n of names) expect((await lib.disable(n)).status, n).toBe(200);
}
const tagNames = async () => ((await lib.json<{ Name: string }[]>('GET', '/v1/tags?pageSize=200')).body).map((t) => t.Name);

describe('hooks', () => {
  it('T-061 a before-hook rewrites data', async () => {
    await on('banner-fixture');
    const r = await lib.json<{ ID: number; Name: string }>('POST', '/v1/note', { Name: 'My Test Note' });
    expect(r.body.Name).toBe('[BF] My Test Note');
    expect((await lib.json<{ Name: string }>('GET', `/v1/note?id=${r.body.ID}`)).body.Name).toBe('[BF] My Test Note');
    await off('banner-fixture');
  });

  it('T-062 a before-hook vetoes with 400', async () => {
    await on('gatekeeper');
    const r = await lib.json('POST', '/v1/group', { Name: 'a forbidden group' });
    expect(r).toMatchObject({ status: 400, body: { error: "plugin aborted: names containing 'forbidden' are refused" } });
    const groups = (await lib.json<{ Name: string }[]>('GET', '/v1/groups?pageSize=200')).body.map((g) => g.Name);
    expect(groups).not.toContain('a forbidden group');
    expect((await lib.json('POST', '/v1/group', { Name: 'fine group' })).status).toBe(200);
    await off('gatekeeper');
  });

  it('T-063 a broken before-hook does not block writes', async () => {
    await on('broken');
    const r = await lib.json<{ Name: string }>('POST', '/v1/note', { Name: 'plain' });
    expect(r).toMatchObject({ status: 200, body: { Name: 'plain' } });
    expect(lib.logs.some((l) => l.includes('oops'))).toBe(true);
    await off('broken');
  });

  it('T-064 chain order follows enable order', async () => {
    await on('chain-a', 'chain-b');
    expect((await lib.json<{ Name: string }>('POST', '/v1/tag', { Name: 'x' })).body.Name).toBe('x-a-b');
    await off('chain-a');
    await on('chain-a');
    expect((await lib.json<{ Name: string }>('POST', '/v1/tag', { Name: 'y' })).body.Name).toBe('y-b-a');
    await off('chain-a', 'chain-b');
  });

  it('T-065 payload shapes and integer ids', async () => {
    await on('watcher');
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'W' });
    const id = g.body.ID;
    await lib.json('POST', '/v1/group', { ID: id, Name: 'W2' });
    expect((await lib.form('/v1/group/delete', [['Id', id]], { accept: 'application/json' })).status).toBe(200);
    const seen = (await lib.json('GET', '/v1/plugins/watcher/seen')).body;
    expect(seen).toEqual({ bc: { id: 0, t: 'integer' }, ac: { id, name: 'W', t: 'integer' }, bu: id, bd: { id }, ad: { id, name: 'W2' } });
    await off('watcher');
  });

  it('T-066 event names are checked', async () => {
    const bad = await lib.enable('bad-event');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('unknown event "before_note_save"');
    expect(bad.body.error).toContain('before_resource_create');
    const jobs = await lib.enable('no-job-events');
    expect(jobs.body.error).toContain('needs the "job_events" capability');
  });

  it('T-068 a plugin is not told about its own writes', async () => {
    await on('echoer');
    await lib.json('POST', '/v1/tag', { Name: 't1' });
    const names = await tagNames();
    expect(names).toContain('t1');
    expect(names).toContain('echo-t1');
    expect(names).not.toContain('echo-echo-t1');
    const logs = (await lib.json<{ logs: { level: string; entityName: string; message: string }[] }>('GET', '/v1/logs?entityType=plugin&pageSize=100')).body.logs;
    expect(logs.some((l) => l.entityName === 'echoer' && l.level === 'warning' && l.message.startsWith('skipped "after_tag_create" hook: it is already running on this call chain'))).toBe(true);
    await off('echoer');
  });

  it('T-069 re-entrancy across plugins', async () => {
    await on('maker', 'relay');
    expect((await lib.json('POST', '/v1/plugins/maker/mk')).status).toBe(200);
    const notes = (await lib.json<{ Name: string }[]>('GET', '/v1/notes?pageSize=200')).body.map((n) => n.Name);
    expect(notes).toContain('for G1');
    expect((await lib.json('GET', '/v1/plugins/maker/saw')).body).toEqual({});
    const logs = (await lib.json<{ logs: { entityName: string; message: string }[] }>('GET', '/v1/logs?entityType=plugin&pageSize=100')).body.logs;
    expect(logs.some((l) => l.entityName === 'maker' && l.message.includes('"after_note_create"'))).toBe(true);
    await lib.json('POST', '/v1/note', { Name: 'direct' });
    expect((await lib.json('GET', '/v1/plugins/maker/saw')).body).toEqual({ saw: 'direct' });
    await off('maker', 'relay');
  });

  it('T-070 a veto in a bulk delete cancels the batch', async () => {
    await on('protector');
    const drop = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'drop' })).body.ID;
    const keep = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'keep' })).body.ID;
    const r = await lib.form('/v1/tags/delete', [['ID', drop], ['ID', keep]], { accept: 'application/json' });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: "plugin aborted: tag 'keep' is protected" });
    const names = await tagNames();
    expect(names).toContain('drop');
    expect(names).toContain('keep');
    await off('protector');
  });

  it('T-071 plugin writes fire hooks too, and are in the audit log', async () => {
    await on('banner-fixture', 'writer');
    const r = await lib.json<{ id: number; name: string }>('POST', '/v1/plugins/writer/mk');
    expect(r.body.name).toBe('[BF] from plugin');
    const logs = (await lib.json<{ logs: { action: string; entityId: number }[] }>('GET', `/v1/logs/entity?entityType=note&entityId=${r.body.id}`)).body.logs;
    expect(logs).toEqual([expect.objectContaining({ action: 'create', entityId: r.body.id })]);
    await off('banner-fixture', 'writer');
  });

  it('T-072 an idempotent tag create fires only the before-hook', async () => {
    await on('counter');
    const a = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'dup' });
    const b = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'dup' });
    expect(a.body.ID).toBe(b.body.ID);
    expect((await lib.json('GET', '/v1/plugins/counter/n')).body).toEqual({ b: 2, a: 1 });
    await off('counter');
  });
});

describe('host helpers', () => {
  it('T-138 logging', async () => {
    await on('logger');
    expect((await lib.json('POST', '/v1/plugins/logger/log')).status).toBe(204);
    const logs = (await lib.json<{ logs: { level: string; action: string; entityType: string; entityName: string; message: string; details: unknown }[] }>('GET', '/v1/logs?entityType=plugin&pageSize=100')).body.logs.filter(
      (l) => l.entityName === 'logger',
    );
    expect(logs.find((l) => l.message === 'hello log')).toMatchObject({ level: 'info', action: 'plugin', entityType: 'plugin', details: { k: 1 } });
    expect(logs.find((l) => l.message === 'careful')!.level).toBe('warning');
    const long = logs.find((l) => l.level === 'error')!;
    expect(long.message).toHaveLength(1000);
  });

  it('T-139 a missing value is exactly one nil', async () => {
    await on('nilprobe');
    const r = await lib.json('GET', '/v1/plugins/nilprobe/t');
    expect(r).toEqual(expect.objectContaining({ status: 200, body: { g: 'nil', gn: 1, k: 'nil', kn: 1, kz: 'nil', s: 'nil', sn: 1, u: 'nil' } }));
  });

  it('T-140 host values are plain Lua tables; T-038 id errors are catchable', async () => {
    await on('tableprobe');
    const tag = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'probe-tag' })).body.ID;
    const r = (await lib.json<Record<string, unknown>>('GET', `/v1/plugins/tableprobe/t?id=${tag}`)).body;
    for (const k of ['ctx', 'query', 'd', 'da', 'obj', 'kv', 'kvl', 'tag', 'tags']) expect(r[k], k).toBe('table:true');
    expect(r.len).toBe(2);
    expect(r.n).toBe(r.count);
    expect(r.n as number).toBeGreaterThanOrEqual(1);
    const bad = (await lib.json<Record<string, unknown>>('GET', '/v1/plugins/tableprobe/bad-id')).body;
    expect(bad.ok).toBe(false);
    expect(bad.e).toContain('entity id must be a positive whole number');
    expect(bad.ok0).toBe(false);
    expect(bad.e0).toContain('entity id must be a positive whole number');
  });
});
