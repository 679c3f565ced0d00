import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins({
    hello: `plugin = { name = "hello", api_version = 1, capabilities = { "api", "kv" } }
function init()
  mah.api("GET", "hi", function(ctx) ctx.json({ hi = ctx.query.who, n = mah.json.decode("7") }) end)
end`,
  });
}, 60_000);
afterAll(async () => lib?.close());

it('enables and serves', async () => {
  expect(await lib.rec('hello')).toMatchObject({ name: 'hello', enabled: false });
  expect(await lib.enable('hello')).toEqual({ status: 200, body: { ok: true, name: 'hello', enabled: true } });
  const r = await lib.json('GET', '/v1/plugins/hello/hi?who=x');
  expect(r).toMatchObject({ status: 200, body: { hi: 'x', n: 7 } });
});
