// -plugins-disabled (library-plugins.md §27): no discovery, no VMs; the endpoints answer as listed,
// and no render surface runs plugin code: renders answer 503, shortcodes render the
// "unavailable" comment, and neither the block types nor the shortcode catalogue list plugins.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(
    {
      'echo-api': 'plugin = { name = "echo-api" }\nfunction init() mah.api("GET", "echo", function(ctx) ctx.json({}) end) end',
      'render-fixture': RENDER_FIXTURE,
      'inject-fixture': `plugin = { name = "inject-fixture", api_version = 1, capabilities = { "inject" } }
function init() mah.inject("page_bottom", function() return '<i id="inj-mark"></i>' end) end`,
    },
    ['-plugins-disabled'],
  );
}, 60_000);
afterAll(async () => lib?.close());

it('lists nothing, refuses management, and routes no plugin paths', async () => {
  expect(await lib.records()).toEqual([]);
  expect(await lib.enable('echo-api')).toEqual({ status: 400, body: { error: 'plugin manager not initialized' } });
  expect(await lib.json('GET', '/v1/plugins/echo-api/echo')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
  expect((await lib.fetch('/plugins/echo-api/x')).status).toBe(404);
  expect((await lib.fetch('/plugins/manage')).status).toBe(200);
});

it('runs no plugin code on the render surfaces', async () => {
  const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'plain' });
  const text = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: note.body.ID, type: 'text' });
  const render = await lib.fetch(`/v1/plugins/render-fixture/block/render?blockId=${text.body.id}&mode=view`);
  expect([render.status, await render.text()]).toEqual([503, 'plugins not available']);
  expect((await lib.fetch('/v1/plugins/render-fixture/display/render', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"swatch","value":{}}' })).status).toBe(503);
  expect((await lib.json('POST', '/v1/note/block', { noteId: note.body.ID, type: 'plugin:render-fixture:tally' })).status).toBe(400);
  const types = (await lib.json<{ type: string }[]>('GET', '/v1/note/block/types')).body;
  expect(types.some((t) => t.type.startsWith('plugin:'))).toBe(false);
  expect(await lib.json('GET', '/v1/plugin/displayTypes')).toMatchObject({ status: 200, body: [] });
  expect((await lib.json<{ source: string }[]>('GET', '/v1/shortcodes/docs')).body.every((d) => d.source === 'builtin')).toBe(true);
  const cat = await lib.json<{ ID: number }>('POST', '/v1/category', { Name: 'header', CustomHeader: '[plugin:render-fixture:hello who="Ann"]' });
  const group = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'g', CategoryId: cat.body.ID });
  const page = await (await lib.fetch(`/group?id=${group.body.ID}`)).text();
  expect(page).toContain('<!-- mr:plugin unavailable in this context -->');
  expect(page).not.toContain('Hi Ann');
  expect(page).not.toContain('inj-mark');
  expect(await lib.json('GET', '/v1/plugin/actions?entity=resource')).toMatchObject({ status: 200, body: [] });
  expect(page).not.toContain('data-plugin-action');
});
