// library-plugins.md §32.11 database access (T-098 … T-105): update and patch, transactions with
// rollback and after-commit hooks, literal substring filters, counting, MRQL, file data and
// associations, all through a plugin's JSON endpoints against a started server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { png } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';

const plugins: Record<string, string> = {
  dbprobe: `plugin = { name = "dbprobe", api_version = 1, capabilities = { "db:write", "db:read", "api", "kv" } }
local function body(ctx) return mah.json.decode(ctx.body or "{}") or {} end
function init()
  mah.api("GET", "missing", function(ctx) local n, err = mah.db.get_note(999999); ctx.json({ found = n ~= nil, err = err }) end)
  mah.api("POST", "update-patch", function(ctx)
    local t = mah.db.create_tag({ name = "upd-tag" })
    local n = mah.db.create_note({ name = "N", description = "D", tags = { t.id } })
    mah.db.patch_note(n.id, { description = "D2" })
    local afterPatch = mah.db.get_note(n.id)
    mah.db.update_note(n.id, { name = "N2" })
    local afterUpdate = mah.db.get_note(n.id)
    local raised = not pcall(mah.db.patch_note, n.id, { tags = "oops" })
    local g, gerr = mah.db.create_group({ name = "" })
    ctx.json({ tag = t.id, patched = afterPatch, updated = afterUpdate, raised = raised, g = g, gerr = gerr })
  end)
  mah.api("POST", "tx", function(ctx)
    local r = body(ctx)
    local ok, err = mah.db.transaction(function()
      mah.db.create_tag({ name = r.name })
      mah.kv.set("tx-mark", true)
      if r.fail then error("roll it back") end
    end)
    ctx.json({ ok = ok, err = err, mark = mah.kv.get("tx-mark") })
  end)
  mah.api("POST", "tx-abort", function(ctx)
    mah.db.transaction(function()
      mah.db.create_tag({ name = "tx-aborted" })
      mah.abort("stop")
    end)
    ctx.json({ reached = true })
  end)
  mah.api("POST", "tx-coroutine", function(ctx)
    local co = coroutine.create(function() return mah.db.transaction(function() mah.db.create_tag({ name = "tx-in-co" }) end) end)
    local _, ok, err = coroutine.resume(co)
    local wrapped = { coroutine.wrap(function() return mah.db.transaction(function() end) end)() }
    -- Outside a coroutine, and inside a transaction block, it still runs.
    local plain = mah.db.transaction(function() end)
    ctx.json({ ok = ok, err = err, wrapped_err = wrapped[2], plain = plain })
  end)
  mah.api("POST", "tx-nested", function(ctx)
    local inner_ok
    local ok = mah.db.transaction(function()
      mah.db.create_tag({ name = "tx-outer" })
      inner_ok = mah.db.transaction(function() mah.db.create_tag({ name = "tx-inner" }); error("inner fails") end)
    end)
    ctx.json({ ok = ok, inner_ok = inner_ok })
  end)
  mah.api("GET", "tags", function(ctx)
    local r = {}
    for _, name in ipairs({ "photo", "%", "a_b" }) do
      local names = {}
      for _, t in ipairs(mah.db.list_tags({ name = name, limit = 100 })) do names[#names + 1] = t.name end
      table.sort(names)
      r[name] = names
    end
    r.capped = #mah.db.list_tags({ limit = 500 })
    ctx.json(r)
  end)
  mah.api("GET", "count", function(ctx)
    ctx.json({ t = math.type(mah.db.count_notes({})), n = mah.db.count_notes({ name = "cnt-" }) })
  end)
  mah.api("GET", "mrql", function(ctx)
    local r = mah.db.mrql_query('type = note AND name = $n', { params = { n = "Alpha" }, scope = "global" })
    local u, uerr = mah.db.mrql_query('type = note AND name = $n', { scope = "global" })
    local x, xerr = mah.db.mrql_query('name = "x"')
    local raised = not pcall(mah.db.mrql_query, 'type = note', { scope_entity_id = 1.5 })
    ctx.json({ r = r, u = u, uerr = uerr, x = x, xerr = xerr, raised = raised })
  end)
  mah.api("GET", "data", function(ctx)
    local b, m = mah.db.get_resource_data(tonumber(ctx.query.id))
    local n1, n2, nerr = mah.db.get_resource_data(999999)
    local t1, t2, terr
    mah.db.transaction(function() t1, t2, terr = mah.db.get_resource_data(tonumber(ctx.query.id)) end)
    ctx.json({ m = m, len = #mah.util.base64.decode(b), nerr = nerr, missing = n1 == nil and n2 == nil, terr = terr })
  end)
  mah.api("GET", "resource", function(ctx) ctx.json(mah.db.get_resource(tonumber(ctx.query.id))) end)
  mah.api("POST", "assoc", function(ctx)
    local r = body(ctx)
    local out = {}
    out.add = mah.db.add_tags("note", r.note, { r.t1, r.t2 })
    out.after_add = #mah.db.get_note(r.note).tags
    out.remove = mah.db.remove_tags("note", r.note, { r.t1 })
    out.after_remove = #mah.db.get_note(r.note).tags
    local bad, badErr = mah.db.add_tags("tag", r.note, { r.t1 })
    out.bad, out.bad_err = bad, badErr
    out.empty = mah.db.add_tags("note", r.note, {})
    ctx.json(out)
  end)
  mah.api("POST", "resource-edit", function(ctx)
    local r = body(ctx)
    local p = mah.db.patch_resource(r.id, { description = "patched" })
    local g = mah.db.get_resource(r.id)
    local u = mah.db.update_resource(r.id, { name = "renamed" })
    local g2 = mah.db.get_resource(r.id)
    ctx.json({ p = p, g = g, u = u, g2 = g2 })
  end)
  mah.api("POST", "carriers", function(ctx)
    local nt = mah.db.create_note_type({ name = "nt-1", custom_header = "<b>h</b>" })
    local rc = mah.db.create_resource_category({ name = "rc-1", description = "d" })
    local pn = mah.db.patch_note_type(nt.id, { description = "nd" })
    local got = mah.db.get_note_type(nt.id)
    local types = mah.db.list_note_types({ name = "nt-" })
    local del = mah.db.delete_resource_category(rc.id)
    ctx.json({ nt = nt, rc = rc, pn = pn, got = got, n = #types, del = del, gone = mah.db.get_resource_category(rc.id) == nil })
  end)
end`,
  tagcounter: `plugin = { name = "tagcounter", api_version = 1, capabilities = { "hooks", "kv", "api" } }
function init()
  mah.on("after_tag_create", function(t) mah.kv.set("n", (mah.kv.get("n") or 0) + 1) end)
  mah.on("after_resource_create", function(r) mah.kv.set("r", (mah.kv.get("r") or 0) + 1) end)
  mah.api("GET", "n", function(ctx) ctx.json({ n = mah.kv.get("n") or 0, r = mah.kv.get("r") or 0 }) end)
end`,
  // Relations and resource creation (§11.7, §11.9); fetches may reach the loopback stub server.
  dbmore: `plugin = { name = "dbmore", api_version = 1, capabilities = { "db:write", "db:read", "api", "http" }, network = { "127.0.0.1" }, allow_private_hosts = true }
local function body(ctx) return mah.json.decode(ctx.body or "{}") or {} end
local function pair(a, b) return { ok = a, err = b } end
function init()
  mah.api("POST", "relations", function(ctx)
    local r = body(ctx)
    local out = {}
    out.rt = mah.db.create_relation_type({ name = "parent-of", description = "d", from_category = r.cat, to_category = r.cat, reverse_name = "child-of" })
    out.rt_bad = pair(mah.db.create_relation_type({ name = "x", from_category = r.cat, to_category = 999999 }))
    out.rt_patch = mah.db.patch_relation_type({ id = out.rt.id, description = "d2" })
    out.rt_noid = pair(mah.db.update_relation_type({ name = "n" }))
    out.rel = mah.db.create_group_relation({ from_group_id = r.a, to_group_id = r.b, relation_type_id = out.rt.id, name = "rel", description = "first" })
    out.rel_missing = pair(mah.db.create_group_relation({ from_group_id = r.a }))
    out.rel_update = mah.db.update_group_relation({ id = out.rel.id, description = "only desc" })
    out.rel_patch = mah.db.patch_group_relation({ id = out.rel.id, name = "renamed" })
    out.rel_noid = pair(mah.db.patch_group_relation({ name = "x" }))
    out.raised = not pcall(mah.db.create_group_relation, { from_group_id = 1.5, to_group_id = r.b, relation_type_id = out.rt.id })
    ctx.json(out)
  end)
  mah.api("POST", "relations-delete", function(ctx)
    local r = body(ctx)
    ctx.json({ rel = mah.db.delete_group_relation(r.rel), rt = mah.db.delete_relation_type(r.rt) })
  end)
  mah.api("POST", "from-data", function(ctx)
    local r = body(ctx)
    local res, err = mah.db.create_resource_from_data(r.data, r.opts)
    ctx.json({ res = res, err = err })
  end)
  mah.api("POST", "from-url", function(ctx)
    local r = body(ctx)
    local res, err = mah.db.create_resource_from_url(r.url, r.opts)
    ctx.json({ res = res, err = err })
  end)
  mah.api("POST", "version", function(ctx)
    local r = body(ctx)
    local v, err = mah.db.add_resource_version_from_url(r.id, r.url, r.comment)
    ctx.json({ v = v, err = err })
  end)
  mah.api("POST", "in-tx", function(ctx)
    local r = body(ctx)
    local out = {}
    mah.db.transaction(function()
      out.data = select(2, mah.db.create_resource_from_data("aGk=", {}))
      out.url = select(2, mah.db.create_resource_from_url(r.url, {}))
      out.version = select(2, mah.db.add_resource_version_from_url(r.id, r.url))
    end)
    ctx.json(out)
  end)
end`,
  // The MRQL cache (§11.6, §24): notes made through the HTTP API (not mah.db) between two calls
  // show whether a call was answered from the cache.
  mrqlcache: `plugin = { name = "mrqlcache", api_version = 1, capabilities = { "db:write", "db:read", "api", "http", "kv", "inject" }, network = { "127.0.0.1" }, allow_private_hosts = true }
local Q = 'type = note AND name ~ "mc-"'
local function count(limit) return #mah.db.mrql_query(Q, { scope = "global", limit = limit or 50 }).items end
local function outside(base, name)
  local r = mah.http.post_sync(base .. "/v1/note", mah.json.encode({ Name = name }), { headers = { ["Content-Type"] = "application/json" } })
  assert(r.status_code == 200, r.error or r.status)
end
function init()
  mah.api("POST", "cache", function(ctx)
    local base = mah.json.decode(ctx.body).base
    local out = { first = count() }
    outside(base, "mc-1")
    out.cached = count()
    out.other_limit = count(49)
    mah.db.create_tag({ name = "mc-clear" })
    out.after_write = count()
    outside(base, "mc-2")
    mah.db.create_group({ name = "" })
    out.after_failed_write = count()
    outside(base, "mc-3")
    mah.db.transaction(function() mah.db.create_tag({ name = "mc-tx" }) end)
    out.after_commit = count()
    ctx.json(out)
  end)
  mah.api("POST", "arm", function(ctx) mah.kv.set("base", mah.json.decode(ctx.body).base) end)
  mah.inject("page_top", function(ctx)
    local base = mah.kv.get("base")
    if not base then return "" end
    local n = count()
    outside(base, "mc-page-" .. n)
    return "<i data-top=" .. n .. "></i>"
  end)
  mah.inject("page_bottom", function(ctx)
    if not mah.kv.get("base") then return "" end
    return "<i data-bottom=" .. count() .. "></i>"
  end)
end`,
  // No address rule lifts the private-address deny for this one.
  'dbmore-strict': `plugin = { name = "dbmore-strict", api_version = 1, capabilities = { "db:write", "api", "http" }, network = { "127.0.0.1" } }
function init()
  mah.api("POST", "from-url", function(ctx)
    local r = mah.json.decode(ctx.body)
    local res, err = mah.db.create_resource_from_url(r.url, {})
    ctx.json({ res = res, err = err })
  end)
end`,
  // db:write without http: the URL writers are absent (§5.2, §5.4).
  'dbmore-nohttp': `plugin = { name = "dbmore-nohttp", api_version = 1, capabilities = { "db:write", "api" } }
function init()
  mah.api("GET", "has", function(ctx) ctx.json({ url = mah.db.create_resource_from_url ~= nil, data = mah.db.create_resource_from_data ~= nil }) end)
end`,
};

