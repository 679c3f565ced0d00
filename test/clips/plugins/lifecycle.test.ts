// Companion §15.15: install, list, events, auto-disable, enable/disable, storage, delete
// (T154–T162, T172, T211, T216).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';
import { ERR, freshUpload, HELLO, HELLO_JSON, install, pluginFile, settled, storage, type PluginJson } from './helper.js';

let t: TestClips;
let F: FixtureF;

beforeEach(async () => {
  t = await startTestClips();
  F = await fixtureF(t);
});
afterEach(async () => {
  await t.close();
});

const list = async () => (await t.req<{ plugins: PluginJson[]; total: number }>(F.KV, 'GET', '/plugins')).body;
const byName = async (name: string) => (await list()).plugins.find((p) => p.name === name)!;

describe('install (T154, T156, T158, T216)', () => {
  it('installs a local file, stores it and lists it', async () => {
    const r = await t.req(F.KA, 'POST', '/plugins', { source: pluginFile(t, 'hello.lua', HELLO) });
    expect(r.status).toBe(201);
    expect(r.body).toEqual(HELLO_JSON);
    expect(existsSync(join(t.dataDir, 'plugins', 'hello.lua'))).toBe(true);
    expect(await t.req(F.KV, 'GET', '/plugins').then((x) => x.body)).toEqual({ plugins: [HELLO_JSON], total: 1 });
  });

  it('refuses bad sources with 400 and viewers or editors with 403', async () => {
    const noTable = await t.req(F.KA, 'POST', '/plugins', { source: pluginFile(t, 'bad.lua', 'print("hi")') });
    expect(noTable.status).toBe(400);
    expect(noTable.body).toEqual({ error: 'invalid plugin: plugin must define a Plugin table' });
    const noName = await t.req(F.KA, 'POST', '/plugins', { source: pluginFile(t, 'noname.lua', 'Plugin = { version = "1" }') });
    expect(noName.body).toEqual({ error: 'invalid plugin: plugin must have a name' });
    expect((await t.req(F.KA, 'POST', '/plugins', { source: '' })).status).toBe(400);
    expect((await t.req(F.KA, 'POST', '/plugins', {})).body).toEqual({ error: 'source is required' });
    expect((await t.req(F.KA, 'POST', '/plugins', { source: 'relative.lua' })).status).toBe(400);
    expect((await t.req(F.KA, 'POST', '/plugins', { source: join(t.dir, 'missing.lua') })).status).toBe(400);
    expect((await t.req(F.KE, 'POST', '/plugins', { source: pluginFile(t, 'hello.lua', HELLO) })).status).toBe(403);
    const syntax = await t.req<{ error: string }>(F.KA, 'POST', '/plugins', { source: pluginFile(t, 'syn.lua', 'Plugin = { name = "S" }\nfunction (') });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error).toMatch(/^failed to load plugin: /);
    expect((await list()).total).toBe(0);
    expect(existsSync(join(t.dataDir, 'plugins', 'syn.lua'))).toBe(false);
  });

  it('accepts and ignores `required` on settings; the plugin runs without the value (T216)', async () => {
    const src = `Plugin = { name = "Req", version = "1.0.0", settings = {{key = "api_key", type = "password", label = "Key", required = true}} }
storage.set("seen", tostring(storage.get("api_key")))`;
    const p = await install(t, 'req.lua', src);
    expect(p.status).toBe('loaded');
    expect((p as unknown as { settings: unknown }).settings).toEqual([{ key: 'api_key', type: 'password', label: 'Key' }]);
    expect(await storage(t, p.id)).toEqual({ seen: 'nil' });
  });

  it('runs the top-level chunk on every load; reinstall keeps the id, storage and grants; app:startup only at start (T211)', async () => {
    const boot = `Plugin = {name = "Boot", version = "1.0.0", events = {"app:startup"}}
storage.set("boots", tostring((tonumber(storage.get("boots")) or 0) + 1))
storage.set("loaded_at", tostring(utils.time()))
storage.set("has_http", tostring(http ~= nil and http.get ~= nil))
log("boot loaded")
function on_startup() storage.set("startup_seen", "true") end`;
    const p = await install(t, 'boot.lua', boot);
    let s = await storage(t, p.id);
    expect(s.boots).toBe('1');
    expect(s.loaded_at).toMatch(/^\d+$/);
    expect(s.has_http).toBe('true');
    expect(s.startup_seen).toBeUndefined();
    expect((await t.req(F.KA, 'PUT', `/plugins/${p.id}/disable`)).status).toBe(204);
    expect((await t.req(F.KA, 'PUT', `/plugins/${p.id}/enable`)).status).toBe(204);
    expect((await storage(t, p.id)).boots).toBe('2');
    const repo = t.svc.services.plugins['repo'];
    await repo.addGrant(p.id, 'fs_write', t.dir, 'now');
    const again = await install(t, 'boot.lua', boot);
    expect(again.id).toBe(p.id);
    expect(await repo.effectiveGrants(p.id)).toEqual([{ permission_type: 'fs_write', path: t.dir }]);
    s = await storage(t, p.id);
    expect(s.boots).toBe('3');
    expect(s.startup_seen).toBeUndefined();
  });
});

