// Sessions (companion §10.4), the current principal (GET /v1/auth/me) and own password changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, sessionCookieOf, startAuthLibrary, type Session } from '../../helpers/accounts.js';

describe('sessions', () => {
  let lib: TestLibrary;
  let admin: Session;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('sets the session cookie with its attributes and returns the user record', async () => {
    const before = Date.now();
    const res = await lib.json<{ username: string; role: string; lastLoginAt: string }>('POST', '/v1/auth/login', ADMIN);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'admin', role: 'admin' });
    const set = res.headers.get('set-cookie')!;
    const [pair, ...attrs] = set.split(/;\s*/);
    expect(pair).toMatch(/^mr_session=[A-Za-z0-9_-]{43}$/);
    expect(attrs).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=2592000']));
    expect(attrs.some((a) => a === 'Secure')).toBe(false);
    const expires = Date.parse(attrs.find((a) => a.startsWith('Expires='))!.slice(8));
    expect(expires).toBeGreaterThan(before + 2592000_000 - 2000);
    expect(expires).toBeLessThan(Date.now() + 2592000_000 + 1000);
    expect(Date.parse(res.body.lastLoginAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('accepts form logins and refuses bad credentials and disabled accounts alike', async () => {
    const form = await lib.form('/v1/auth/login', [['username', ADMIN.username], ['password', ADMIN.password]], { accept: 'application/json' });
    expect(form.status).toBe(200);
    expect(sessionCookieOf(form)).not.toBeNull();
    const acc = await makeAccount(lib, admin, { role: 'user' });
    await lib.json('POST', '/v1/user', { id: acc.id, disabled: true }, asSession(admin));
    for (const body of [
      { username: ADMIN.username, password: 'wrong password' },
      { username: 'nobody-at-all', password: 'whatever123' },
      { username: acc.username, password: acc.password },
    ]) {
      const res = await lib.json<{ error: string }>('POST', '/v1/auth/login', body);
      expect([res.status, res.body.error]).toEqual([401, 'invalid username or password']);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const missing = await lib.json<{ error: string }>('POST', '/v1/auth/login', { username: 'admin' });
    expect(missing.status).toBe(400);
  });

  it('answers /v1/auth/me for a session with its CSRF token', async () => {
    const group = await makeGroup(lib, admin, 'me-scope');
    const acc = await makeAccount(lib, admin, { role: 'user', scopeGroupId: group });
    const s = await login(lib, acc.username, acc.password);
    const me = await lib.json<Record<string, unknown>>('GET', '/v1/auth/me', undefined, { cookie: s.cookie });
    expect(me.body).toEqual({
      authEnabled: true,
      userId: acc.id,
      username: acc.username,
      role: 'user',
      scopeGroupId: group,
      isAdmin: false,
      canWrite: true,
      superUser: false,
      csrfToken: s.csrf,
    });
    expect(s.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const byToken = await lib.json<Record<string, unknown>>('GET', '/v1/auth/me', undefined, asBearer(acc.token));
    expect(byToken.body).toMatchObject({ userId: acc.id, csrfToken: '' });
    const anonymous = await lib.json<{ error: string }>('GET', '/v1/auth/me');
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'authentication required']);
  });

  it('logout deletes the session and expires the cookie', async () => {
    const s = await login(lib, ADMIN.username, ADMIN.password);
    const res = await lib.json<{ ok: boolean }>('POST', '/v1/auth/logout', undefined, { cookie: s.cookie });
    expect(res.body).toEqual({ ok: true });
    expect(res.headers.get('set-cookie')).toMatch(/^mr_session=; .*Max-Age=-1/);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: s.cookie })).status).toBe(401);
    // The page form: GET or POST /logout, then /login.
    const s2 = await login(lib, ADMIN.username, ADMIN.password);
    const page = await lib.fetch('/logout', { headers: { cookie: s2.cookie, accept: 'text/html' } });
    expect([page.status, page.headers.get('location')]).toEqual([302, '/login']);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: s2.cookie })).status).toBe(401);
  });

  it('changing your own password ends your other sessions but not this one, nor your tokens', async () => {
    const acc = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: await makeGroup(lib, admin, 'pw-scope') });
    const here = await login(lib, acc.username, acc.password);
    const elsewhere = await login(lib, acc.username, acc.password);
    const wrong = await lib.json<{ error: string }>('POST', '/v1/account/password', { currentPassword: 'not it at all', newPassword: 'new secret 1' }, asSession(here));
    expect([wrong.status, wrong.body.error]).toEqual([401, 'current password is incorrect']);
    const weak = await lib.json<{ error: string }>('POST', '/v1/account/password', { currentPassword: acc.password, newPassword: 'short' }, asSession(here));
    expect([weak.status, weak.body.error]).toEqual([400, 'password must be at least 8 characters']);
    const ok = await lib.json<{ ok: boolean }>('POST', '/v1/account/password', { currentPassword: acc.password, newPassword: 'new secret 1' }, asSession(here));
    expect(ok.body).toEqual({ ok: true });
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: here.cookie })).status).toBe(200);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: elsewhere.cookie })).status).toBe(401);
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(200);
    expect((await lib.json('POST', '/v1/auth/login', { username: acc.username, password: acc.password })).status).toBe(401);
    await login(lib, acc.username, 'new secret 1');
  });
});

