// library-plugins.md §32.5 pages, menus and assets (T-050 … T-054), the management page, and a
// runaway before-hook (T-063: the write waits out the 5 s budget, then goes through unchanged).
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const plugins: Record<string, string> = {
  'banner-fixture': `plugin = { name = "banner-fixture", version = "1.0" }
function init()
  mah.page("hello", function(ctx) return "<p id='bf-hello'>" .. ctx.method .. " " .. ctx.path .. "</p>" end)
  mah.page("query", function(ctx)
    return "<p id='bf-q'>" .. mah.html_escape(mah.json.encode({ q = ctx.query, p = ctx.params })) .. "</p>"
  end)
  mah.page("broken", function(ctx) error("page went wrong") end)
  mah.menu("Banner Hello", "hello")
end`,
  'bad-menu': 'plugin = { name = "bad-menu", api_version = 1, capabilities = { "pages" } }\nfunction init() mah.menu("Bad", "a//b") end',
  'bad-page': 'plugin = { name = "bad-page", api_version = 1, capabilities = { "pages" } }\nfunction init() mah.page("/lead", function() end) end',
  assets: 'plugin = { name = "assets", api_version = 1 }',
  looper: `plugin = { name = "looper", api_version = 1, capabilities = { "hooks" } }
function init() mah.on("before_note_create", function(n) n.name = "changed"; while true do end end) end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  mkdirSync(join(lib.pluginDir, 'assets', 'public', 'sub'), { recursive: true });
  writeFileSync(join(lib.pluginDir, 'assets', 'public', 'app.js'), 'console.log("hi")');
  writeFileSync(join(lib.pluginDir, 'assets', 'public', 'sub', 'x.css'), 'body{}');
  writeFileSync(join(lib.pluginDir, 'assets', 'secret.txt'), 'secret');
  symlinkSync('../secret.txt', join(lib.pluginDir, 'assets', 'public', 'link'));
  for (const n of ['banner-fixture', 'assets']) expect((await lib.enable(n)).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const page = async (path: string, init?: RequestInit) => {
  const r = await lib.fetch(path, init);
  return { status: r.status, html: await r.text() };
};

describe('pages', () => {
  it('T-050 page basics inside the layout', async () => {
    const r = await page('/plugins/banner-fixture/hello');
    expect(r.status).toBe(200);
    expect(r.html).toContain('href="/notes"');
    expect(r.html).toContain('href="/resources"');
    expect(r.html).toContain('GET /plugins/banner-fixture/hello');
    const q = await page('/plugins/banner-fixture/query?msg=hello%20world&t=1&t=2&csrf_token=x');
    expect(q.html).toContain(escape('{"p":{},"q":{"msg":"hello world","t":["1","2"]}}'));
  });

  it('T-051 form posts', async () => {
    const r = await lib.form('/plugins/banner-fixture/query', [['k', 'v'], ['csrf_token', 'x']]);
    expect(await r.text()).toContain(escape('{"p":{"k":"v"},"q":{}}'));
  });

  it('T-052 not found and errors are panels', async () => {
    for (const path of ['/plugins/banner-fixture/nope', '/plugins/no-such-plugin/x']) {
      const r = await page(path);
      expect(r.status).toBe(200);
      expect(r.html).toContain('Page not found');
    }
    const broken = await page('/plugins/banner-fixture/broken');
    expect(broken.status).toBe(200);
    expect(broken.html).toContain('page handler error:');
    expect(broken.html).toContain('page went wrong');
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  });

  it('T-053 menus', async () => {
    const r = await page('/resources');
    expect(r.html).toContain('Plugins');
    expect(r.html).toContain('href="/plugins/banner-fixture/hello"');
    expect(r.html).toContain('Banner Hello');
    expect(r.html).toContain('href="/plugins/manage"');
    expect((await lib.enable('bad-menu')).body.error).toContain('invalid menu path');
    expect((await lib.enable('bad-page')).body.error).toContain('invalid page path');
  });

  it('T-054 static assets are contained', async () => {
    const js = await lib.fetch('/plugins/assets/public/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await lib.fetch('/plugins/assets/public/app.js', { method: 'HEAD' })).status).toBe(200);
    const css = await lib.fetch('/plugins/assets/public/sub/x.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('css');
    for (const p of ['/plugins/assets/public/../secret.txt', '/plugins/assets/public/%2e%2e/secret.txt', '/plugins/assets/public/sub/', '/plugins/assets/public/', '/plugins/assets/public/missing.js', '/plugins/assets/public/link']) {
      expect(await rawStatus(p), p).toBe(404);
    }
    await lib.disable('assets');
    expect((await lib.fetch('/plugins/assets/public/app.js')).status).toBe(404);
  });

  it('T-031 disabling removes pages and menu entries', async () => {
    await lib.disable('banner-fixture');
    expect((await page('/plugins/banner-fixture/hello')).html).toContain('Page not found');
    expect((await page('/resources')).html).not.toContain('Banner Hello');
  });
});

describe('management page', () => {
  it('lists plugins with their actions and says what happened after one', async () => {
    const r = await page('/plugins/manage');
    expect(r.status).toBe(200);
    expect(r.html).toContain('data-plugin="banner-fixture"');
    expect(r.html).toContain('action="/v1/plugin/enable"');
    const enable = await lib.form('/v1/plugin/enable', [['name', 'banner-fixture']], { accept: 'text/html' });
    expect(enable.status).toBe(303);
    const location = enable.headers.get('location')!;
    expect(location).toBe('/plugins/manage?done=enable');
    expect((await page(location)).html).toContain('Plugin enabled.');
  });
});

describe('runaway before-hook (T-063)', () => {
  it('waits out the hook budget, then writes the data unchanged; the service stays up', async () => {
    expect((await lib.enable('looper')).status).toBe(200);
    const r = await lib.json<{ Name: string }>('POST', '/v1/note', { Name: 'unchanged' });
    expect(r.status).toBe(200);
    expect(r.body.Name).toBe('unchanged');
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
    await lib.disable('looper');
  }, 30_000);
});

function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/\[/g, '&#91;').replace(/]/g, '&#93;');
}

/** GET with the path sent exactly as written (fetch would resolve the dot segments). */
function rawStatus(path: string): Promise<number> {
  const url = new URL(lib.url);
  return new Promise((resolvePromise, reject) => {
    request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      res.resume();
      resolvePromise(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}