let lib: PluginTestLibrary;
let server: StubServer;
beforeAll(async () => {
  server = await startStubServer();
  server.routes.set('/pic.png', (_req, res) => void png(12, 8).then((b) => res.writeHead(200, { 'content-type': 'image/png' }).end(b)));
  server.routes.set('/v2/new.png', (_req, res) => void png(16, 9).then((b) => res.writeHead(200, { 'content-type': 'image/png' }).end(b)));
  server.routes.set('/a.txt', (_req, res) => res.end('first line file'));
  server.routes.set('/b.txt', (_req, res) => res.end('second line file'));
  server.routes.set('/gone', (_req, res) => res.writeHead(410).end('gone'));
  server.routes.set('/loop', (_req, res) => res.writeHead(302, { location: `${server.url}/loop` }).end());
  lib = await startWithPlugins(plugins);
  for (const name of Object.keys(plugins)) expect((await lib.enable(name)).status, name).toBe(200);
}, 120_000);
afterAll(async () => {
  await lib?.close();
  await server?.close();
});

const tagNames = async () => (await lib.json<{ Name: string }[]>('GET', '/v1/tags?pageSize=500')).body.map((t) => t.Name);
const counted = async () => (await lib.json<{ n: number }>('GET', '/v1/plugins/tagcounter/n')).body.n;
const resourcesCreated = async () => (await lib.json<{ r: number }>('GET', '/v1/plugins/tagcounter/n')).body.r;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = async (plugin: string, path: string, body?: unknown) => (await lib.json<Record<string, any>>('POST', `/v1/plugins/${plugin}/${path}`, body)).body;
const logsOf = async (entityType: string) => (await lib.json<{ logs: { entityId?: number; entityName: string; details: unknown }[] }>('GET', `/v1/logs?entityType=${entityType}&pageSize=200`)).body.logs;

