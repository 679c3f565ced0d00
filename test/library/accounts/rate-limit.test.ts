// Login rate limiting (companion §10.7): keyed by client IP and by username, 429 up front once a
// key holds the allowed failures within the window, a success clearing the username's count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLibrary } from '../../helpers/library.js';
import { ADMIN, asSession, login, startAuthLibrary } from '../../helpers/accounts.js';

describe('login rate limiting', () => {
  let lib: TestLibrary;

  beforeAll(async () => {
    lib = await startAuthLibrary(['-login-max-attempts', '3', '-login-attempt-window', '3s', '-trust-proxy-headers']);
    const admin = await login(lib, ADMIN.username, ADMIN.password, { 'x-forwarded-for': '10.0.0.1' });
    for (const username of ['victim', 'other'])
      expect((await lib.json('POST', '/v1/users', { username, password: 'victim-password', role: 'user' }, asSession(admin))).status).toBe(200);
  });
  afterAll(async () => {
    await lib?.close();
  });

  const attempt = (username: string, password: string, ip: string) => lib.json<{ error: string }>('POST', '/v1/auth/login', { username, password }, { 'x-forwarded-for': `${ip}, 192.0.2.99` });

  it('refuses a username with 429 after the allowed failures, from any address, until the window passes', async () => {
    for (const ip of ['10.1.0.1', '10.1.0.2', '10.1.0.3']) expect((await attempt('Victim ', 'wrong password', ip)).status).toBe(401);
    const refused = await attempt('victim', 'victim-password', '10.1.0.4');
    expect([refused.status, refused.body.error]).toEqual([429, 'too many login attempts; try again later']);
    // Another account from a fresh address is unaffected.
    expect((await attempt('other', 'victim-password', '10.1.0.5')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    expect((await attempt('victim', 'victim-password', '10.1.0.4')).status).toBe(200);
  });

  it('refuses an address with 429 after the allowed failures, whatever the username', async () => {
    for (const name of ['a1', 'a2', 'a3']) expect((await attempt(name, 'nope nope', '10.2.0.1')).status).toBe(401);
    expect((await attempt('other', 'victim-password', '10.2.0.1')).status).toBe(429);
    expect((await attempt('other', 'victim-password', '10.2.0.2')).status).toBe(200);
    // The /login form shares the limiter and says so.
    const form = await lib.form('/login', [['username', 'other'], ['password', 'victim-password']], { 'x-forwarded-for': '10.2.0.1', accept: 'text/html' });
    expect(form.headers.get('location')).toBe('/login?error=rate&next=%2Fdashboard');
  });

  it('a success clears the username failures but not the address', async () => {
    expect((await attempt('victim', 'bad one 1', '10.3.0.1')).status).toBe(401);
    expect((await attempt('victim', 'bad one 2', '10.3.0.2')).status).toBe(401);
    expect((await attempt('victim', 'victim-password', '10.3.0.3')).status).toBe(200);
    for (const ip of ['10.3.0.4', '10.3.0.5']) expect((await attempt('victim', 'bad again', ip)).status).toBe(401);
    // Two failures since the success: one more is allowed.
    expect((await attempt('victim', 'victim-password', '10.3.0.6')).status).toBe(200);
    // The address keeps its failures: three in a row lock it, whoever signs in from it.
    for (const name of ['x', 'y', 'z']) expect((await attempt(name, 'bad', '10.3.0.9')).status).toBe(401);
    expect((await attempt('victim', 'victim-password', '10.3.0.9')).status).toBe(429);
  });
});

describe('login rate limiting off (default)', () => {
  let lib: TestLibrary;
  beforeAll(async () => {
    lib = await startAuthLibrary();
  });
  afterAll(async () => {
    await lib?.close();
  });

  it('never answers 429', async () => {
    for (let i = 0; i < 12; i++) expect((await lib.json('POST', '/v1/auth/login', { username: ADMIN.username, password: 'wrong wrong' })).status).toBe(401);
    expect((await lib.json('POST', '/v1/auth/login', ADMIN)).status).toBe(200);
  });
});