describe('events and errors (T155, T159, T160, T161)', () => {
  it('delivers clip:created without holding up the upload (T155)', async () => {
    await install(t, 'hello.lua', HELLO);
    expect((await freshUpload(t, F.KE)).status).toBe(201);
    await settled(t);
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage/count')).body).toEqual({ key: 'count', value: '1' });
  });

  it('disables a plugin after three failures in a row; enable resets the count (T159, T160)', async () => {
    await install(t, 'hello.lua', HELLO);
    await install(t, 'err.lua', ERR);
    for (let i = 0; i < 3; i++) expect((await freshUpload(t, F.KE)).status).toBe(201);
    await settled(t);
    expect(await byName('Err')).toMatchObject({ id: 2, enabled: false, status: 'error' });
    expect(await byName('Hello')).toMatchObject({ status: 'loaded' });
    expect((await storage(t, 1)).count).toBe('3');
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await storage(t, 1)).count).toBe('4');
    expect(await byName('Err')).toMatchObject({ status: 'error' });

    expect((await t.req(F.KA, 'PUT', '/plugins/2/enable')).status).toBe(204);
    await freshUpload(t, F.KE);
    await settled(t);
    expect(await byName('Err')).toMatchObject({ enabled: true, status: 'loaded' });
    await freshUpload(t, F.KE);
    await freshUpload(t, F.KE);
    await settled(t);
    expect(await byName('Err')).toMatchObject({ enabled: false, status: 'error' });
  });

  it('disable stops events, is idempotent, and enable loads again; unknown ids 404 (T161)', async () => {
    await install(t, 'hello.lua', HELLO);
    expect((await t.req(F.KA, 'PUT', '/plugins/1/disable')).status).toBe(204);
    expect(await byName('Hello')).toMatchObject({ enabled: false, status: 'disabled' });
    await freshUpload(t, F.KE);
    await settled(t);
    expect((await storage(t, 1)).count).toBeUndefined();
    expect((await t.req(F.KA, 'PUT', '/plugins/1/disable')).status).toBe(204);
    expect((await t.req(F.KA, 'PUT', '/plugins/1/enable')).status).toBe(204);
    expect(await byName('Hello')).toMatchObject({ enabled: true, status: 'loaded' });
    expect((await t.req(F.KA, 'PUT', '/plugins/999/enable')).status).toBe(404);
    expect((await t.req(F.KA, 'PUT', '/plugins/999/disable')).status).toBe(404);
    expect((await t.req(F.KE, 'PUT', '/plugins/1/disable')).status).toBe(403);
  });
});

describe('storage and delete (T162, T172)', () => {
  it('reads and writes storage through the API (T162)', async () => {
    await install(t, 'hello.lua', HELLO);
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage')).body).toEqual({});
    expect((await t.req(F.KA, 'PUT', '/plugins/1/storage/greeting', { value: 'hey' })).status).toBe(204);
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage')).body).toEqual({ greeting: 'hey' });
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage/greeting')).body).toEqual({ key: 'greeting', value: 'hey' });
    const missing = await t.req(F.KA, 'GET', '/plugins/1/storage/missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'key not found' });
    expect((await t.req(F.KA, 'PUT', '/plugins/1/storage/x', { value: 5 })).status).toBe(400);
    expect((await t.req(F.KE, 'GET', '/plugins/1/storage')).status).toBe(403);
    expect((await t.req(F.KA, 'GET', '/plugins/999/storage')).status).toBe(404);
    expect((await t.req(F.KA, 'PUT', `/plugins/1/storage/${'k'.repeat(257)}`, { value: 'v' })).status).toBe(400);
    expect((await t.req(F.KA, 'PUT', '/plugins/1/storage/big', { value: 'v'.repeat(1024 * 1024 + 1) })).status).toBe(413);
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage')).body).toEqual({ greeting: 'hey' });
  });

  it('validates values of declared checkbox and select settings', async () => {
    const p = await install(t, 'set.lua', `Plugin = { name = "Set", version = "1.0.0", settings = {
  {key = "on", type = "checkbox", label = "On"},
  {key = "mode", type = "select", label = "Mode", options = {"fast", {value = "slow", label = "Slow"}}},
  {key = "free", type = "text", label = "Free"} } }`);
    const put = (key: string, value: string) => t.req(F.KA, 'PUT', `/plugins/${p.id}/storage/${key}`, { value });
    expect((await put('on', 'yes')).status).toBe(400);
    expect((await put('on', 'true')).status).toBe(204);
    expect((await put('mode', 'medium')).status).toBe(400);
    expect((await put('mode', 'slow')).status).toBe(204);
    expect((await put('mode', 'fast')).status).toBe(204);
    expect((await put('free', 'anything')).status).toBe(204);
    expect(await storage(t, p.id)).toEqual({ on: 'true', mode: 'fast', free: 'anything' });
  });

  it('deletes the plugin with its storage and file (T172)', async () => {
    await install(t, 'hello.lua', HELLO);
    await t.req(F.KA, 'PUT', '/plugins/1/storage/greeting', { value: 'hey' });
    expect((await t.req(F.KA, 'DELETE', '/plugins/1')).status).toBe(204);
    expect(await list()).toEqual({ plugins: [], total: 0 });
    expect(existsSync(join(t.dataDir, 'plugins', 'hello.lua'))).toBe(false);
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage')).status).toBe(404);
    expect((await t.req(F.KA, 'DELETE', '/plugins/1')).status).toBe(404);
  });
});
