// The root administrator and -create-admin-user (companion §10.2, §1.8.4): a generated `root`
// admin, the start-up warning under -auth, creating or resetting the named admin at every start,
// and start-up refusing incomplete or weak bootstrap credentials.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../../src/core/db/connect.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { Transactor } from '../../../src/core/db/repository.js';
import { EventBus } from '../../../src/core/events/bus.js';
import { parseLibraryArgs } from '../../../src/library/config.js';
import { bootstrapAccounts, buildAccounts } from '../../../src/library/accounts/feature.js';
import { UserRepository } from '../../../src/library/accounts/repository.js';
import type { Database } from '../../../src/library/schema/database.js';
import { libraryMigrations } from '../../../src/library/schema/migrations.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { asSession, login } from '../../helpers/accounts.js';

describe('root administrator bootstrap', () => {
  let lib: TestLibrary | undefined;
  afterAll(async () => {
    await lib?.close();
  });

  it('creates root with a generated password, warns under -auth, and -create-admin-user sets known credentials', async () => {
    const first: string[] = [];
    lib = await startTestLibrary(['-auth'], { log: (m) => first.push(m) });
    expect(first.join('\n')).toMatch(/created administrator "root" with a random password \(not shown\)/);
    expect(first.join('\n')).toMatch(/warning: every enabled administrator still has a generated password.*-create-admin-user/);
    expect((await lib.json('POST', '/v1/auth/login', { username: 'root', password: 'guessing-won-t-work' })).status).toBe(401);

    const second: string[] = [];
    lib = await lib.restart(['-auth', '-create-admin-user', 'root', '-create-admin-password', 'known password 1'], { log: (m) => second.push(m) });
    expect(second.join('\n')).toContain('reset "root" to an enabled administrator');
    expect(second.join('\n')).not.toContain('warning');
    const session = await login(lib, 'root', 'known password 1');

    // The same flags at the next start keep the session: nothing changed.
    lib = await lib.restart(['-auth', '-create-admin-user', 'root', '-create-admin-password', 'known password 1']);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(200);

    // A scoped, disabled user named by the flag becomes an enabled admin without a scope.
    const group = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'scope' }, asSession(session));
    const kid = await lib.json<{ ID: number }>('POST', '/v1/users', { username: 'kid', password: 'kid password', role: 'guest', scopeGroupId: group.body.ID, disabled: true }, asSession(session));
    expect(kid.status).toBe(200);
    lib = await lib.restart(['-auth', '-create-admin-user', 'kid', '-create-admin-password', 'new admin pw']);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(200);
    const kidSession = await login(lib, 'kid', 'new admin pw');
    const me = await lib.json<Record<string, unknown>>('GET', '/v1/auth/me', undefined, { cookie: kidSession.cookie });
    expect(me.body).toMatchObject({ username: 'kid', role: 'admin', scopeGroupId: null, isAdmin: true });

    // A different password for root resets it and ends its sessions.
    lib = await lib.restart(['-auth', '-create-admin-user', 'root', '-create-admin-password', 'known password 2']);
    expect((await lib.json('GET', '/v1/auth/me', undefined, { cookie: session.cookie })).status).toBe(401);
    await login(lib, 'root', 'known password 2');

    // A new name is created as an enabled admin.
    lib = await lib.restart(['-auth', '-create-admin-user', 'fresh', '-create-admin-password', 'fresh password']);
    expect((await login(lib, 'fresh', 'fresh password')).userId).toBeGreaterThan(0);
  });

  it('refuses to start with incomplete or weak bootstrap credentials', () => {
    const cases: [string[], string][] = [
      [['-create-admin-user', 'boss'], '-create-admin-user needs -create-admin-password'],
      [['-create-admin-password', 'long enough'], '-create-admin-password is set but -create-admin-user is not'],
      [['-create-admin-user', 'boss', '-create-admin-password', 'short'], 'password must be at least 8 characters'],
      [['-create-admin-user', 'boss', '-create-admin-password', 'x'.repeat(73)], 'password must be at most 72 bytes'],
      [['-session-ttl', '0s'], '-session-ttl'],
      [['-login-max-attempts', '-1'], 'login-max-attempts'],
    ];
    for (const [args, message] of cases) expect(() => parseLibraryArgs(['-ephemeral', ...args], {})).toThrow(message);
    const { config } = parseLibraryArgs(['-ephemeral'], {
      AUTH_ENABLED: '1',
      SESSION_TTL: '2h',
      SESSION_COOKIE_SECURE: '1',
      CREATE_ADMIN_USER: 'env-admin',
      CREATE_ADMIN_PASSWORD: 'env password',
      LOGIN_MAX_ATTEMPTS: '5',
      LOGIN_ATTEMPT_WINDOW: '10m',
      TRUST_PROXY_HEADERS: '1',
      MAX_USER_TOKENS: '7',
    });
    expect(config.auth).toEqual({
      enabled: true,
      sessionTtlMs: 7_200_000,
      cookieSecure: true,
      bootstrapAdmin: { username: 'env-admin', password: 'env password' },
      loginMaxAttempts: 5,
      loginWindowMs: 600_000,
      trustProxyHeaders: true,
      maxUserTokens: 7,
    });
    const off = parseLibraryArgs(['-ephemeral'], { AUTH_ENABLED: 'true' }).config.auth;
    expect(off).toMatchObject({ enabled: false, sessionTtlMs: 720 * 3_600_000, maxUserTokens: 100, loginMaxAttempts: 0, loginWindowMs: 900_000 });
  });
});

describe('root administrator bootstrap on a database with no enabled admin', () => {
  it('picks the first free rootN when root is not an admin, and re-enables an admin root', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stacks-bootstrap-'));
    const handle = connect<Database>({ kind: 'sqlite', dsn: join(dir, 'db.sqlite') });
    try {
      await migrateToLatest(handle.db as unknown as Kysely<unknown>, libraryMigrations(handle.dialect));
      const repo = new UserRepository(handle.db, handle.dialect);
      const row = (username: string, role: string, disabled: boolean) => ({
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        guid: null,
        username,
        display_name: '',
        password_hash: '',
        role,
        scope_group_id: null,
        disabled,
        password_auto_generated: false,
      });
      await repo.insert(row('root', 'user', false));
      await repo.insert(row('root2', 'editor', false));
      const accounts = buildAccounts(handle.db, handle.dialect, new Transactor(handle.db), new EventBus(), parseLibraryArgs(['-ephemeral'], {}).config.auth);
      const log: string[] = [];
      const root = await bootstrapAccounts(accounts, parseLibraryArgs(['-ephemeral'], {}).config.auth, (m) => log.push(m));
      expect(root).toMatchObject({ username: 'root3', role: 'admin', superUser: true });
      expect(log.join('\n')).toContain('"root3"');

      // With every admin disabled, an admin named root comes back rather than a new account.
      await repo.update(root.userId, { disabled: true, username: 'old-root3' });
      await repo.update((await repo.findByUsername('root'))!.id, { role: 'admin', disabled: true });
      const again = await bootstrapAccounts(accounts, parseLibraryArgs(['-ephemeral'], {}).config.auth, () => undefined);
      expect(again.username).toBe('root');
      expect((await repo.list(0, 0)).map((u) => u.username).sort()).toEqual(['old-root3', 'root', 'root2']);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
