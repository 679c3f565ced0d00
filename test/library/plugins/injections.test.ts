// library-plugins.md §24 injections: a banner that follows settings (T-123), a failing injector
// that does not break the page (T-124), every slot in its place, and an unknown slot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const SLOTS = ['head', 'page_top', 'sidebar_top', 'sidebar_bottom', 'page_bottom', 'scripts', 'group_detail_before', 'group_detail_after', 'group_detail_sidebar', 'group_list_before', 'group_list_after', 'note_list_before'];

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins({
    'banner-fixture': `plugin = {
  name = "banner-fixture", version = "1.0",
  settings = {
    { name = "text",  type = "string",   label = "Banner Text", default = "Hello banner" },
    { name = "token", type = "password", label = "Token", required = true },
  },
}
function init()
  mah.inject("page_top", function(ctx)
    return '<div id="bf-banner">' .. mah.html_escape(mah.get_setting("text") or "") .. '</div>'
  end)
end`,
    injector: `plugin = { name = "injector", api_version = 1, capabilities = { "inject" } }
function init()
  mah.inject("page_bottom", function() error("broken") end)
  mah.inject("page_bottom", function() return '<i id="still-here"></i>' end)
  mah.inject("page_bottom", function() return 42 end)
  mah.inject("group_detail_after", function(ctx) return "<span id='ctx'>" .. ctx.entity_key .. ":" .. ctx.entity_id .. "</span>" end)
  for _, s in ipairs({ ${SLOTS.map((s) => `"${s}"`).join(', ')} }) do
    mah.inject(s, function(ctx) return "<!--slot:" .. s .. ":" .. ctx.path .. "-->" end)
  end
end`,
    'bad-slot': `plugin = { name = "bad-slot", api_version = 1, capabilities = { "inject" } }
function init() mah.inject("footer", function() return "" end) end`,
  });
  const saved = await lib.json('POST', '/v1/plugin/settings?name=banner-fixture', { token: 'k' });
  expect(saved.status).toBe(200);
  for (const n of ['banner-fixture', 'injector']) expect((await lib.enable(n)).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const page = async (path: string) => {
  const r = await lib.fetch(path);
  expect(r.status).toBe(200);
  return r.text();
};

describe('injections', () => {
  it('T-123 the injected banner follows settings and leaves with the plugin', async () => {
    for (const p of ['/resources', '/notes', '/groups']) expect(await page(p)).toContain('<div id="bf-banner">Hello banner</div>');
    expect((await lib.json('POST', '/v1/plugin/settings?name=banner-fixture', { token: 'k', text: 'My Custom Banner' })).status).toBe(200);
    expect(await page('/resources')).toContain('<div id="bf-banner">My Custom Banner</div>');
    expect((await lib.disable('banner-fixture')).status).toBe(200);
    expect(await page('/resources')).not.toContain('bf-banner');
  });

  it('T-124 a failing injector does not break the page', async () => {
    expect(await page('/groups')).toContain('<i id="still-here"></i>');
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'injected' });
    expect(await page(`/group?id=${g.body.ID}`)).toContain(`<span id='ctx'>group:${g.body.ID}</span>`);
    expect((await lib.enable('bad-slot')).body.error).toContain('unknown slot "footer"');
  });

  it('renders every slot in its place on the pages that have it', async () => {
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'slots' });
    const html = await page(`/group?id=${g.body.ID}`);
    const at = (s: string) => html.indexOf(`<!--slot:${s}:/group-->`);
    for (const s of SLOTS.filter((x) => x.startsWith('group_detail') || !x.includes('_list') && !x.startsWith('group'))) expect(at(s), s).toBeGreaterThan(0);
    expect(at('head')).toBeLessThan(html.indexOf('</head>'));
    expect(at('page_top')).toBeLessThan(html.indexOf('<header'));
    expect(at('sidebar_top')).toBeGreaterThan(html.indexOf('<aside'));
    expect(at('sidebar_bottom')).toBeLessThan(html.indexOf('</aside>'));
    expect(at('group_detail_before')).toBeGreaterThan(html.indexOf('<main'));
    expect(at('group_detail_after')).toBeLessThan(html.indexOf('</main>'));
    expect(at('scripts')).toBeGreaterThan(at('page_bottom'));
    expect(html).not.toContain('slot:group_list_before');
    const list = await page('/groups');
    expect(list).toContain('<!--slot:group_list_before:/groups-->');
    expect(list).toContain('<!--slot:group_list_after:/groups-->');
    expect(list).not.toContain('slot:group_detail_before');
    expect(await page('/notes')).toContain('<!--slot:note_list_before:/notes-->');
  });
});
