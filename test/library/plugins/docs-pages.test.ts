// library-plugins.md §20.3 generated documentation pages (T-055): the index, item pages with
// a live shortcode example, plugins without documented items, and duplicate entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins({
    'render-fixture': RENDER_FIXTURE,
    guide: `plugin = { name = "guide", api_version = 1, capabilities = { "render" } }
function init()
  mah.shortcode({ name = "chip", label = "Chip", description = "A <small> chip",
    attrs = { { name = "text", type = "string", required = true, description = "What it says" } },
    examples = { { title = "Basic", code = '[plugin:guide:chip text="Hi"]', example_data = { colour = "red" } }, { title = "Prose", code = "Use it twice: [plugin:guide:chip] [plugin:guide:chip]" } },
    notes = { "Keep it short" },
    render = function(ctx) return "<em class='chip'>" .. mah.html_escape(ctx.attrs.text or "") .. ":" .. tostring(ctx.preview) .. ":" .. tostring(ctx.value.colour) .. ":" .. ctx.entity_type .. ctx.entity_id .. "</em>" end })
  mah.doc({ name = "how-to", label = "How to", description = "Usage notes" })
end`,
    quiet: `plugin = { name = "quiet", api_version = 1, capabilities = { "render" } }
function init() mah.shortcode({ name = "x", label = "X", render = function() return "" end }) end`,
    'dup-doc': `plugin = { name = "dup-doc", api_version = 1 }
function init()
  mah.doc({ name = "a", label = "A", description = "one" })
  mah.doc({ name = "a", label = "A", description = "two" })
end`,
  });
  for (const n of ['render-fixture', 'guide', 'quiet']) expect((await lib.enable(n)).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const page = async (path: string) => {
  const r = await lib.fetch(path);
  expect(r.status).toBe(200);
  return r.text();
};

describe('documentation pages', () => {
  it('T-055 the index lists documented shortcodes; undocumented ones are left out', async () => {
    const html = await page('/plugins/render-fixture/docs');
    expect(html).toContain('href="/plugins/render-fixture/docs/hello"');
    expect(html).toContain('Greets someone');
    expect(html).not.toContain('docs/num');
    expect(await page('/plugins/render-fixture/docs/hello')).toContain('Greets someone');
    expect(await page('/plugins/render-fixture/docs/num')).toContain('Page not found');
  });

  it('T-055 mah.doc entries get pages; a plugin without documented items has none', async () => {
    const index = await page('/plugins/guide/docs');
    expect(index.indexOf('docs/chip')).toBeLessThan(index.indexOf('docs/how-to'));
    expect(await page('/plugins/guide/docs/how-to')).toContain('Usage notes');
    expect(await page('/plugins/quiet/docs')).toContain('Page not found');
    expect((await lib.enable('dup-doc')).body.error).toContain('duplicate doc entry');
  });

  it('an item page escapes plugin text and renders a single-invocation example live in preview mode', async () => {
    const html = await page('/plugins/guide/docs/chip');
    expect(html).toMatch(/A &(lt|#60);small&(gt|#62); chip/);
    expect(html).not.toContain('A <small> chip');
    expect(html).toContain('What it says');
    expect(html).toContain('Keep it short');
    expect(html).toContain("<em class='chip'>Hi:true:red:group0</em>");
    expect(html.match(/<em class='chip'>/g)).toHaveLength(1);
    expect(html).toContain('href="/plugins/guide/docs/how-to"');
  });
});
