// User administration under -auth (contract: Accounts; companion §10.3): the record, create and
// update rules, the last-enabled-administrator guard, and what disabling or deleting ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, mintToken, startAuthLibrary, type Session } from '../../helpers/accounts.js';

interface UserRecord {
  ID: number;
  CreatedAt: string;
  UpdatedAt: string;
  guid: string;
  username: string;
  displayName: string;
  role: string;
  scopeGroupId?: number;
  disabled: boolean;
  lastLoginAt?: string;
}

describe('user administration', () => {
  let lib: TestLibrary;
  let admin: Session;
  let group: number;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    admin = await login(lib, ADMIN.username, ADMIN.password);
    group = await makeGroup(lib, admin, 'Family');
  });
  afterAll(async () => {
    await lib?.close();
  });

  const post = <T = UserRecord>(path: string, body: unknown) => lib.json<T>('POST', path, body, asSession(admin));

  it('creates an account and returns the record without any password material', async () => {
    const res = await post('/v1/users', { username: 'ada', displayName: 'Ada L.', password: 'correct horse', role: 'editor' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['CreatedAt', 'ID', 'UpdatedAt', 'disabled', 'displayName', 'guid', 'role', 'username']);
    expect(res.body).toMatchObject({ username: 'ada', displayName: 'Ada L.', role: 'editor', disabled: false });
    expect(res.body.guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const one = await lib.json<UserRecord>('GET', `/v1/user?id=${res.body.ID}`, undefined, asSession(admin));
    expect(one.body).toEqual(res.body);
    expect(JSON.stringify(one.body)).not.toMatch(/hash|\$2[aby]\$/);
    // lastLoginAt appears after the first sign-in.
    await login(lib, 'ada', 'correct horse');
    const after = await lib.json<UserRecord>('GET', `/v1/user?id=${res.body.ID}`, undefined, asSession(admin));
    expect(after.body.lastLoginAt).toMatch(/^\d{4}-/);
  });

  it('applies the password policy, role and username rules with the documented messages', async () => {
    const cases: [unknown, number, string][] = [
      [{ username: 'p1', password: 'short' }, 400, 'password must be at least 8 characters'],
      [{ username: 'p2', password: 'é'.repeat(37) }, 400, 'password must be at most 72 bytes'],
      [{ username: 'p3', password: 'long enough', role: 'owner' }, 400, 'invalid role'],
      [{ password: 'long enough' }, 400, 'username is required'],
      [{ username: 'p4' }, 400, 'password is required'],
      [{ username: 'p5', password: 'long enough', role: 'guest' }, 400, 'this role must be limited to a group'],
      [{ username: 'p6', password: 'long enough', role: 'user', scopeGroupId: 999999 }, 400, 'scope group does not exist'],
      [{ username: 'x'.repeat(129), password: 'long enough' }, 400, 'username must be at most 128 characters'],
      [{ username: 'ada', password: 'long enough' }, 409, 'username "ada" is already taken'],
    ];
    for (const [body, status, error] of cases) {
      const res = await post<{ error: string }>('/v1/users', body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([status, error]);
    }
    // Exactly 8 code points (multi-byte) and exactly 72 bytes pass.
    expect((await post('/v1/users', { username: 'p7', password: 'ééééééé1' })).status).toBe(200);
    expect((await post('/v1/users', { username: 'p8', password: 'é'.repeat(36) })).status).toBe(200);
    const list = await lib.json<UserRecord[]>('GET', '/v1/users?limit=0', undefined, asSession(admin));
    expect(list.body.map((u) => u.username)).not.toContain('p1');
  });

  it('keeps the scope for users and guests, clears it for editors and admins', async () => {
    const guest = await post('/v1/users', { username: 'kid', password: 'long enough', role: 'guest', scopeGroupId: group });
    expect(guest.body).toMatchObject({ role: 'guest', scopeGroupId: group });
    const editor = await post('/v1/users', { username: 'ed', password: 'long enough', role: 'editor', scopeGroupId: group });
    expect(editor.body.scopeGroupId).toBeUndefined();
    const user = await post('/v1/users', { username: 'scoped', password: 'long enough', role: 'user', scopeGroupId: group });
    expect(user.body.scopeGroupId).toBe(group);
    // Promotion to editor drops the scope; a guest cannot lose its scope.
    expect((await post('/v1/user', { id: user.body.ID, role: 'editor' })).body.scopeGroupId).toBeUndefined();
    const cleared = await post<{ error: string }>('/v1/user', { id: guest.body.ID, scopeGroupId: null });
    expect([cleared.status, cleared.body.error]).toEqual([400, 'this role must be limited to a group']);
  });

  it('updates only the fields sent; null clears the scope and is refused elsewhere', async () => {
    const created = await post('/v1/users', { username: 'partial', displayName: 'Part', password: 'long enough', role: 'user', scopeGroupId: group });
    const id = created.body.ID;
    const renamed = await post('/v1/user', { id, displayName: 'Partial' });
    expect(renamed.body).toMatchObject({ username: 'partial', displayName: 'Partial', role: 'user', scopeGroupId: group });
    const unscoped = await post('/v1/user', { id, scopeGroupId: null });
    expect(unscoped.body.scopeGroupId).toBeUndefined();
    const nulled = await post<{ error: string }>('/v1/user', { id, displayName: null });
    expect([nulled.status, nulled.body.error]).toEqual([400, 'displayName cannot be null']);
    // Form posts: an empty scope clears it; an empty password keeps the old one.
    await post('/v1/user', { id, scopeGroupId: group });
    const form = await lib.form('/v1/user', [['id', id], ['scopeGroupId', ''], ['password', ''], ['disabledPresent', '1']], { ...asSession(admin), accept: 'application/json' });
    expect(form.status).toBe(200);
    expect(((await form.json()) as UserRecord).scopeGroupId).toBeUndefined();
    await login(lib, 'partial', 'long enough');
    const missing = await lib.json<{ error: string }>('GET', '/v1/user?id=999999', undefined, asSession(admin));
    expect([missing.status, missing.body.error]).toEqual([404, 'user not found']);
    expect((await post<{ error: string }>('/v1/user', { id: 999999, displayName: 'x' })).status).toBe(404);
  });

  it('lists accounts by username with offset and limit (0 = all)', async () => {
    const all = await lib.json<UserRecord[]>('GET', '/v1/users?limit=0', undefined, asSession(admin));
    const names = all.body.map((u) => u.username);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names.length).toBeGreaterThan(5);
    const page = await lib.json<UserRecord[]>('GET', '/v1/users?offset=2&limit=3', undefined, asSession(admin));
    expect(page.body.map((u) => u.username)).toEqual(names.slice(2, 5));
  });

  it('refuses to delete, demote or disable the last enabled administrator, but allows renaming it', async () => {
    const me = admin.userId;
    for (const [path, body] of [
      ['/v1/user/delete', { id: me }],
      ['/v1/user', { id: me, role: 'editor' }],
      ['/v1/user', { id: me, disabled: true }],
    ] as const) {
      const res = await post<{ error: string }>(path, body);
      expect([res.status, res.body.error], path).toEqual([409, 'cannot remove the last enabled administrator']);
    }
    expect((await post('/v1/user', { id: me, displayName: 'The Admin' })).body.displayName).toBe('The Admin');
    const me2 = await lib.json<{ role: string }>('GET', '/v1/auth/me', undefined, asSession(admin));
    expect(me2.body.role).toBe('admin');

    // With a second enabled admin, the first may step down; the second is then the last one.
    const second = await post('/v1/users', { username: 'admin2', password: 'long enough', role: 'admin' });
    const other = await login(lib, 'admin2', 'long enough');
    const disabledSecond = await lib.json<{ error: string }>('POST', '/v1/user', { id: me, disabled: true }, asSession(other));
    expect(disabledSecond.status).toBe(200);
    const last = await lib.json<{ error: string }>('POST', '/v1/user/delete', { id: second.body.ID }, asSession(other));
    expect([last.status, last.body.error]).toEqual([409, 'cannot remove the last enabled administrator']);
    // Re-enable the first admin (it lost its sessions when disabled) for the other tests.
    expect((await lib.json('POST', '/v1/user', { id: me, disabled: false }, asSession(other))).status).toBe(200);
    admin = await login(lib, ADMIN.username, ADMIN.password);
    expect((await post('/v1/user/delete', { id: second.body.ID })).status).toBe(200);
  });

  it('disabling an account ends its sessions and tokens; it cannot sign in', async () => {
    const acc = await makeAccount(lib, admin, { role: 'user' });
    const session = await login(lib, acc.username, acc.password);
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(200);
    const res = await post('/v1/user', { id: acc.id, disabled: true });
    expect(res.body.disabled).toBe(true);
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(401);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(401);
    const again = await lib.json<{ error: string }>('POST', '/v1/auth/login', { username: acc.username, password: acc.password });
    expect([again.status, again.body.error]).toEqual([401, 'invalid username or password']);
    // Re-enabled, the old token stays revoked (it was removed, not suspended).
    await post('/v1/user', { id: acc.id, disabled: false });
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(401);
    await login(lib, acc.username, acc.password);
  });

  it("an administrator's password reset ends the account's sessions and tokens", async () => {
    const acc = await makeAccount(lib, admin, { role: 'editor' });
    const session = await login(lib, acc.username, acc.password);
    await post('/v1/user', { id: acc.id, password: 'a brand new one' });
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(401);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(401);
    await login(lib, acc.username, 'a brand new one');
  });

  it('deleting an account ends its sessions and tokens and keeps what it created, without an author', async () => {
    const acc = await makeAccount(lib, admin, { role: 'user' });
    const tag = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'made by a leaver' }, asBearer(acc.token));
    expect(tag.status).toBe(200);
    const res = await post<{ ok: boolean }>('/v1/user/delete', { id: acc.id });
    expect(res.body).toEqual({ ok: true });
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(acc.token))).status).toBe(401);
    expect((await lib.json('GET', `/v1/user?id=${acc.id}`, undefined, asSession(admin))).status).toBe(404);
    const kept = await lib.json<{ Name: string }[]>('GET', '/v1/tags?Name=leaver', undefined, asSession(admin));
    expect(kept.body.map((t) => t.Name)).toEqual(['made by a leaver']);
    expect((await post('/v1/user/delete', { id: acc.id })).status).toBe(404);
  });

  it('a group that is an account scope cannot be deleted (409)', async () => {
    const scope = await makeGroup(lib, admin, 'Scoped team');
    await post('/v1/users', { username: 'teamer', password: 'long enough', role: 'user', scopeGroupId: scope });
    const res = await lib.json<{ error: string }>('POST', `/v1/group/delete?Id=${scope}`, undefined, asSession(admin));
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('user scope');
  });

  it('answers browsers with 303 to /admin/users and sends form errors back to the form', async () => {
    const ok = await lib.form('/v1/users', [['username', 'formed'], ['password', 'long enough'], ['role', 'user']], { ...asSession(admin), accept: 'text/html' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin/users');
    const bad = await lib.form(
      '/v1/users',
      [['username', 'formed'], ['password', 'long enough'], ['role', 'user'], ['_form', '/admin/users']],
      { ...asSession(admin), accept: 'text/html' },
    );
    expect(bad.status).toBe(302);
    const back = new URL(bad.headers.get('location')!, 'http://x');
    expect(back.pathname).toBe('/admin/users');
    expect(back.searchParams.get('username')).toBe('formed');
    expect(back.searchParams.get('password')).toBeNull();
    expect(back.searchParams.get('error')).toContain('already taken');
  });

  it('tokens minted before a role change act with the new role at once', async () => {
    const acc = await makeAccount(lib, admin, { role: 'user' });
    expect((await lib.json('POST', '/v1/category', { Name: 'needs editor' }, asBearer(acc.token))).status).toBe(403);
    await post('/v1/user', { id: acc.id, role: 'editor' });
    expect((await lib.json('POST', '/v1/category', { Name: 'needs editor' }, asBearer(acc.token))).status).toBe(200);
    const fresh = await mintToken(lib, await login(lib, acc.username, acc.password));
    expect((await lib.json<{ role: string }>('GET', '/v1/auth/me', undefined, asBearer(fresh))).body.role).toBe('editor');
  });
});
