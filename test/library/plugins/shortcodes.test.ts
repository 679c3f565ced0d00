// library-plugins.md §25 plugin shortcodes (T-125) in carrier templates and descriptions, with
// nesting, the error markers, entity tables without credentials, and scoped viewers (§26.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

const plugins: Record<string, string> = {
  'render-fixture': RENDER_FIXTURE,
  probe: `plugin = { name = "probe", api_version = 1, capabilities = { "render" } }
function init()
  mah.shortcode({ name = "ctx", label = "Context", render = function(ctx)
    return "<i id='probe'>" .. mah.html_escape(ctx.entity_type .. ":" .. ctx.entity_id .. ":" .. tostring(ctx.is_block) .. ":"
      .. ctx.inner_content .. ":" .. tostring(ctx.value.colour) .. ":" .. tostring(ctx.entity and ctx.entity.Name) .. ":"
      .. tostring(ctx.entity and ctx.entity.ShareToken) .. ":" .. type(ctx.entity and ctx.entity.Meta)) .. "</i>"
  end })
  mah.shortcode({ name = "nest", label = "Nest", render = function(ctx) return "[plugin:render-fixture:hello who=\\"inner\\"]" end })
  mah.shortcode({ name = "card", label = "Card", description = "A <card>",
    attrs = { { name = "size", type = "number", required = true, default = 3, description = "How big" }, { name = "tone" } },
    examples = { { title = "Small", code = '[plugin:probe:card size="1"]', notes = "tiny" } },
    render = function() return "card" end })
  mah.shortcode({ name = "boom", label = "Boom", render = function(ctx) error("shortcode exploded") end })
  mah.shortcode({ name = "spin", label = "Spin", render = function(ctx) while true do end end })
end`,
  'dup-shortcode': `plugin = { name = "dup-shortcode", api_version = 1, capabilities = { "render" } }
function init()
  mah.shortcode({ name = "a", label = "A", render = function() return "" end })
  mah.shortcode({ name = "a", label = "A", render = function() return "" end })
end`,
  'no-render': `plugin = { name = "no-render", api_version = 1, capabilities = { "pages" } }
function init() mah.shortcode({ name = "a", label = "A", render = function() return "" end }) end`,
};

let lib: PluginTestLibrary;
let seq = 0;

async function groupWithHeader(header: string, extra: Record<string, unknown> = {}): Promise<number> {
  seq++;
  const cat = await lib.json<{ ID: number }>('POST', '/v1/category', { Name: `sc-cat-${seq}`, CustomHeader: header });
  expect(cat.status).toBe(200);
  const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: `sc-group-${seq}`, CategoryId: cat.body.ID, ...extra });
  expect(g.status).toBe(200);
  return g.body.ID;
}

const page = async (path: string) => (await lib.fetch(path)).text();

beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  for (const n of ['render-fixture', 'probe']) expect((await lib.enable(n)).status, lib.logs.join('\n')).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

