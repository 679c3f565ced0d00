// library-plugins.md §32.17 access control under -auth: T-126, T-127, T-128 (endpoints),
// T-130 (role rule of mah.db.create_category), T-131 (the principal table), and T-132 widened to
// every render surface: block and display renders, shortcodes (and their catalogue) and
// injections seen by a group-limited viewer follow the plugin's scopedAccess flag.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, type Account, type Session } from '../../helpers/accounts.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { writePlugins } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

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
    'render-fixture': RENDER_FIXTURE,
    'inject-fixture': `plugin = { name = "inject-fixture", api_version = 1, capabilities = { "inject" } }
function init() mah.inject("page_bottom", function() return '<i id="inj-mark"></i>' end) end`,
  });
  lib = await startTestLibrary(['-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password, '-plugin-path', dir]);
  admin = await login(lib, ADMIN.username, ADMIN.password);
  scopeGroup = await makeGroup(lib, admin, 'G');
  editor = await makeAccount(lib, admin, { role: 'editor' });
  user1 = await makeAccount(lib, admin, { role: 'user' });
  scoped = await makeAccount(lib, admin, { role: 'user', scopeGroupId: scopeGroup, username: 'scoped' });
  guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: scopeGroup });
  for (const name of ['echo-api', 'scope-fixture', 'render-fixture', 'inject-fixture']) {
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

describe('render surfaces for group-limited viewers', () => {
  it('T-132 block and display renders, shortcodes and injections follow scopedAccess', async () => {
    const cat = await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'scoped header', CustomHeader: '[plugin:render-fixture:hello who="Ann"]' }, asSession(admin));
    const group = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'in scope', OwnerId: scopeGroup, CategoryId: cat.body.ID }, asSession(admin));
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'scoped note', OwnerId: scopeGroup }, asSession(admin));
    const block = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: note.body.ID, type: 'plugin:render-fixture:tally' }, asSession(admin));
    expect(block.status).toBeLessThan(300);
    const seen = async (who: Record<string, string>) => {
      const page = await (await lib.fetch(`/group?id=${group.body.ID}`, { headers: who })).text();
      return {
        block: (await lib.fetch(`/v1/plugins/render-fixture/block/render?blockId=${block.body.id}&mode=view`, { headers: who })).status,
        display: (await lib.json('POST', '/v1/plugins/render-fixture/display/render', { type: 'swatch', value: { hex: '#fff' } }, who)).status,
        shortcode: page.includes('<b>Hi Ann</b>') ? 'rendered' : page.includes('<!-- mr:plugin unavailable in this context -->') ? 'unavailable' : 'missing',
        injected: page.includes('<i id="inj-mark"></i>'),
        documented: (await lib.json<{ name: string }[]>('GET', '/v1/shortcodes/docs', undefined, who)).body.some((d) => d.name === 'plugin:render-fixture:hello'),
      };
    };
    const open = { block: 200, display: 200, shortcode: 'rendered', injected: true, documented: true };
    expect(await seen(as(scoped))).toEqual({ block: 403, display: 403, shortcode: 'unavailable', injected: false, documented: false });
    expect(await seen(as(user1))).toEqual(open);
    const flag = (name: string, allowed: string) => lib.json('POST', '/v1/plugin/scopedAccess', { name, allowed }, asSession(admin));
    for (const name of ['render-fixture', 'inject-fixture']) expect((await flag(name, 'yes')).status).toBe(200);
    try {
      expect(await seen(as(scoped))).toEqual(open);
    } finally {
      for (const name of ['render-fixture', 'inject-fixture']) await flag(name, 'no');
    }
    expect((await seen(as(scoped))).block).toBe(403);
  });
});
