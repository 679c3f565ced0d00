// library-plugins.md §26 / §11.1 under -auth: a plugin's mah.db runs as the caller, so a
// group-limited principal's invocation sees and writes only inside its subtree (T-130 reads),
// including listings, counts, MRQL and resources; writes outside are refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, type Account, type Session } from '../../helpers/accounts.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { writePlugins } from '../../helpers/plugins.js';

let lib: TestLibrary;
let admin: Session;
let scoped: Account;
let G: number;
let G1: number;
let H: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-plugins-scope-'));
  writePlugins(dir, {
    'scope-fixture': `plugin = { name = "scope-fixture", api_version = 1, capabilities = { "db:read", "db:write", "api", "jobs", "kv" } }
local function visible(r)
  local n, err = mah.db.create_note({ name = "deny-" .. r.tag, owner_id = r.g1 })
  local m = mah.db.mrql_query('type = note AND name ~ "scn-"', { scope = "global", limit = 100 })
  return { group = mah.db.get_group(r.g1) ~= nil, notes = #mah.db.query_notes({ name = "scn-", limit = 100 }), mrql = #m.items,
           wrote = n ~= nil, err = err, tags = #mah.db.list_tags({ name = r.tag }) }
end
function init()
  -- A job that reads and writes as its starter once a go-tag exists (tags stay readable to all).
  mah.api("POST", "later", function(ctx)
    local r = mah.json.decode(ctx.body)
    mah.kv.delete("seen")
    local now = visible({ g1 = r.g1, tag = r.tag .. "-before" })
    mah.start_job("deny probe", function()
      while #mah.db.list_tags({ name = r.tag }) == 0 do mah.sleep(0.05) end
      mah.kv.set("seen", visible(r))
    end)
    ctx.json(now)
  end)
  mah.api("GET", "seen", function(ctx) ctx.json({ seen = mah.kv.get("seen") }) end)
  mah.api("GET", "group", function(ctx) ctx.json({ found = mah.db.get_group(tonumber(ctx.query.id)) ~= nil }) end)
  mah.api("GET", "lists", function(ctx)
    local names = {}
    for _, g in ipairs(mah.db.query_groups({ name = "sc-", limit = 100 })) do names[#names + 1] = g.name end
    table.sort(names)
    local notes = {}
    for _, n in ipairs(mah.db.query_notes({ name = "scn-", limit = 100 })) do notes[#notes + 1] = n.name end
    table.sort(notes)
    local m = mah.db.mrql_query('type = note AND name ~ "scn-"', { scope = "global", limit = 100 })
    ctx.json({ groups = names, notes = notes, count = mah.db.count_notes({ name = "scn-" }), mrql = #m.items })
  end)
  mah.api("POST", "write", function(ctx)
    local r = mah.json.decode(ctx.body)
    local n, err = mah.db.create_note({ name = "scn-written", owner_id = r.owner })
    local p, perr = mah.db.patch_group(r.other, { description = "touched" })
    ctx.json({ ok = n ~= nil, err = err, patched = p ~= nil, perr = perr })
  end)
  mah.api("POST", "taxonomy", function(ctx)
    local t, terr = mah.db.create_relation_type({ name = "rt" .. mah.util.now(), from_category = 1, to_category = 1 })
    local r, rerr = mah.db.create_group_relation({ from_group_id = 1, to_group_id = 2, relation_type_id = 1 })
    local d, derr = mah.db.delete_relation_type(999999)
    ctx.json({ terr = terr, rerr = rerr, derr = derr })
  end)
  mah.api("POST", "upload", function(ctx)
    local r = mah.json.decode(ctx.body)
    local res, err = mah.db.create_resource_from_data(mah.util.base64.encode(r.text), { owner_id = r.owner })
    ctx.json({ ok = res ~= nil, err = err })
  end)
end`,
  });
  lib = await startTestLibrary(['-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password, '-plugin-path', dir]);
  admin = await login(lib, ADMIN.username, ADMIN.password);
  G = await makeGroup(lib, admin, 'sc-G');
  G1 = await makeGroup(lib, admin, 'sc-G1', G);
  H = await makeGroup(lib, admin, 'sc-H');
  for (const [name, owner] of [['scn-in', G1], ['scn-out', H]] as const) {
    expect((await lib.json('POST', '/v1/note', { Name: name, OwnerId: owner }, asSession(admin))).status).toBe(200);
  }
  scoped = await makeAccount(lib, admin, { role: 'user', scopeGroupId: G, username: 'scoped-db' });
  expect((await lib.form('/v1/plugin/enable', [['name', 'scope-fixture']], { accept: 'application/json', ...asSession(admin) })).status).toBe(200);
  await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'scope-fixture', allowed: 'yes' }, asSession(admin));
}, 120_000);
afterAll(async () => lib?.close());