describe('plugin shortcodes', () => {
  it('T-125 renders in a category header, escaped by the plugin', async () => {
    const g = await groupWithHeader('[plugin:render-fixture:hello who="Ann & Bob"]');
    expect(await page(`/group?id=${g}`)).toContain('<b>Hi Ann &amp; Bob</b>');
  });

  it('T-125 a non-string result and an unknown shortcode render error markers', async () => {
    const num = await page(`/group?id=${await groupWithHeader('[plugin:render-fixture:num]')}`);
    expect(num).toMatch(/<span class="shortcode-error" title="[^"]*must return a string, got number[^"]*">⚠ plugin:render-fixture:num<\/span>/);
    const absent = await page(`/group?id=${await groupWithHeader('[plugin:render-fixture:absent]')}`);
    expect(absent).toMatch(/<span class="shortcode-error" title="[^"]*not found[^"]*">⚠ plugin:render-fixture:absent<\/span>/);
  });

  it('gives the render its context: entity, metadata, attributes, inner content, no credentials', async () => {
    const g = await groupWithHeader('[plugin:probe:ctx]in[b]side[/plugin:probe:ctx]', { Meta: '{"colour":"red"}' });
    const html = await page(`/group?id=${g}`);
    expect(html).toContain(`<i id='probe'>group:${g}:true:in&#91;b&#93;side:red:sc-group-${seq}:nil:string</i>`);
  });

  it('expands plugin output again for nested shortcodes; failures are markers, never raw text', async () => {
    const nested = await page(`/group?id=${await groupWithHeader('[plugin:probe:nest]')}`);
    expect(nested).toContain('<b>Hi inner</b>');
    const boom = await page(`/group?id=${await groupWithHeader('[plugin:probe:boom]')}`);
    expect(boom).toMatch(/title="[^"]*shortcode exploded[^"]*">⚠ plugin:probe:boom</);
    expect(boom).not.toContain('[plugin:probe:boom]');
  });

  it('cuts a runaway render off at its 5 s budget and still serves the page', async () => {
    const r = await lib.fetch(`/group?id=${await groupWithHeader('[plugin:probe:spin]')}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/title="[^"]*timed out[^"]*">⚠ plugin:probe:spin</);
  }, 20_000);

  it('registration errors fail the enable; without "render" there is no mah.shortcode', async () => {
    expect((await lib.enable('dup-shortcode')).body.error).toContain('duplicate shortcode');
    expect((await lib.enable('no-render')).status).toBe(400);
  });

  it('GET /v1/shortcodes/docs lists the built-ins, then the documented plugin shortcodes', async () => {
    const r = await lib.json<Record<string, unknown>[]>('GET', '/v1/shortcodes/docs');
    expect(r.status).toBe(200);
    const names = r.body.map((d) => d.name);
    for (const b of ['meta', 'property', 'mrql', 'conditional', 'link', 'each', 'item', 'partial', 'lazy', 'details', 'reload']) expect(names).toContain(b);
    expect(r.body.find((d) => d.name === 'mrql')).toMatchObject({ source: 'builtin', isBlock: 'optional', attrs: expect.arrayContaining([expect.objectContaining({ name: 'param-*', wildcard: true })]) });
    expect(r.body.find((d) => d.name === 'each')).toMatchObject({ isBlock: 'required' });
    expect(r.body.find((d) => d.name === 'plugin:render-fixture:hello')).toEqual({
      name: 'plugin:render-fixture:hello', syntax: '[plugin:render-fixture:hello]', description: 'Greets someone', isBlock: 'optional', source: 'plugin', attrs: [], examples: [],
    });
    expect(r.body.find((d) => d.name === 'plugin:probe:card')).toMatchObject({
      description: 'A <card>',
      attrs: [{ name: 'size', type: 'number', required: true, default: '3', description: 'How big' }, { name: 'tone', required: false }],
      examples: [{ title: 'Small', code: '[plugin:probe:card size="1"]', notes: 'tiny' }],
    });
    // Shortcodes without a description are not documented (§25).
    expect(names).not.toContain('plugin:render-fixture:num');
    expect(names).not.toContain('plugin:probe:ctx');
    expect(names.indexOf('reload')).toBeLessThan(names.indexOf('plugin:render-fixture:hello'));
  });

  it('T-125 a disabled plugin renders the "not found" marker', async () => {
    const g = await groupWithHeader('[plugin:render-fixture:hello]');
    expect((await lib.disable('render-fixture')).status).toBe(200);
    try {
      expect(await page(`/group?id=${g}`)).toMatch(/title="[^"]*not found[^"]*">⚠ plugin:render-fixture:hello</);
      const docs = await lib.json<{ name: string }[]>('GET', '/v1/shortcodes/docs');
      expect(docs.body.map((d) => d.name)).not.toContain('plugin:render-fixture:hello');
    } finally {
      expect((await lib.enable('render-fixture')).status).toBe(200);
    }
  });
});