describe('mah.db', () => {
  it('T-098 missing entities are not errors', async () => {
    expect((await lib.json('GET', '/v1/plugins/dbprobe/missing')).body).toEqual({ found: false });
  });

  it('T-099 update replaces, patch overlays', async () => {
    const r = await lib.json<Record<string, any>>('POST', '/v1/plugins/dbprobe/update-patch'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.patched).toMatchObject({ name: 'N', description: 'D2', tags: [{ id: r.body.tag, name: 'upd-tag' }] });
    expect(r.body.updated).toMatchObject({ name: 'N2', description: '' });
    expect(r.body.updated.tags).toBeUndefined();
    expect(r.body.raised).toBe(true);
    expect(r.body.gerr).toBe('group name needed');
  });

  it('T-100 transactions roll back everything; after-hooks wait for the commit', async () => {
    const before = await counted();
    const failed = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/dbprobe/tx', { name: 'tx-temp', fail: true });
    expect(failed.body.ok).toBeUndefined();
    expect(String(failed.body.err)).toContain('roll it back');
    expect(failed.body.mark).toBeUndefined();
    expect(await tagNames()).not.toContain('tx-temp');
    expect(await counted()).toBe(before);

    const ok = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/dbprobe/tx', { name: 'tx-kept' });
    expect(ok.body).toMatchObject({ ok: true, mark: true });
    expect(await tagNames()).toContain('tx-kept');
    expect(await counted()).toBe(before + 1);

    const aborted = await lib.json('POST', '/v1/plugins/dbprobe/tx-abort');
    expect(aborted).toMatchObject({ status: 400, body: { error: 'stop' } });
    expect(await tagNames()).not.toContain('tx-aborted');
  });

  it('plugin writes are attributed to the plugin in the audit log', async () => {
    const logs = (await lib.json<{ logs: { entityName: string; details: unknown }[] }>('GET', '/v1/logs?entityType=tag&pageSize=200')).body.logs;
    const entry = logs.find((l) => l.entityName === 'tx-kept');
    expect(JSON.stringify(entry?.details)).toContain('dbprobe');
  });

  it('mah.db.transaction refuses to run from a coroutine', async () => {
    const r = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/dbprobe/tx-coroutine');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ok).toBeUndefined();
    expect(String(r.body.err)).toMatch(/^mah\.db\.transaction cannot be called from a coroutine: /);
    expect(String(r.body.wrapped_err)).toMatch(/^mah\.db\.transaction cannot be called from a coroutine: /);
    expect(r.body.plain).toBe(true);
    expect(await tagNames()).not.toContain('tx-in-co');
  });

  it('a nested transaction is a savepoint', async () => {
    const r = await lib.json('POST', '/v1/plugins/dbprobe/tx-nested');
    expect(r.body).toEqual({ ok: true });
    const names = await tagNames();
    expect(names).toContain('tx-outer');
    expect(names).not.toContain('tx-inner');
  });

  it('T-101 substring filters are literal', async () => {
    for (const name of ['photo', 'photography', '50%off', 'a_b', 'axb']) await lib.json('POST', '/v1/tag', { Name: name });
    const r = await lib.json<Record<string, unknown>>('GET', '/v1/plugins/dbprobe/tags');
    expect(r.body).toMatchObject({ photo: ['photo', 'photography'], '%': ['50%off'], a_b: ['a_b'] });
    expect(r.body.capped).toBeLessThanOrEqual(100);
  });

  it('T-102 counting and types', async () => {
    for (const n of ['cnt-1', 'cnt-2', 'cnt-3']) await lib.json('POST', '/v1/note', { Name: n });
    expect((await lib.json('GET', '/v1/plugins/dbprobe/count')).body).toEqual({ t: 'integer', n: 3 });
  });

  it('T-103 MRQL from Lua', async () => {
    await lib.json('POST', '/v1/note', { Name: 'Alpha' });
    await lib.json('POST', '/v1/note', { Name: 'Beta' });
    const r = await lib.json<Record<string, any>>('GET', '/v1/plugins/dbprobe/mrql'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.r).toMatchObject({ entity_type: 'note', mode: 'flat' });
    expect(r.body.r.items).toHaveLength(1);
    expect(r.body.r.items[0]).toMatchObject({ name: 'Alpha', entity_type: 'note' });
    expect(r.body.u).toBeUndefined();
    expect(String(r.body.uerr)).toMatch(/\$n|placeholder|param/i);
    expect(r.body.xerr).toBe('MRQL query must specify an entity type (e.g. type=resource)');
    expect(r.body.raised).toBe(true);
  });

  it('T-104 file data', async () => {
    let data = await png(20, 20);
    // Pad with a trailing chunk-free tail so the file is exactly 1,234 bytes (PNG readers stop at IEND).
    data = Buffer.concat([data, Buffer.alloc(1234 - data.length)]);
    const res = await uploadResource(lib, 'data.png', data);
    const r = await lib.json<Record<string, unknown>>('GET', `/v1/plugins/dbprobe/data?id=${res.ID}`);
    expect(r.body).toMatchObject({ m: 'image/png', len: 1234, missing: true });
    expect(r.body.nerr).toBeTruthy();
    expect(String(r.body.terr)).toMatch(/^mah\.db\.get_resource_data cannot run inside mah\.db\.transaction: /);
  });

  it('T-105 associations', async () => {
    const t1 = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'assoc-1' })).body.ID;
    const t2 = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'assoc-2' })).body.ID;
    const note = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'assoc-note' })).body.ID;
    const r = await lib.json('POST', '/v1/plugins/dbprobe/assoc', { note, t1, t2 });
    expect(r.body).toEqual({ add: true, after_add: 2, remove: true, after_remove: 1, bad_err: 'unsupported entity type for AddTagsToEntity: tag', empty: true });
  });

  it('resources: getter, patch and update', async () => {
    const res = await uploadResource(lib, 'edit-me.txt');
    const got = (await lib.json<Record<string, unknown>>('GET', `/v1/plugins/dbprobe/resource?id=${res.ID}`)).body;
    expect(got).toMatchObject({ id: res.ID, name: 'edit-me.txt', hash: res.Hash, content_type: res.ContentType });
    const r = await lib.json<Record<string, any>>('POST', '/v1/plugins/dbprobe/resource-edit', { id: res.ID }); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.body.p).toMatchObject({ id: res.ID, name: 'edit-me.txt', description: 'patched' });
    expect(r.body.g).toMatchObject({ description: 'patched' });
    expect(r.body.g2).toMatchObject({ name: 'renamed', description: '' });
  });

  it('note types and resource categories', async () => {
    const r = await lib.json<Record<string, any>>('POST', '/v1/plugins/dbprobe/carriers'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.nt).toMatchObject({ name: 'nt-1', custom_header: '<b>h</b>' });
    expect(r.body.got).toMatchObject({ name: 'nt-1', description: 'nd', custom_header: '<b>h</b>', section_config: expect.any(String) });
    expect(r.body).toMatchObject({ n: 1, del: true, gone: true });
  });
});

