// library-plugins.md §16 resource hooks: before/after create, update and delete from the upload,
// edit, delete, bulk delete, merge and mah.db paths; rewrites, vetoes (a bulk veto cancels the
// batch) and payload shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { png, upload } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';

const plugins: Record<string, string> = {
  reswatch: `plugin = { name = "reswatch", api_version = 1, capabilities = { "hooks", "kv", "api", "db:write" } }
local function push(key, v) local l = mah.kv.get(key) or {}; l[#l + 1] = v; mah.kv.set(key, l) end
function init()
  mah.on("before_resource_create", function(r)
    push("bc", { id = r.id, name = r.name, t = math.type(r.id) })
    if r.name:find("veto", 1, true) then mah.abort("no vetoed files") end
    if r.name:find("rename", 1, true) then r.name = "renamed-by-hook"; r.description = "hooked"; return r end
  end)
  mah.on("after_resource_create", function(r) push("ac", { id = r.id, name = r.name, t = math.type(r.id) }) end)
  mah.on("before_resource_update", function(r)
    push("bu", { id = r.id, name = r.name })
    if r.name == "bulk-stop" then mah.abort("no bulk edits here") end
    if r.name == "shout" then r.name = "SHOUT"; return r end
  end)
  mah.on("after_resource_update", function(r) push("au", { id = r.id, name = r.name }); push("um", { id = r.id, meta = r.meta }) end)
  mah.on("before_resource_delete", function(r)
    push("bd", r)
    if mah.kv.get("protect") == r.id then mah.abort("resource is protected") end
  end)
  mah.on("after_resource_delete", function(r) push("ad", r) end)
  mah.api("GET", "seen", function(ctx) ctx.json({ v = mah.kv.get(ctx.query.k) or {} }) end)
  mah.api("POST", "reset", function(ctx) for _, k in ipairs({ "bc", "ac", "bu", "au", "um", "bd", "ad", "protect" }) do mah.kv.delete(k) end ctx.json({}) end)
  mah.api("POST", "protect", function(ctx) mah.kv.set("protect", mah.json.decode(ctx.body).id); ctx.json({}) end)
end`,
  resdb: `plugin = { name = "resdb", api_version = 1, capabilities = { "api", "db:write" } }
function init()
  mah.api("POST", "patch", function(ctx)
    local r = mah.json.decode(ctx.body)
    ctx.json(mah.db.patch_resource(r.id, { name = r.name }))
  end)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  for (const name of Object.keys(plugins)) expect((await lib.enable(name)).status, name).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const seen = async (k: string) => (await lib.json<{ v: Record<string, unknown>[] }>('GET', `/v1/plugins/reswatch/seen?k=${k}`)).body.v;
const reset = () => lib.json('POST', '/v1/plugins/reswatch/reset');
const resourceNames = async () => (await lib.json<{ Name: string }[]>('GET', '/v1/resources?pageSize=200')).body.map((r) => r.Name);

describe('resource hooks', () => {
  it('an upload fires create hooks with the file name; before may rewrite', async () => {
    await reset();
    const plain = await uploadResource(lib, 'plain.txt');
    expect(await seen('bc')).toEqual([{ id: 0, name: 'plain.txt', t: 'integer' }]);
    expect(await seen('ac')).toEqual([{ id: plain.ID, name: 'plain.txt', t: 'integer' }]);
    const renamed = await uploadResource(lib, 'please-rename.txt');
    expect(renamed.Name).toBe('renamed-by-hook');
    const stored = await lib.json<{ Name: string; Description: string }>('GET', `/v1/resource?id=${renamed.ID}`);
    expect(stored.body).toMatchObject({ Name: 'renamed-by-hook', Description: 'hooked' });
  });

  it('a before-hook vetoes an upload with 400 and nothing is stored', async () => {
    const r = await upload(lib, [{ name: 'veto-me.txt', data: Buffer.from('veto me') }]);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'plugin aborted: no vetoed files' });
    expect(await resourceNames()).not.toContain('veto-me.txt');
  });

  it('an edit fires update hooks and may be rewritten', async () => {
    await reset();
    const res = await uploadResource(lib, 'to-edit.txt');
    const r = await lib.json<{ Name: string }>('POST', '/v1/resource/edit', { ID: res.ID, Name: 'shout' });
    expect(r.body.Name).toBe('SHOUT');
    expect(await seen('bu')).toEqual([{ id: res.ID, name: 'shout' }]);
    expect(await seen('au')).toEqual([{ id: res.ID, name: 'SHOUT' }]);
  });

  it('mah.db writes fire the resource hooks too', async () => {
    await reset();
    const res = await uploadResource(lib, 'via-db.txt');
    const r = await lib.json<{ name: string }>('POST', '/v1/plugins/resdb/patch', { id: res.ID, name: 'shout' });
    expect(r.body.name).toBe('SHOUT');
  });

  it('delete and bulk delete fire delete hooks; a veto cancels the whole batch', async () => {
    await reset();
    const a = await uploadResource(lib, 'del-a.txt');
    const b = await uploadResource(lib, 'del-b.txt');
    const c = await uploadResource(lib, 'del-c.txt');
    expect((await lib.form('/v1/resource/delete', [['Id', a.ID]], { accept: 'application/json' })).status).toBe(200);
    expect(await seen('bd')).toEqual([{ id: a.ID }]);
    expect(await seen('ad')).toEqual([{ id: a.ID, name: 'del-a.txt' }]);
    await lib.json('POST', '/v1/plugins/reswatch/protect', { id: c.ID });
    const r = await lib.json('POST', '/v1/resources/delete', { ID: [b.ID, c.ID] });
    expect(r).toMatchObject({ status: 400, body: { error: 'plugin aborted: resource is protected' } });
    const names = await resourceNames();
    expect(names).toContain('del-b.txt');
    expect(names).toContain('del-c.txt');
  });

  it('a merge fires delete hooks for each loser', async () => {
    await reset();
    const w = await uploadResource(lib, 'merge-w.txt');
    const l1 = await uploadResource(lib, 'merge-l1.txt');
    const l2 = await uploadResource(lib, 'merge-l2.txt');
    const r = await lib.json('POST', '/v1/resources/merge', { Winner: w.ID, Losers: [l1.ID, l2.ID] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await seen('bd')).toEqual([{ id: l1.ID }, { id: l2.ID }]);
    expect(await seen('ad')).toEqual([{ id: l1.ID }, { id: l2.ID }]);
    expect((await seen('au')).map((x) => x.id)).toEqual([w.ID]);
  });
});

describe('bulk updates fire per-item hooks', () => {
  it('mass edit: each item before and after, with its committed meta; one veto cancels the batch', async () => {
    const a = await uploadResource(lib, 'bulk-a.txt', Buffer.from('bulk a'));
    const b = await uploadResource(lib, 'bulk-b.txt', Buffer.from('bulk b'));
    await reset();
    const r = await lib.json('POST', '/v1/resources/massEdit', { ID: [a.ID, b.ID], MetaOp: 'merge', Meta: '{"k":1}' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const before = await seen('bu');
    expect(before.map((x) => x.id)).toEqual([a.ID, b.ID]);
    expect(before.map((x) => x.name)).toEqual(['bulk-a.txt', 'bulk-b.txt']);
    const after = await seen('au');
    expect(after.map((x) => x.id)).toEqual([a.ID, b.ID]);
    expect((await seen('um')).map((x) => JSON.parse(String(x.meta)))).toEqual([{ k: 1 }, { k: 1 }]);

    const veto = await uploadResource(lib, 'bulk-stop', Buffer.from('bulk stop'));
    const refused = await lib.json<{ error: string }>('POST', '/v1/resources/massEdit', { ID: [a.ID, veto.ID], MetaOp: 'merge', Meta: '{"k":2}' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('plugin aborted: no bulk edits here');
    expect((await lib.json<{ Meta: Record<string, unknown> }>('GET', `/v1/resource?id=${a.ID}`)).body.Meta).toEqual({ k: 1 });
  });

  it('recalculate dimensions: each resource fires its update hooks', async () => {
    const a = await uploadResource(lib, 'dims-a.png', await png(7, 5));
    const b = await uploadResource(lib, 'dims-b.png', await png(9, 4));
    await reset();
    expect((await lib.json('POST', '/v1/resource/recalculateDimensions', { ID: [a.ID, b.ID] })).status).toBe(200);
    expect((await seen('bu')).map((x) => x.id)).toEqual([a.ID, b.ID]);
    expect((await seen('au')).map((x) => x.name)).toEqual(['dims-a.png', 'dims-b.png']);
  });
});