describe('sessions: lifetime and Secure cookies', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await startAuthLibrary(['-session-ttl', '3s', '-session-cookie-secure']);
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('marks the cookie Secure with -session-cookie-secure', async () => {
    const res = await lib.json('POST', '/v1/auth/login', ADMIN);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure(;|$)/);
    expect(res.headers.get('set-cookie')).toMatch(/Max-Age=3;/);
  });

  it('a session lives exactly its fixed lifetime, whatever the activity', async () => {
    const s = await login(lib, ADMIN.username, ADMIN.password);
    for (let i = 0; i < 4; i++) {
      expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: s.cookie })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, 1400));
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: s.cookie })).status).toBe(401);
    // A page visit with the expired cookie goes to the sign-in page.
    const page = await lib.fetch('/tags', { headers: { cookie: s.cookie, accept: 'text/html' } });
    expect([page.status, page.headers.get('location')]).toEqual([302, '/login?next=%2Ftags']);
  });
});

describe('with authentication off', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await startTestLibrary();
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('every request is the root administrator; account management needs a real user', async () => {
    const me = await lib.json<Record<string, unknown>>('GET', '/v1/auth/me');
    expect(me.body).toMatchObject({ authEnabled: false, username: 'root', role: 'admin', scopeGroupId: null, isAdmin: true, canWrite: true, superUser: true, csrfToken: '' });
    for (const [method, path, body] of [
      ['POST', '/v1/account/password', { currentPassword: 'x', newPassword: 'yyyyyyyy' }],
      ['GET', '/v1/account/tokens', undefined],
      ['POST', '/v1/account/tokens', { name: 'x' }],
    ] as const) {
      const res = await lib.json<{ error: string }>(method, path, body);
      expect([res.status, res.body.error], path).toEqual([400, 'account management requires an authenticated user']);
    }
    // No login page with auth off.
    const page = await lib.fetch('/login', { headers: { accept: 'text/html' } });
    expect([page.status, page.headers.get('location')]).toEqual([302, '/dashboard']);
    const html = await (await lib.fetch('/tags', { headers: { accept: 'text/html' } })).text();
    expect(html).not.toContain('account-menu');
    expect(html).toContain('<meta name="csrf-token" content="">');
  });

  it('the root administrator can manage users; the implicit actor follows the oldest enabled admin', async () => {
    const created = await lib.json<{ ID: number }>('POST', '/v1/users', { username: 'second', password: 'long enough', role: 'admin' });
    expect(created.status).toBe(200);
    const root = (await lib.json<{ userId: number }>('GET', '/v1/auth/me')).body.userId;
    expect((await lib.json('POST', '/v1/user', { id: root, disabled: true })).status).toBe(200);
    const me = await lib.json<{ username: string; userId: number }>('GET', '/v1/auth/me');
    expect(me.body.username).toBe('second');
    const last = await lib.json<{ error: string }>('POST', '/v1/user/delete', { id: created.body.ID });
    expect(last.status).toBe(409);
  });
});
