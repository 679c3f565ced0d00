// AuthService with a controlled clock over a real database: activity stamps at most once a
// minute, sessions deleted when presented after their lifetime, and lock contention while
// minting a session answered as 503 with Retry-After.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '../../../src/core/db/connect.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { HttpError } from '../../../src/core/http/errors.js';
import { UserRepository } from '../../../src/library/accounts/repository.js';
import { ApiTokenRepository, SessionRepository } from '../../../src/library/auth/credentials.repository.js';
import { hashPassword } from '../../../src/library/auth/passwords.js';
import { AuthService } from '../../../src/library/auth/service.js';
import type { Database } from '../../../src/library/schema/database.js';
import { libraryMigrations } from '../../../src/library/schema/migrations.js';

describe('AuthService', () => {
  let dir: string;
  let handle: DbHandle<Database>;
  let now = Date.UTC(2024, 5, 1, 12, 0, 0);
  let users: UserRepository;
  let sessions: SessionRepository;
  let tokens: ApiTokenRepository;
  let auth: AuthService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stacks-auth-'));
    handle = connect<Database>({ kind: 'sqlite', dsn: join(dir, 'db.sqlite') });
    await migrateToLatest(handle.db as unknown as Kysely<unknown>, libraryMigrations(handle.dialect));
    users = new UserRepository(handle.db, handle.dialect);
    sessions = new SessionRepository(handle.db, handle.dialect);
    tokens = new ApiTokenRepository(handle.db, handle.dialect);
    auth = new AuthService({ users, sessions, tokens, sessionTtlMs: 3_600_000, maxUserTokens: 0, now: () => new Date(now) });
    const at = new Date(now).toISOString();
    await users.insert({ created_at: at, updated_at: at, guid: null, username: 'ann', display_name: '', password_hash: await hashPassword('ann password'), role: 'user', scope_group_id: null, disabled: false, password_auto_generated: false });
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lastSeen = async (id: number) => (await handle.db.selectFrom('sessions').select('last_seen_at').where('id', '=', id).executeTakeFirst())?.last_seen_at;

  it('refreshes last_seen_at at most once a minute and deletes a session presented after its lifetime', async () => {
    const user = (await auth.checkCredentials('ann', 'ann password'))!;
    expect(user.username).toBe('ann');
    expect(await auth.checkCredentials('ann', 'wrong')).toBeNull();
    expect(await auth.checkCredentials('bob', 'ann password')).toBeNull();
    const opened = await auth.openSession(user, { userAgent: 'ua', ip: '127.0.0.1' });
    const first = (await auth.fromSession(opened.token))!;
    const id = first.credential.kind === 'session' ? first.credential.sessionId : 0;
    const start = await lastSeen(id);
    now += 59_000;
    await auth.fromSession(opened.token);
    expect(await lastSeen(id)).toBe(start);
    now += 2_000;
    await auth.fromSession(opened.token);
    expect(await lastSeen(id)).toBe(new Date(now).toISOString());
    now += 3_600_000;
    expect(await auth.fromSession(opened.token)).toBeNull();
    expect(await lastSeen(id)).toBeUndefined();
  });

  it('refuses a token at its expiry instant, not before', async () => {
    const minted = await auth.mintToken(1, 'exp', '10m');
    expect(await auth.fromToken(minted.token)).not.toBeNull();
    now += 599_999;
    expect(await auth.fromToken(minted.token)).not.toBeNull();
    now += 1;
    expect(await auth.fromToken(minted.token)).toBeNull();
  });

  it('answers lock contention while minting a session with 503 and Retry-After: 1', async () => {
    const user = (await auth.checkCredentials('ann', 'ann password'))!;
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const stuck = new AuthService({
      users,
      sessions: Object.assign(Object.create(sessions) as SessionRepository, { insert: () => Promise.reject(busy) }),
      tokens,
      sessionTtlMs: 1000,
      maxUserTokens: 0,
    });
    const err = await stuck.openSession(user, { userAgent: '', ip: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(503);
    expect((err as HttpError).headers).toEqual({ 'Retry-After': '1' });
    const other = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    const broken = new AuthService({ users, sessions: Object.assign(Object.create(sessions) as SessionRepository, { insert: () => Promise.reject(other) }), tokens, sessionTtlMs: 1000, maxUserTokens: 0 });
    expect(await broken.openSession(user, { userAgent: '', ip: '' }).catch((e: unknown) => e)).toBe(other);
  });
});
