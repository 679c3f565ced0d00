// library-plugins.md §32.17 access control under -auth: T-126, T-127, T-128 (endpoints),
// T-130 (role rule of mah.db.create_category) and T-131 (the principal table).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, type Account, type Session } from '../../helpers/accounts.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { writePlugins } from '../../helpers/plugins.js';

let lib: TestLibrary;
let admin: Session;
let editor: Account;
let user1: Account;
let scoped: Account;
let guest: Account;
let scopeGroup: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-plugins-auth-'));
  writePlugins(dir, {
    'echo-api': `plugin = { name = "echo-api", version = "1.0" }
function init()
  mah.api("GET", "echo", function(ctx) ctx.json({ ok = true }) end)
  mah.api("POST", "echo", function(ctx) ctx.json({ posted = true }) end)
end`,
    'scope-fixture': `plugin = { name = "scope-fixture", api_version = 1, capabilities = { "db:read", "db:write", "api" } }
function init()
  mah.api("GET", "who", function(ctx) ctx.json(ctx.principal) end)
  mah.api("POST", "cat", function(ctx)
    local c, e = mah.db.create_category({ name = "c" .. mah.util.now() })
    ctx.json({ ok = c ~= nil, err = e })
  end)
end`,
  });
  lib = await startTestLibrary(['-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password, '-plugin-path', dir]);
  admin = await login(lib, ADMIN.username, ADMIN.password);
  scopeGroup = await makeGroup(lib, admin, 'G');
  editor = await makeAccount(lib, admin, { role: 'editor' });
  user1 = await makeAccount(lib, admin, { role: 'user' });
  scoped = await makeAccount(lib, admin, { role: 'user', scopeGroupId: scopeGroup, username: 'scoped' });
  guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: scopeGroup });
  for (const name of ['echo-api', 'scope-fixture']) {
    const r = await lib.form('/v1/plugin/enable', [['name', name]], { accept: 'application/json', ...asSession(admin) });
    expect(r.status).toBe(200);
  }
}, 120_000);
afterAll(async () => lib?.close());

const as = (a: Account) => asBearer(a.token);

describe('access control', () => {
  it('T-126 management is admin-only', async () => {
    const refused = { status: 403, body: { error: 'insufficient permissions' } };
    expect(await lib.json('GET', '/v1/plugins/manage', undefined, as(editor))).toMatchObject(refused);
    for (const path of ['/v1/plugin/enable', '/v1/plugin/disable', '/v1/plugin/purge-data', '/v1/plugin/scopedAccess', '/v1/plugin/settings?name=echo-api']) {
      expect(await lib.json('POST', path, { name: 'echo-api' }, as(editor)), path).toMatchObject(refused);
    }
    expect((await lib.json('GET', '/v1/plugins/manage')).status).toBe(401);
  });

  it('T-127 scoped principals need the plugin opened', async () => {
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(scoped))).status).toBe(403);
    const open = await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'echo-api', allowed: 'yes' }, asSession(admin));
    expect(open.body).toEqual({ ok: true, name: 'echo-api', allow_scoped_principals: true });
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(scoped))).status).toBe(200);
    const close = await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'echo-api', allowed: 'maybe' }, asSession(admin));
    expect(close.body).toEqual({ ok: true, name: 'echo-api', allow_scoped_principals: false });
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(scoped))).status).toBe(403);
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(user1))).status).toBe(200);
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(editor))).status).toBe(200);
    expect(await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'ghost', allowed: 'yes' }, asSession(admin))).toMatchObject({ status: 404, body: { error: 'plugin "ghost" not found' } });
  });

  it('T-128 guests may GET an opened plugin but not POST', async () => {
    await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'echo-api', allowed: 'on' }, asSession(admin));
    expect((await lib.json('GET', '/v1/plugins/echo-api/echo', undefined, as(guest))).status).toBe(200);
    expect((await lib.json('POST', '/v1/plugins/echo-api/echo', {}, as(guest))).status).toBe(403);
  });

  it('T-130 plugin database writes keep the role rules', async () => {
    expect((await lib.json('POST', '/v1/plugins/scope-fixture/cat', {}, asSession(admin))).body).toMatchObject({ ok: true });
    expect((await lib.json('POST', '/v1/plugins/scope-fixture/cat', {}, as(editor))).body).toMatchObject({ ok: true });
    expect((await lib.json('POST', '/v1/plugins/scope-fixture/cat', {}, as(user1))).body).toEqual({
      ok: false,
      err: 'creating a category: your role does not have permission to perform this operation',
    });
  });

  it('T-131 the principal table', async () => {
    await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'scope-fixture', allowed: '1' }, asSession(admin));
    expect((await lib.json('GET', '/v1/plugins/scope-fixture/who', undefined, as(scoped))).body).toEqual({
      userId: scoped.id,
      username: 'scoped',
      role: 'user',
      isAdmin: false,
      scopeGroupId: scopeGroup,
      superUser: false,
    });
    const a = (await lib.json<Record<string, unknown>>('GET', '/v1/plugins/scope-fixture/who', undefined, asSession(admin))).body;
    expect(a.isAdmin).toBe(true);
    expect(a.scopeGroupId).toBeUndefined();
  });
});
