// Accounts for tests of -auth: a library started with an administrator, sign-in through the API
// (the session cookie plus its CSRF token), accounts of each role and their API tokens — all
// made through the HTTP API, like any client would.
import { expect } from 'vitest';
import { startTestLibrary, type TestLibrary } from './library.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };

export function startAuthLibrary(extra: string[] = []): Promise<TestLibrary> {
  return startTestLibrary(['-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password, ...extra]);
}

export interface Session {
  /** "mr_session=…" for a Cookie header. */
  cookie: string;
  csrf: string;
  userId: number;
}

/** The mr_session value of a Set-Cookie header. */
export function sessionCookieOf(res: { headers: Headers }): string | null {
  const set = res.headers.get('set-cookie') ?? '';
  const m = /(?:^|,\s*)mr_session=([^;]*)/.exec(set);
  return m && m[1] ? `mr_session=${m[1]}` : null;
}

export async function login(lib: TestLibrary, username: string, password: string, headers: Record<string, string> = {}): Promise<Session> {
  const res = await lib.json<{ ID: number }>('POST', '/v1/auth/login', { username, password }, headers);
  expect(res.status, `login of ${username}: ${JSON.stringify(res.body)}`).toBe(200);
  const cookie = sessionCookieOf(res);
  expect(cookie).not.toBeNull();
  const me = await lib.json<{ csrfToken: string }>('GET', '/v1/auth/me', undefined, { cookie: cookie! });
  return { cookie: cookie!, csrf: me.body.csrfToken, userId: res.body.ID };
}

/** Headers of a cookie-authenticated request, with the CSRF token unless told otherwise. */
export function asSession(s: Session, csrf = true): Record<string, string> {
  return csrf ? { cookie: s.cookie, 'x-csrf-token': s.csrf } : { cookie: s.cookie };
}

export function asBearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface Account {
  id: number;
  username: string;
  password: string;
  token: string;
}

let counter = 0;

/** Creates an account as the admin session and mints it an API token (through its own session). */
export async function makeAccount(lib: TestLibrary, admin: Session, fields: { role: string; scopeGroupId?: number; username?: string }): Promise<Account> {
  const username = fields.username ?? `${fields.role}-${++counter}-${process.pid}`;
  const password = `pw-${username}-long`;
  const res = await lib.json<{ ID: number }>('POST', '/v1/users', { username, password, role: fields.role, ...(fields.scopeGroupId ? { scopeGroupId: fields.scopeGroupId } : {}) }, asSession(admin));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const session = await login(lib, username, password);
  const token = await mintToken(lib, session);
  return { id: res.body.ID, username, password, token };
}

export async function mintToken(lib: TestLibrary, session: Session, name = 'test', expiresIn?: string): Promise<string> {
  const res = await lib.json<{ token: string }>('POST', '/v1/account/tokens', { name, ...(expiresIn ? { expiresIn } : {}) }, asSession(session));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token;
}

/** A group made by the admin (scope groups, owners). */
export async function makeGroup(lib: TestLibrary, admin: Session, name: string, ownerId?: number): Promise<number> {
  const res = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: name, ...(ownerId ? { OwnerId: ownerId } : {}) }, asSession(admin));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ID;
}
