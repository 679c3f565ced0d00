// library-plugins.md §32.11 database access (T-098 … T-105): update and patch, transactions with
// rollback and after-commit hooks, literal substring filters, counting, MRQL, file data and
// associations, all through a plugin's JSON endpoints against a started server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { png } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';

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
  mah.api("GET", "n", function(ctx) ctx.json({ n = mah.kv.get("n") or 0 }) end)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  for (const name of Object.keys(plugins)) expect((await lib.enable(name)).status, name).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const tagNames = async () => (await lib.json<{ Name: string }[]>('GET', '/v1/tags?pageSize=500')).body.map((t) => t.Name);
const counted = async () => (await lib.json<{ n: number }>('GET', '/v1/plugins/tagcounter/n')).body.n;

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
