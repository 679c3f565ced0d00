// The request pipeline under -auth (companion §10.6, §10.8): 401 for API clients and a redirect
// to /login for browsers, CSRF on cookie writes (header, query or form field), the read-only
// POST exemptions, and the 403 answers in JSON and HTML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, startAuthLibrary, type Account, type Session } from '../../helpers/accounts.js';

const READ_ONLY_POSTS: [string, unknown][] = [
  ['/v1/mrql', { query: 'type = resource' }],
  ['/v1/mrql/validate', { query: 'type = resource' }],
  ['/v1/mrql/complete', { query: 'ty', cursor: 2 }],
  ['/v1/mrql/explain', { query: 'type = resource' }],
  ['/v1/search', { q: 'x' }],
];

describe('request pipeline', () => {
  let lib: TestLibrary;
  let admin: Session;
  let guest: Account;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
    guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: await makeGroup(lib, admin, 'guest-scope') });
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('answers 401 without a credential for API and JSON clients', async () => {
    for (const path of ['/v1/tags', '/tags.json', '/v1/no-such-endpoint', '/no-such-page']) {
      const res = await lib.json<{ error: string }>('GET', path);
      expect([res.status, res.body.error], path).toEqual([401, 'authentication required']);
    }
    const post = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: 'x' });
    expect(post.status).toBe(401);
    // A browser form post to the API is still an API request.
    const form = await lib.form('/v1/tag', [['Name', 'x']], { accept: 'text/html' });
    expect(form.status).toBe(401);
  });

  it('sends browsers to /login with the page to come back to', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    const page = await lib.fetch('/tags?Name=a%20b', { headers: html });
    expect([page.status, page.headers.get('location')]).toEqual([302, '/login?next=%2Ftags%3FName%3Da%2520b']);
    const root = await lib.fetch('/', { headers: html });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/login']);
    const logout = await lib.fetch('/logout', { method: 'POST', headers: html });
    expect([logout.status, logout.headers.get('location')]).toEqual([302, '/login']);
  });

  it('keeps the login page, the login API and the assets public', async () => {
    const page = await lib.fetch('/login?next=/tags', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="next" value="/tags"');
    expect(html).not.toContain('aria-label="Main"');
    expect((await lib.fetch('/public/index.css')).status).toBe(200);
    expect((await lib.fetch('/public/csrf.js')).status).toBe(200);
    expect((await lib.fetch('/favicon.ico')).status).toBe(301);
    // A stale bearer token does not lock anyone out of the login page.
    expect((await lib.fetch('/login', { headers: { accept: 'text/html', authorization: 'Bearer stale' } })).status).toBe(200);
  });

  it('signs in through the /login form and returns to a local next only', async () => {
    const form = (pairs: [string, string][]) => lib.form('/login', pairs, { accept: 'text/html' });
    const ok = await form([['username', ADMIN.username], ['password', ADMIN.password], ['next', '/tags?Name=x']]);
    expect([ok.status, ok.headers.get('location')]).toEqual([302, '/tags?Name=x']);
    expect(ok.headers.get('set-cookie')).toMatch(/^mr_session=/);
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil']) {
      const res = await form([['username', ADMIN.username], ['password', ADMIN.password], ['next', next]]);
      expect(res.headers.get('location'), next).toBe('/dashboard');
    }
    const bad = await form([['username', ADMIN.username], ['password', 'wrong one!'], ['next', '/tags']]);
    expect([bad.status, bad.headers.get('location')]).toEqual([302, '/login?error=1&next=%2Ftags']);
    expect(bad.headers.get('set-cookie')).toBeNull();
    const shown = await (await lib.fetch('/login?error=1', { headers: { accept: 'text/html' } })).text();
    expect(shown).toContain('Invalid username or password.');
  });

  it('refuses a cookie write without the CSRF token, in every carrier accepted', async () => {
    const noToken = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: 'csrf-none' }, asSession(admin, false));
    expect([noToken.status, noToken.body.error]).toEqual([403, 'invalid or missing CSRF token']);
    const wrong = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: 'csrf-wrong' }, { cookie: admin.cookie, 'x-csrf-token': admin.csrf.slice(0, -1) + (admin.csrf.endsWith('A') ? 'B' : 'A') });
    expect([wrong.status, wrong.body.error]).toEqual([403, 'invalid or missing CSRF token']);
    // Another session's token is no good either.
    const other = await login(lib, ADMIN.username, ADMIN.password);
    expect((await lib.json('POST', '/v1/tag', { Name: 'csrf-other' }, { cookie: admin.cookie, 'x-csrf-token': other.csrf })).status).toBe(403);
    const tags = await lib.json<{ Name: string }[]>('GET', '/v1/tags?Name=csrf-', undefined, asSession(admin));
    expect(tags.body).toEqual([]);

    expect((await lib.json('POST', '/v1/tag', { Name: 'csrf-header' }, asSession(admin))).status).toBe(200);
    const field = await lib.form('/v1/tag', [['Name', 'csrf-field'], ['csrf_token', admin.csrf]], { cookie: admin.cookie, accept: 'application/json' });
    expect(field.status).toBe(200);
    const badField = await lib.form('/v1/tag', [['Name', 'csrf-bad-field'], ['csrf_token', 'nope']], { cookie: admin.cookie, accept: 'application/json' });
    expect(badField.status).toBe(403);
    const query = await lib.json('POST', `/v1/tag?csrf_token=${encodeURIComponent(admin.csrf)}`, { Name: 'csrf-query' }, { cookie: admin.cookie });
    expect(query.status).toBe(200);
    // Multipart bodies carry it in the query string, checked before the upload is read.
    const multipart = new FormData();
    multipart.append('Name', 'csrf-multipart');
    const mp = await lib.fetch(`/v1/tag?csrf_token=${encodeURIComponent(admin.csrf)}`, { method: 'POST', body: multipart, headers: { cookie: admin.cookie, accept: 'application/json' } });
    expect(mp.status).toBe(200);
    const mpNone = await lib.fetch('/v1/tag', { method: 'POST', body: multipart, headers: { cookie: admin.cookie, accept: 'application/json' } });
    expect(mpNone.status).toBe(403);
    const names = (await lib.json<{ Name: string }[]>('GET', '/v1/tags?Name=csrf-', undefined, asSession(admin))).body.map((t) => t.Name).sort();
    expect(names).toEqual(['csrf-field', 'csrf-header', 'csrf-multipart', 'csrf-query']);
  });

  it('checks CSRF before the role: a guest without a token hears about the token', async () => {
    const s = await login(lib, guest.username, guest.password);
    const res = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: 'x' }, asSession(s, false));
    expect(res.body.error).toBe('invalid or missing CSRF token');
    const form = await lib.form('/v1/tag', [['Name', 'x']], { cookie: s.cookie, accept: 'application/json' });
    expect(((await form.json()) as { error: string }).error).toBe('invalid or missing CSRF token');
    const withToken = await lib.json<{ error: string }>('POST', '/v1/tag', { Name: 'x' }, asSession(s));
    expect([withToken.status, withToken.body.error]).toEqual([403, 'insufficient permissions']);
  });

  it('exempts bearer requests, login/logout and the read-only POST endpoints', async () => {
    expect((await lib.json('POST', '/v1/tag', { Name: 'by-bearer' }, asBearer(guest.token))).status).toBe(403); // role, not CSRF
    const editor = await makeAccount(lib, admin, { role: 'editor' });
    expect((await lib.json('POST', '/v1/tag', { Name: 'by-bearer' }, asBearer(editor.token))).status).toBe(200);
    for (const [path, body] of READ_ONLY_POSTS) {
      const res = await lib.json<{ error?: string }>('POST', path, body, asSession(admin, false));
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).not.toBe(403);
      expect(res.status, path).toBeLessThan(500);
    }
    const s = await login(lib, ADMIN.username, ADMIN.password);
    expect((await lib.json('POST', '/v1/auth/login', ADMIN, { cookie: s.cookie })).status).toBe(200);
    expect((await lib.json('POST', '/v1/auth/logout', undefined, { cookie: s.cookie })).status).toBe(200);
  });

  it('answers a missing capability with 403 JSON, or the HTML 403 page for a browser', async () => {
    const s = await login(lib, guest.username, guest.password);
    const json = await lib.json<{ error: string }>('GET', '/v1/admin/settings', undefined, { cookie: s.cookie });
    expect([json.status, json.body.error]).toEqual([403, 'insufficient permissions']);
    const page = await lib.fetch('/admin/settings', { headers: { cookie: s.cookie, accept: 'text/html' } });
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain('Your role does not have permission to view this page.');
    expect(html).toContain('account-menu'); // with the layout
    const pageJson = await lib.fetch('/admin/settings.json', { headers: { cookie: s.cookie } });
    expect(pageJson.status).toBe(403);
    // A browser form without its CSRF token gets the 403 page, not its form back.
    const csrf = await lib.form('/v1/tag', [['Name', 'x'], ['_form', '/tag/new']], { cookie: admin.cookie, accept: 'text/html' });
    expect(csrf.status).toBe(403);
    expect(await csrf.text()).toContain('Your session could not be verified. Reload the page and try again.');
  });

  it('publishes the CSRF token and who is signed in on every page', async () => {
    const s = await login(lib, guest.username, guest.password);
    const html = await (await lib.fetch('/tags', { headers: { cookie: s.cookie, accept: 'text/html' } })).text();
    expect(html).toContain(`<meta name="csrf-token" content="${s.csrf}">`);
    expect(html).toContain(guest.username);
    const json = (await (await lib.fetch('/tags.json', { headers: { cookie: s.cookie } })).json()) as Record<string, unknown>;
    expect(json).toMatchObject({ authEnabled: true, csrfToken: s.csrf, currentUser: { userId: guest.id, username: guest.username, role: 'guest' } });
  });

  it('shows each role only the menus and forms it may use', async () => {
    const guestSession = await login(lib, guest.username, guest.password);
    const asGuest = await (await lib.fetch('/tags', { headers: { cookie: guestSession.cookie, accept: 'text/html' } })).text();
    expect(asGuest).not.toContain('href="/admin/settings"');
    expect(asGuest).not.toContain('href="/admin/users"');
    expect(asGuest).not.toContain('href="/tag/new"');
    expect(asGuest).not.toContain('action="/v1/tags/delete"');
    expect(asGuest).toContain('action="/logout"');
    const asAdmin = await (await lib.fetch('/tags', { headers: { cookie: admin.cookie, accept: 'text/html' } })).text();
    for (const piece of ['href="/admin/settings"', 'href="/admin/users"', 'href="/tag/new"', 'action="/v1/tags/delete"']) expect(asAdmin).toContain(piece);
    const user = await makeAccount(lib, admin, { role: 'user' });
    const userSession = await login(lib, user.username, user.password);
    const asUser = await (await lib.fetch('/tags', { headers: { cookie: userSession.cookie, accept: 'text/html' } })).text();
    expect(asUser).toContain('href="/tag/new"');
    expect(asUser).toContain('href="/admin/export"');
    expect(asUser).not.toContain('href="/admin/shares"');
    expect(asUser).not.toContain('href="/logs"');
  });
});
