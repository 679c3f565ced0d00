// -plugins-disabled (library-plugins.md §27): no discovery, no VMs; the endpoints answer as listed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins({ 'echo-api': 'plugin = { name = "echo-api" }\nfunction init() mah.api("GET", "echo", function(ctx) ctx.json({}) end) end' }, ['-plugins-disabled']);
}, 60_000);
afterAll(async () => lib?.close());

it('lists nothing, refuses management, and routes no plugin paths', async () => {
  expect(await lib.records()).toEqual([]);
  expect(await lib.enable('echo-api')).toEqual({ status: 400, body: { error: 'plugin manager not initialized' } });
  expect(await lib.json('GET', '/v1/plugins/echo-api/echo')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
  expect((await lib.fetch('/plugins/echo-api/x')).status).toBe(404);
  expect((await lib.fetch('/plugins/manage')).status).toBe(200);
});