describe('mah.db runs as the caller', () => {
  it('T-130 a getter sees only the caller subtree', async () => {
    const get = async (id: number, who: Record<string, string>) => (await lib.json('GET', `/v1/plugins/scope-fixture/group?id=${id}`, undefined, who)).body;
    expect(await get(H, asSession(admin))).toEqual({ found: true });
    expect(await get(H, asBearer(scoped.token))).toEqual({ found: false });
    expect(await get(G1, asBearer(scoped.token))).toEqual({ found: true });
  });

  it('listings, counts and MRQL are confined', async () => {
    const asAdmin = (await lib.json('GET', '/v1/plugins/scope-fixture/lists', undefined, asSession(admin))).body;
    expect(asAdmin).toEqual({ groups: ['sc-G', 'sc-G1', 'sc-H'], notes: ['scn-in', 'scn-out'], count: 2, mrql: 2 });
    const asScoped = (await lib.json('GET', '/v1/plugins/scope-fixture/lists', undefined, asBearer(scoped.token))).body;
    expect(asScoped).toEqual({ groups: ['sc-G', 'sc-G1'], notes: ['scn-in'], count: 1, mrql: 1 });
  });

  it('writes outside the subtree are refused', async () => {
    const r = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/write', { owner: H, other: H }, asBearer(scoped.token));
    expect(r.body.ok).toBe(false);
    expect(r.body.err).toBeTruthy();
    expect(r.body.patched).toBe(false);
    expect(r.body.perr).toBeTruthy();
    const inside = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/write', { owner: G1, other: G1 }, asBearer(scoped.token));
    expect(inside.body).toMatchObject({ ok: true, patched: true });
  });
});

describe('role and scope rules of the creating writers', () => {
  it('relation types and group relations need an editor or admin actor', async () => {
    const user = await makeAccount(lib, admin, { role: 'user' });
    const r = (await lib.json<Record<string, string>>('POST', '/v1/plugins/scope-fixture/taxonomy', {}, asBearer(user.token))).body;
    expect(r).toEqual({
      terr: 'creating a relation type: your role does not have permission to perform this operation',
      rerr: 'creating a group relation: your role does not have permission to perform this operation',
      derr: 'deleting a relation type: your role does not have permission to perform this operation',
    });
    const editor = await makeAccount(lib, admin, { role: 'editor' });
    const e = (await lib.json<Record<string, string>>('POST', '/v1/plugins/scope-fixture/taxonomy', {}, asBearer(editor.token))).body;
    expect(e.terr ?? '').not.toContain('your role');
    expect(e.derr).toBe('relation type 999999 not found');
  });

  it('create_resource_from_data is confined to the actor subtree', async () => {
    const out = (await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/upload', { text: 'scoped bytes 1', owner: H }, asBearer(scoped.token))).body;
    expect(out.ok).toBe(false);
    expect(String(out.err)).toContain('outside your permitted scope');
    const none = (await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/upload', { text: 'scoped bytes 2' }, asBearer(scoped.token))).body;
    expect(none.ok).toBe(false);
    const inside = (await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/upload', { text: 'scoped bytes 3', owner: G1 }, asBearer(scoped.token))).body;
    expect(inside).toEqual({ ok: true });
  });
});

describe('a deleted or disabled actor account', () => {
  // The job starts as a live account, which is then disabled (or deleted) before it goes on.
  const probe = async (end: (id: number) => Promise<unknown>, tag: string) => {
    const account = await makeAccount(lib, admin, { role: 'user', scopeGroupId: G });
    const before = await lib.json<Record<string, unknown>>('POST', '/v1/plugins/scope-fixture/later', { g1: G1, tag }, asBearer(account.token));
    expect(before.body).toMatchObject({ group: true, wrote: true });
    expect(before.body.notes).toBeGreaterThan(0);
    expect(before.body.mrql).toBeGreaterThan(0);
    await end(account.id);
    expect((await lib.json('POST', '/v1/tag', { Name: tag }, asSession(admin))).status).toBe(200);
    let seen: Record<string, unknown> | undefined;
    for (let i = 0; i < 200 && !seen; i++) seen = (await lib.json<{ seen?: Record<string, unknown> }>('GET', '/v1/plugins/scope-fixture/seen', undefined, asSession(admin))).body.seen;
    return seen;
  };

  it('a disabled account sees no groups, resources or notes and writes nothing; tags stay readable', async () => {
    const seen = await probe((id) => lib.json('POST', '/v1/user', { id, disabled: true }, asSession(admin)), 'deny-go-disabled');
    expect(seen).toMatchObject({ group: false, notes: 0, mrql: 0, wrote: false, tags: 1 });
    expect(seen?.err).toBeTruthy();
  });

  it('a deleted account acts the same way', async () => {
    const seen = await probe((id) => lib.json('POST', '/v1/user/delete', { id }, asSession(admin)), 'deny-go-deleted');
    expect(seen).toMatchObject({ group: false, notes: 0, mrql: 0, wrote: false, tags: 1 });
  });
});
