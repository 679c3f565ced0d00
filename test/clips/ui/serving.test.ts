// The clip web interface's static serving: `/` and `/ui/*` answer fixed files with their types,
// a strict Content-Security-Policy and revalidating cache headers, never any clip data; the
// API's own answers are unchanged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';

const UI_DIR = join(import.meta.dirname, '..', '..', '..', 'public', 'clips');

describe('clip web interface: static files', () => {
  let t: TestClips;
  let f: FixtureF;
  beforeAll(async () => {
    t = await startTestClips();
    f = await fixtureF(t);
  });
  afterAll(async () => t?.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(t.url + path, { headers });

  it('answers the page at / with a strict CSP and revalidation', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/ui/app.js"></script>');
    const again = await get('/', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves scripts, styles and the icon with their types', async () => {
    const cases: [string, string][] = [
      ['/ui/app.js', 'text/javascript; charset=utf-8'],
      ['/ui/browse.js', 'text/javascript; charset=utf-8'],
      ['/ui/clips.css', 'text/css; charset=utf-8'],
      ['/ui/icon.svg', 'image/svg+xml'],
    ];
    for (const [path, type] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(UI_DIR, path.slice(4)))), path).toBe(true);
    }
    const head = await fetch(`${t.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers the API 404 for anything else, and leaves every other route alone', async () => {
    for (const path of ['/ui/nope.js', '/ui/..%2f..%2fpackage.json', '/ui/', '/ui/clips', '/index.html', '/favicon.ico']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect((await res.json()) as unknown, path).toHaveProperty('error');
    }
    const post = await fetch(`${t.url}/`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(404);
    expect((await t.req(t.admin, 'GET', '/nope')).status).toBe(404);
    expect((await t.req(null, 'GET', '/status')).status).toBe(200);
    expect((await t.req(null, 'GET', '/clips')).status).toBe(401);
    // CORS stays on every response, the page's included (companion §12.2).
    expect((await get('/')).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('never shows data without a key: the files hold no clip, tag or key of the store', async () => {
    const bodies = [await (await get('/')).text()];
    for (const name of readdirSync(UI_DIR)) bodies.push(await (await get(`/ui/${name}`)).text());
    const secrets = ['notes.txt', 'shot.png', 'report.pdf', 'work/client1', 'client2', 'hello world', f.KA, f.KA.slice(0, 12), f.KV.slice(0, 12)];
    for (const body of bodies) for (const s of secrets) expect(body).not.toContain(s);
  });

  it('has no inline code and builds no markup from strings', () => {
    const html = readFileSync(join(UI_DIR, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
    for (const name of readdirSync(UI_DIR).filter((n) => n.endsWith('.js'))) {
      const js = readFileSync(join(UI_DIR, name), 'utf8');
      for (const banned of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'localStorage', 'document.cookie', 'eval(', 'new Function']) {
        expect(js.includes(banned), `${name} uses ${banned}`).toBe(false);
      }
    }
  });
});
