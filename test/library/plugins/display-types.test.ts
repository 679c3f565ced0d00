// library-plugins.md §23 display types: listing and rendering (T-121), render errors (T-122),
// and what the plugin system's absence answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins({
    'render-fixture': RENDER_FIXTURE,
    'dup-display': `plugin = { name = "dup-display", api_version = 1, capabilities = { "render" } }
function init()
  mah.display_type({ type = "x", label = "X", render = function() return "" end })
  mah.display_type({ type = "x", label = "X", render = function() return "" end })
end`,
    'slow-display': `plugin = { name = "slow-display", api_version = 1, capabilities = { "render" } }
function init()
  mah.display_type({ type = "spin", label = "Spin", render = function() while true do end end })
  mah.display_type({ type = "boom", label = "Boom", render = function() error("display exploded") end })
end`,
  });
  for (const n of ['render-fixture', 'slow-display']) expect((await lib.enable(n)).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const render = async (body: string, plugin = 'render-fixture') => {
  const r = await lib.fetch(`/v1/plugins/${plugin}/display/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
};

describe('display types', () => {
  it('T-121 listing', async () => {
    const r = await lib.json<Record<string, unknown>[]>('GET', '/v1/plugin/displayTypes');
    expect(r.status).toBe(200);
    expect(r.body).toContainEqual({ type: 'plugin:render-fixture:swatch', label: 'Swatch', pluginName: 'render-fixture' });
    expect(r.body).toContainEqual({ type: 'plugin:render-fixture:bad', label: 'Bad', pluginName: 'render-fixture' });
  });

  it('T-121 rendering with and without an entity', async () => {
    const r = await render(JSON.stringify({ type: 'swatch', value: { hex: '#4f46e5', name: 'Indigo' }, entity_type: 'group', entity_id: 12 }));
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/html');
    expect(r.text).toContain('title="Indigo"');
    expect(r.text).toContain('#4f46e5');
    expect(r.text).toContain('<i>group:12</i>');
    expect((await render(JSON.stringify({ type: 'swatch', value: { hex: '#000' } }))).text).toContain('<i>:0</i>');
  });

  it('T-122 render errors', async () => {
    expect(await render('nope')).toMatchObject({ status: 400, text: 'invalid request body' });
    expect(await render('{"value":{}}')).toMatchObject({ status: 400, text: 'type is required' });
    expect(await render('{"type":"swatch"}')).toMatchObject({ status: 400, text: 'value is required' });
    expect(await render('{"type":"swatch","value":{},"entity_id":9007199254740992}')).toMatchObject({ status: 400, text: 'entity_id is out of range' });
    expect((await render('{"type":"swatch","value":{},"entity_id":9007199254740991}')).status).toBe(200);
    expect(await render('{"type":"missing","value":{}}')).toMatchObject({ status: 500, text: 'display type "plugin:render-fixture:missing" not found' });
    const bad = await render('{"type":"bad","value":{}}');
    expect(bad.status).toBe(500);
    expect(bad.text).toContain('must return a string, got number');
  });

  it('a failing or runaway renderer is a 500 with the error, and the plugin keeps working', async () => {
    const boom = await render('{"type":"boom","value":1}', 'slow-display');
    expect(boom.status).toBe(500);
    expect(boom.text).toMatch(/^display render error: .*display exploded/);
    const spin = await render('{"type":"spin","value":"x"}', 'slow-display');
    expect(spin).toMatchObject({ status: 500, text: 'display render error: timed out after 5s' });
    expect((await render('{"type":"swatch","value":"scalar"}')).status).toBe(200);
  }, 20_000);

  it('a duplicate type fails the enable; a disabled plugin has none', async () => {
    expect((await lib.enable('dup-display')).body.error).toContain('duplicate display type');
    expect((await lib.disable('slow-display')).status).toBe(200);
    expect((await render('{"type":"boom","value":1}', 'slow-display')).status).toBe(500);
    const list = (await lib.json<Record<string, unknown>[]>('GET', '/v1/plugin/displayTypes')).body;
    expect(list.some((d) => d.pluginName === 'slow-display')).toBe(false);
  });
});
