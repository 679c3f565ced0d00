// Companion §15.15: install from a URL (T157) and updates (T169–T171), against a local server
// on 127.0.0.1: an admin's source URL may name a private host without any flag (T157's fixture F).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';
import { HELLO, install } from './helper.js';

let t: TestClips;
let F: FixtureF;
let web: StubServer;
let remote = HELLO;

beforeEach(async () => {
  web = await startStubServer();
  remote = HELLO;
  web.routes.set('/hello.lua', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(remote));
  web.routes.set('/big.lua', (_req, res) => res.writeHead(200).end(`Plugin = { name = "Big" }\n--${'x'.repeat(1024 * 1024)}`));
  t = await startTestClips();
  F = await fixtureF(t);
});
afterEach(async () => {
  await t.close();
  await web.close();
});

const version = (v: string, extra = '') => HELLO.replace('version = "1.0.0"', `version = "${v}"${extra}`);

describe('install from a URL (T157)', () => {
  it('installs from a URL; a 404, an oversized body or a refused host is 400', async () => {
    const r = await t.req(F.KA, 'POST', '/plugins', { source: `${web.url}/hello.lua` });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 1, name: 'Hello', status: 'loaded' });
    const missing = await t.req<{ error: string }>(F.KA, 'POST', '/plugins', { source: `${web.url}/nope.lua` });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^failed to fetch plugin: /);
    expect((await t.req(F.KA, 'POST', '/plugins', { source: `${web.url}/big.lua` })).status).toBe(400);
  });

});

describe('updates (T169–T171)', () => {
  it('finds and installs a newer version with the same permissions, keeping storage and grants (T169)', async () => {
    await t.req(F.KA, 'POST', '/plugins', { source: `${web.url}/hello.lua` });
    await t.req(F.KA, 'PUT', '/plugins/1/storage/count', { value: '7' });
    const repo = t.svc.services.plugins['repo'];
    await repo.addGrant(1, 'fs_read', t.dir, 'now');
    remote = version('1.1.0');
    expect((await t.req(F.KA, 'POST', '/plugins/check-updates')).body).toEqual({
      updates: [{ plugin_id: 1, current_version: '1.0.0', new_version: '1.1.0', has_permission_changes: false }],
    });
    expect((await t.req(F.KE, 'POST', '/plugins/check-updates')).status).toBe(403);
    const r = await t.req<{ success: boolean; needs_review: boolean; plugin_info: { version: string; status: string } }>(F.KA, 'POST', '/plugins/1/update');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, needs_review: false, plugin_info: { id: 1, version: '1.1.0', status: 'loaded' } });
    expect((await t.req(F.KA, 'GET', '/plugins/1/storage/count')).body).toEqual({ key: 'count', value: '7' });
    expect(await repo.effectiveGrants(1)).toEqual([{ permission_type: 'fs_read', path: t.dir }]);
    expect((await t.req(F.KA, 'POST', '/plugins/check-updates')).body).toEqual({ updates: [] });
  });

  it('asks for review when permissions change, then installs with approval (T170)', async () => {
    await t.req(F.KA, 'POST', '/plugins', { source: `${web.url}/hello.lua` });
    remote = version('1.2.0', ', network = {["api.example.com"] = {"GET"}}');
    const review = await t.req(F.KA, 'POST', '/plugins/1/update');
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ success: false, needs_review: true, preview: { version: '1.2.0', network: { 'api.example.com': ['GET'] } } });
    expect((await t.req<{ plugins: { version: string }[] }>(F.KA, 'GET', '/plugins')).body.plugins[0].version).toBe('1.0.0');
    const ok = await t.req(F.KA, 'POST', '/plugins/1/update', { approve_permission_changes: true });
    expect(ok.body).toMatchObject({ success: true, plugin_info: { version: '1.2.0' } });
  });

  it('refuses updates of file installs and of versions that are not newer (T171)', async () => {
    const fromFile = await install(t, 'local-hello.lua', HELLO);
    expect((await t.req(F.KA, 'POST', `/plugins/${fromFile.id}/update`)).body).toEqual({ error: 'plugin was not installed from a URL' });
    const fromUrl = await t.req<{ id: number }>(F.KA, 'POST', '/plugins', { source: `${web.url}/hello.lua` });
    const same = await t.req(F.KA, 'POST', `/plugins/${fromUrl.body.id}/update`);
    expect(same.status).toBe(409);
    expect(same.body).toEqual({ error: 'remote version 1.0.0 is not newer than installed 1.0.0' });
    expect((await t.req(F.KA, 'POST', '/plugins/999/update')).status).toBe(404);
  });

  it('rolls back an update whose new source does not load', async () => {
    await t.req(F.KA, 'POST', '/plugins', { source: `${web.url}/hello.lua` });
    remote = `${version('2.0.0')}\nerror("broken release")`;
    const r = await t.req<{ error: string }>(F.KA, 'POST', '/plugins/1/update');
    expect(r.status).toBe(500);
    expect(r.body.error).toMatch(/^failed to reload plugin \(rolled back\): .*broken release/);
    const p = (await t.req<{ plugins: { version: string; status: string }[] }>(F.KA, 'GET', '/plugins')).body.plugins[0];
    expect(p).toMatchObject({ version: '1.0.0', status: 'loaded' });
  });
});
