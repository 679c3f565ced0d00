// API tokens (companion §10.5): shown once, stored only as SHA-256, optional expiry, per-user
// cap, Bearer evaluated before any cookie, revocation, and lastUsedAt at most once a minute.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLibrary } from '../../helpers/library.js';
import { ADMIN, asBearer, asSession, login, makeAccount, mintToken, startAuthLibrary, type Session } from '../../helpers/accounts.js';

interface TokenRecord {
  ID: number;
  CreatedAt: string;
  UpdatedAt: string;
  userId: number;
  name: string;
  prefix: string;
  expiresAt?: string;
  lastUsedAt?: string;
  disabled: boolean;
}

describe('API tokens', () => {
  let lib: TestLibrary;
  let admin: Session;

  beforeAll(async () => {
    lib = await startAuthLibrary(['-max-user-tokens', '3']);
    admin = await login(lib, ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('mints a token shown exactly once and lists it without the secret, newest first', async () => {
    const acc = await makeAccount(lib, admin, { role: 'user' });
    const s = await login(lib, acc.username, acc.password);
    const res = await lib.json<{ token: string; id: number; name: string; prefix: string }>('POST', '/v1/account/tokens', { name: 'cli', expiresIn: '720h' }, asSession(s));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'name', 'prefix', 'token']);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.prefix).toBe(res.body.token.slice(0, 8));
    expect(res.body.name).toBe('cli');

    const list = await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asSession(s));
    expect(list.body.map((t) => t.name)).toEqual(['cli', 'test']);
    const cli = list.body[0];
    expect(Object.keys(cli).sort()).toEqual(['CreatedAt', 'ID', 'UpdatedAt', 'disabled', 'expiresAt', 'name', 'prefix', 'userId']);
    expect(cli).toMatchObject({ ID: res.body.id, userId: acc.id, prefix: res.body.prefix, disabled: false });
    const days = (Date.parse(cli.expiresAt!) - Date.parse(cli.CreatedAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 1);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);

    // Stored as its SHA-256 only.
    const rows = await lib.lib.db.selectFrom('api_tokens').select(['token_hash', 'prefix', 'name']).where('id', '=', res.body.id).execute();
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(res.body.token).digest('hex'), prefix: res.body.prefix, name: 'cli' }]);
    const anywhere = JSON.stringify(await lib.lib.db.selectFrom('api_tokens').selectAll().execute());
    expect(anywhere).not.toContain(res.body.token);

    // The token acts as its user, with that user's role.
    const me = await lib.json<{ userId: number; role: string; csrfToken: string }>('GET', '/v1/auth/me', undefined, asBearer(res.body.token));
    expect(me.body).toMatchObject({ userId: acc.id, role: 'user', csrfToken: '' });
  });

  it('refuses a missing name and a bad duration', async () => {
    const bad = await lib.json<{ error: string }>('POST', '/v1/account/tokens', { name: 'x', expiresIn: '3 days' }, asSession(admin));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('expiresIn');
    expect((await lib.json('POST', '/v1/account/tokens', { name: 'x', expiresIn: '-5m' }, asSession(admin))).status).toBe(400);
    expect((await lib.json('POST', '/v1/account/tokens', { name: '  ' }, asSession(admin))).status).toBe(400);
  });

  it('stops working when it expires', async () => {
    const s = await login(lib, ADMIN.username, ADMIN.password);
    const token = await mintToken(lib, s, 'short-lived', '1500ms');
    expect((await lib.json('GET', '/v1/tags', undefined, asBearer(token))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1700));
    const res = await lib.json<{ error: string }>('GET', '/v1/tags', undefined, asBearer(token));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    const del = await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asSession(s));
    for (const t of del.body.filter((t) => t.name === 'short-lived')) await lib.json('POST', '/v1/account/tokens/delete', { id: t.ID }, asSession(s));
  });

  it('revokes only your own tokens', async () => {
    const a = await makeAccount(lib, admin, { role: 'user' });
    const b = await makeAccount(lib, admin, { role: 'user' });
    const aSession = await login(lib, a.username, a.password);
    const aTokens = await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asSession(aSession));
    const id = aTokens.body[0].ID;
    const foreign = await lib.json<{ error: string }>('POST', '/v1/account/tokens/delete', { id }, asBearer(b.token));
    expect([foreign.status, foreign.body.error]).toEqual([404, 'token not found']);
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(a.token))).status).toBe(200);
    const own = await lib.json<{ ok: boolean }>('POST', `/v1/account/tokens/delete?id=${id}`, undefined, asSession(aSession));
    expect(own.body).toEqual({ ok: true });
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(a.token))).status).toBe(401);
    // A bearer may revoke itself (no CSRF for bearer requests).
    expect((await lib.json('POST', '/v1/account/tokens/delete', { id: (await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asBearer(b.token))).body[0].ID }, asBearer(b.token))).status).toBe(200);
    expect((await lib.json('GET', '/v1/auth/me', undefined, asBearer(b.token))).status).toBe(401);
  });

  it('caps the tokens an account may hold (-max-user-tokens)', async () => {
    const acc = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'cap' }, asSession(admin))).body.ID });
    const s = await login(lib, acc.username, acc.password);
    await mintToken(lib, s, 'two');
    await mintToken(lib, s, 'three');
    const fourth = await lib.json<{ error: string }>('POST', '/v1/account/tokens', { name: 'four' }, asSession(s));
    expect(fourth.status).toBe(409);
    expect(fourth.body.error).toContain('at most 3');
    const list = await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asSession(s));
    expect(list.body.map((t) => t.name)).toEqual(['three', 'two', 'test']);
    await lib.json('POST', '/v1/account/tokens/delete', { id: list.body[2].ID }, asSession(s));
    expect((await lib.json('POST', '/v1/account/tokens', { name: 'four' }, asSession(s))).status).toBe(200);
  });

  it('evaluates a Bearer header before any cookie', async () => {
    const s = await login(lib, ADMIN.username, ADMIN.password);
    const withBadBearer = await lib.json<{ error: string }>('GET', '/v1/auth/me', undefined, { cookie: s.cookie, authorization: 'Bearer not-a-real-token' });
    expect(withBadBearer.status).toBe(401);
    const acc = await makeAccount(lib, admin, { role: 'editor' });
    const both = await lib.json<{ userId: number; csrfToken: string }>('GET', '/v1/auth/me', undefined, { cookie: s.cookie, authorization: `Bearer ${acc.token}` });
    expect(both.body).toMatchObject({ userId: acc.id, csrfToken: '' });
    // Another scheme is not a bearer token: the cookie decides.
    const basic = await lib.json<{ userId: number }>('GET', '/v1/auth/me', undefined, { cookie: s.cookie, authorization: 'Basic YTpi' });
    expect(basic.body.userId).toBe(s.userId);
  });

  it('records use at most once a minute', async () => {
    const s = await login(lib, ADMIN.username, ADMIN.password);
    const token = await mintToken(lib, s, 'stamped');
    const stamp = async () => (await lib.json<TokenRecord[]>('GET', '/v1/account/tokens', undefined, asSession(s))).body.find((t) => t.name === 'stamped')!.lastUsedAt;
    expect(await stamp()).toBeUndefined();
    await lib.json('GET', '/v1/tags', undefined, asBearer(token));
    const first = await stamp();
    expect(first).toMatch(/^\d{4}-/);
    await new Promise((r) => setTimeout(r, 20));
    await lib.json('GET', '/v1/tags', undefined, asBearer(token));
    expect(await stamp()).toBe(first);
  });
});
