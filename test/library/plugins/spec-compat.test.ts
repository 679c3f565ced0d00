// Plugins written for the reference service run unchanged (issue 14): three behaviours that used
// to deviate from library-plugins.md. §11.6/§11.10: mrql_query inside mah.db.transaction reads
// outside the block (PostgreSQL; SQLite has the block's one connection, see docs/plugin-host.md).
// §11.7: update_relation_type replaces every field, so an omitted category is cleared — which a
// relation type refuses — while patch keeps it. §16.4: a before-hook's returned table is the
// data of each bulk-update item, so mass edit and recalculate dimensions write its rewrites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB } from '../../helpers/library.js';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { png } from '../../helpers/resources.js';
import { uploadResource } from '../../helpers/uploads.js';

const plugins: Record<string, string> = {
  compat: `plugin = { name = "compat", api_version = 1, capabilities = { "db:write", "db:read", "api", "hooks" } }
local function body(ctx) return mah.json.decode(ctx.body or "{}") or {} end
local function count(name)
  local r = mah.db.mrql_query('type = note AND name = $n', { params = { n = name }, scope = "global" })
  return #r.items
end
function init()
  mah.api("POST", "mrql-in-tx", function(ctx)
    local name = body(ctx).name
    local inside
    local ok, err = mah.db.transaction(function()
      mah.db.create_note({ name = name })
      inside = count(name)
    end)
    ctx.json({ ok = ok, err = err, inside = inside, after = count(name) })
  end)
  mah.api("POST", "relation-type", function(ctx)
    local r = body(ctx)
    local t = mah.db.create_relation_type({ name = r.name, from_category = r.from, to_category = r.to })
    local out = { id = t.id }
    out.upd, out.upd_err = mah.db.update_relation_type({ id = t.id, name = r.name .. "-u" })
    out.after_upd = mah.db.patch_relation_type({ id = t.id })
    out.upd_both = mah.db.update_relation_type({ id = t.id, name = r.name .. "-v", from_category = r.to, to_category = r.from })
    out.patched = mah.db.patch_relation_type({ id = t.id, description = "p" })
    out.zero, out.zero_err = mah.db.patch_relation_type({ id = t.id, to_category = 0 })
    ctx.json(out)
  end)
  local function rewrite(r)
    if r.name == "rewrite-me" then r.name = "rewritten"; r.description = "by hook"; r.meta = '{"hooked":true}'; return r end
    if r.name == "bad-meta" then r.meta = "[1]"; return r end
  end
  mah.on("before_note_update", rewrite)
  mah.on("before_group_update", rewrite)
  mah.on("before_resource_update", rewrite)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  expect((await lib.enable('compat')).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const call = async <T = Record<string, unknown>>(path: string, body: unknown) => {
  const r = await lib.json<T>('POST', `/v1/plugins/compat/${path}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

describe('mrql_query inside mah.db.transaction (§11.6, §11.10)', () => {
  it('does not see the block’s uncommitted writes on PostgreSQL, and never hangs', async () => {
    const r = await call<{ ok: boolean; inside: number; after: number }>('mrql-in-tx', { name: 'tx-note-unseen' });
    expect(r.ok).toBe(true);
    // SQLite: the block holds the only connection, so the read runs inside it (docs/plugin-host.md).
    expect(r.inside).toBe(TEST_DB === 'postgres' ? 0 : 1);
    expect(r.after).toBe(1);
  });
});

describe('update_relation_type replaces every field (§11.7)', () => {
  it('refuses an update without both categories, keeps them on patch, refuses a cleared one', async () => {
    const a = (await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'compat-from' })).body.ID;
    const b = (await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'compat-to' })).body.ID;
    const r = await call<Record<string, Record<string, unknown> | string | number | undefined>>('relation-type', { name: 'compat-rt', from: a, to: b });
    expect(r.upd).toBeUndefined();
    expect(r.upd_err).toContain('FromCategory is required');
    // The refused update changed nothing.
    expect(r.after_upd).toMatchObject({ name: 'compat-rt', from_category_id: a, to_category_id: b });
    expect(r.upd_both).toMatchObject({ name: 'compat-rt-v', description: '', from_category_id: b, to_category_id: a });
    expect(r.patched).toMatchObject({ name: 'compat-rt-v', description: 'p', from_category_id: b, to_category_id: a });
    expect(r.zero).toBeUndefined();
    expect(r.zero_err).toContain('ToCategory is required');
  });
});

describe('before-hooks rewrite bulk-update items (§16.4)', () => {
  const note = async (name: string) => (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: name })).body.ID;
  const readNote = async (id: number) => (await lib.json<{ Name: string; Description: string; Meta: Record<string, unknown> }>('GET', `/v1/note?id=${id}`)).body;

  it('mass edit writes each item’s rewritten name, description and meta before its ops', async () => {
    const hooked = await note('rewrite-me');
    const plain = await note('left-alone');
    const r = await lib.json('POST', '/v1/notes/massEdit', { ID: [hooked, plain], MetaOp: 'merge', Meta: '{"k":1}' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await readNote(hooked)).toMatchObject({ Name: 'rewritten', Description: 'by hook', Meta: { hooked: true, k: 1 } });
    expect(await readNote(plain)).toMatchObject({ Name: 'left-alone', Description: '', Meta: { k: 1 } });
  });

  it('groups too; a rewrite that fails validation refuses the whole batch', async () => {
    const g = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'rewrite-me' })).body.ID;
    const bad = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'bad-meta' })).body.ID;
    expect((await lib.json('POST', '/v1/groups/massEdit', { ID: [g], MetaOp: 'merge', Meta: '{"k":2}' })).status).toBe(200);
    expect((await lib.json<{ Name: string; Meta: unknown }>('GET', `/v1/group?id=${g}`)).body).toMatchObject({ Name: 'rewritten', Meta: { hooked: true, k: 2 } });
    const refused = await lib.json<{ error: string }>('POST', '/v1/groups/massEdit', { ID: [g, bad], MetaOp: 'merge', Meta: '{"k":3}' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('Meta must be a JSON object');
    expect((await lib.json<{ Meta: unknown }>('GET', `/v1/group?id=${g}`)).body.Meta).toEqual({ hooked: true, k: 2 });
  });

  it('recalculate dimensions writes a rewritten resource with its new size', async () => {
    const res = await uploadResource(lib, 'rewrite-me', await png(7, 5));
    expect((await lib.json('POST', '/v1/resource/recalculateDimensions', { ID: [res.ID] })).status).toBe(200);
    const read = (await lib.json<{ Name: string; Meta: unknown; Width: number }>('GET', `/v1/resource?id=${res.ID}`)).body;
    expect(read).toMatchObject({ Name: 'rewritten', Meta: { hooked: true }, Width: 7 });
  });
});