describe('mah.db relations and resource creation', () => {
  it('relation types and group relations through the relation services', async () => {
    const cat = (await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'rel-cat' })).body.ID;
    const a = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'rel-a', CategoryId: cat })).body.ID;
    const b = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'rel-b', CategoryId: cat })).body.ID;
    const r = await call('dbmore', 'relations', { cat, a, b });
    expect(r.rt).toMatchObject({ name: 'parent-of', description: 'd', from_category_id: cat, to_category_id: cat, back_relation_id: expect.any(Number) });
    expect(r.rt_bad.ok).toBeUndefined();
    expect(r.rt_bad.err).toContain('999999');
    expect(r.rt_patch).toMatchObject({ id: r.rt.id, name: 'parent-of', description: 'd2' });
    expect(r.rt_noid).toEqual({ err: 'id is required for updating/patching a relation type' });
    expect(r.rel).toEqual({ id: expect.any(Number), name: 'rel', description: 'first', from_group_id: a, to_group_id: b, relation_type_id: r.rt.id });
    expect(r.rel_missing).toEqual({ err: 'from_group_id, to_group_id, and relation_type_id are required' });
    // update replaces name and description; patch overlays the name only.
    expect(r.rel_update).toMatchObject({ name: '', description: 'only desc' });
    expect(r.rel_patch).toMatchObject({ name: 'renamed', description: 'only desc' });
    expect(r.rel_noid).toEqual({ err: 'id is required for updating/patching a group relation' });
    expect(r.raised).toBe(true);

    // The back type made the reverse edge, as the HTTP API does.
    type Edge = { ToGroupId: number; FromGroupId: number };
    const group = (await lib.json<{ Relationships: Edge[]; BackRelations: Edge[] }>('GET', `/v1/group?id=${a}`)).body;
    expect(group.Relationships.map((e) => e.ToGroupId)).toEqual([b]);
    expect(group.BackRelations.map((e) => e.FromGroupId)).toEqual([b]);
    expect(JSON.stringify((await logsOf('relation')).find((l) => l.entityId === r.rel.id)?.details)).toContain('dbmore');
    expect(JSON.stringify((await logsOf('relation_type')).find((l) => l.entityName === 'parent-of')?.details)).toContain('dbmore');

    expect(await call('dbmore', 'relations-delete', { rel: r.rel.id, rt: r.rt.id })).toEqual({ rel: true, rt: true });
    expect((await lib.json('GET', `/v1/relationType?id=${r.rt.id}`)).status).toBe(404);
  });

  it('create_resource_from_data stores bytes as a resource and fires the create hooks', async () => {
    const before = await resourcesCreated();
    const tag = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'from-data-tag' })).body.ID;
    const data = Buffer.from('plugin bytes, not seen before').toString('base64');
    const r = await call('dbmore', 'from-data', { data, opts: { description: 'made by a plugin', tags: [tag], meta: '{"k":1}' } });
    expect(r.res).toMatchObject({ name: 'plugin_upload', description: 'made by a plugin', original_filename: 'plugin_upload', content_type: expect.stringContaining('text/plain') });
    const stored = (await lib.json<Record<string, any>>('GET', `/v1/resource?id=${r.res.id}`)).body; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(stored.Tags.map((t: { ID: number }) => t.ID)).toEqual([tag]);
    expect(stored.Meta).toEqual({ k: 1 });
    expect(await resourcesCreated()).toBe(before + 1);
    expect(JSON.stringify((await logsOf('resource')).find((l) => l.entityId === r.res.id)?.details)).toContain('dbmore');

    const named = await call('dbmore', 'from-data', { data: Buffer.from('another').toString('base64'), opts: { name: 'notes.txt' } });
    expect(named.res).toMatchObject({ name: 'notes.txt', original_filename: 'notes.txt' });
    expect((await call('dbmore', 'from-data', { data: '!!!' })).err).toMatch(/^invalid base64 data: /);
    // Identical bytes are refused as by an upload.
    expect((await call('dbmore', 'from-data', { data })).err).toContain('identical content');
  });

  it('create_resource_from_url fetches under the plugin egress policy', async () => {
    const before = await resourcesCreated();
    const r = await call('dbmore', 'from-url', { url: `${server.url}/pic.png`, opts: { name: 'fetched.png' } });
    expect(r.res).toMatchObject({ name: 'fetched.png', content_type: 'image/png' });
    expect(await resourcesCreated()).toBe(before + 1);

    const lines = await call('dbmore', 'from-url', { url: `${server.url}/a.txt\n\n${server.url}/b.txt` });
    expect(lines.res).toMatchObject({ name: 'a.txt' });
    expect((await lib.json<unknown[]>('GET', '/v1/resources?Name=b.txt')).body).toHaveLength(1);

    // One refused line refuses them all before anything is fetched.
    const refused = await call('dbmore', 'from-url', { url: `${server.url}/gone\nhttp://elsewhere.example/x` });
    expect(refused.err).toBe("blocked request to elsewhere.example: the plugin's manifest does not list this host in `network`");
    expect((await call('dbmore', 'from-url', { url: 'ftp://127.0.0.1/x' })).err).toBe('unsupported URL scheme (only http and https are allowed)');
    expect((await call('dbmore', 'from-url', { url: `${server.url}/gone` })).err).toBe('remote URL returned HTTP 410');
    expect((await call('dbmore', 'from-url', { url: `${server.url}/loop` })).err).toBe('stopped after 10 redirects');

    const strict = await call('dbmore-strict', 'from-url', { url: `${server.url}/pic.png` });
    expect(strict.err).toBe("blocked request: the address it resolves to is not permitted by this plugin's `network` declaration");
    expect(strict.err).not.toContain('127.0.0.1');
    expect((await lib.json('GET', '/v1/plugins/dbmore-nohttp/has')).body).toEqual({ url: false, data: true });
  });

  it('add_resource_version_from_url appends a version', async () => {
    const res = await uploadResource(lib, 'versioned.png', await png(10, 10));
    const r = await call('dbmore', 'version', { id: res.ID, url: `${server.url}/v2/new.png`, comment: 'from the web' });
    expect(r.v).toMatchObject({ resource_id: res.ID, version_number: 2, content_type: 'image/png', file_size: expect.any(Number), hash: expect.any(String) });
    const versions = (await lib.json<{ versionNumber: number; comment: string }[]>('GET', `/v1/resource/versions?resourceId=${res.ID}`)).body;
    expect(versions.find((v) => v.versionNumber === 2)?.comment).toBe('from the web');
    expect((await lib.json<{ Width: number }>('GET', `/v1/resource?id=${res.ID}`)).body.Width).toBe(16);
    expect((await call('dbmore', 'version', { id: res.ID, url: `${server.url}/gone` })).err).toBe('remote URL returned HTTP 410');
    expect((await call('dbmore', 'version', { id: 999999, url: `${server.url}/v2/new.png` })).err).toBe('resource 999999 not found');
  });

  it('the file-storing writers are refused inside a transaction', async () => {
    const res = await uploadResource(lib, 'tx-version.txt');
    const r = await call('dbmore', 'in-tx', { id: res.ID, url: `${server.url}/pic.png` });
    expect(r.data).toMatch(/^mah\.db\.create_resource_from_data cannot run inside mah\.db\.transaction: /);
    expect(r.url).toMatch(/^mah\.db\.create_resource_from_url cannot run inside mah\.db\.transaction: /);
    expect(r.version).toMatch(/^mah\.db\.add_resource_version_from_url cannot run inside mah\.db\.transaction: /);
  });
});

describe('the MRQL cache of an entry point', () => {
  it('identical calls answer from the cache until a mah.db write or a committed transaction', async () => {
    const r = await call('mrqlcache', 'cache', { base: lib.url });
    expect(r).toEqual({ first: 0, cached: 0, other_limit: 1, after_write: 1, after_failed_write: 2, after_commit: 3 });
  });

  it('all slots of one page render share one cache; the next render starts afresh', async () => {
    const before = (await lib.json<unknown[]>('GET', '/v1/notes?Name=mc-&pageSize=100')).body.length;
    await call('mrqlcache', 'arm', { base: lib.url });
    const page = async () => {
      const html = await (await lib.fetch('/notes')).text();
      return [Number(/data-top=(\d+)/.exec(html)?.[1]), Number(/data-bottom=(\d+)/.exec(html)?.[1])];
    };
    // page_top counts, then adds a note over HTTP; page_bottom's identical call is a cache hit.
    expect(await page()).toEqual([before, before]);
    expect(await page()).toEqual([before + 1, before + 1]);
  });
});
