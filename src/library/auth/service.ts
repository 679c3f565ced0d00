// Credentials (companion §10.4, §10.5): login and logout, session cookies with a fixed
// lifetime, API tokens shown once and stored as SHA-256, and resolving either into the
// principal of a request. Activity stamps are written at most once a minute.
import { nowIso, bool } from '../../core/db/values.js';
import { badRequest, conflict, HttpError, notFound } from '../../core/http/errors.js';
import { parseDuration } from '../../core/config/duration.js';
import type { UserRepository, UserRow } from '../accounts/repository.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';
import { newSecret, sha256Hex } from './secrets.js';
import type { ApiTokenRepository, ApiTokenRow, CredentialOwner, SessionRepository } from './credentials.repository.js';
import type { Credential, Principal, Role } from './principal.js';

const ACTIVITY_STAMP_MS = 60_000;
const MAX_TOKEN_NAME = 200;

export interface Authenticated {
  principal: Principal;
  credential: Credential;
}

export const INVALID_LOGIN = 'invalid username or password';

/** The token record of GET /v1/account/tokens (companion §10.5). */
export function tokenRecord(row: ApiTokenRow) {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
    disabled: bool(row.disabled),
  };
}

export interface MintedToken {
  token: string;
  id: number;
  name: string;
  prefix: string;
}

export interface NewSession {
  token: string;
  csrfToken: string;
  user: UserRow;
}

function ownerPrincipal(userId: number, owner: CredentialOwner): Principal {
  return { userId, username: owner.username, role: owner.role as Role, scopeGroupId: owner.scope_group_id, superUser: false };
}

/**
 * The principal an account acts as right now, or null when it is gone or disabled: work done
 * later on an account's behalf (a queued download) runs with its current role and scope.
 */
export async function currentPrincipal(users: UserRepository, userId: number): Promise<Principal | null> {
  const user = await users.find(userId);
  if (!user || bool(user.disabled)) return null;
  return ownerPrincipal(user.id, { username: user.username, role: user.role, scope_group_id: user.scope_group_id, user_disabled: user.disabled });
}

/** A database busy or lock failure: the caller may simply try again (503 + Retry-After). */
function isContention(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT' || code === '40001' || code === '40P01' || code === '55P03';
}

export interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  tokens: ApiTokenRepository;
  sessionTtlMs: number;
  maxUserTokens: number;
  now?: () => Date;
}

export class AuthService {
  private readonly now: () => Date;

  constructor(private readonly deps: AuthServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  get sessionTtlMs(): number {
    return this.deps.sessionTtlMs;
  }

  /**
   * Checks a username and password. Unknown names, wrong passwords and disabled accounts fail
   * alike (and take as long); the caller counts the failure for rate limiting.
   */
  async checkCredentials(username: string, password: string): Promise<UserRow | null> {
    const user = username === '' ? undefined : await this.deps.users.findByUsername(username);
    if (!user) {
      await burnPasswordCheck(password);
      return null;
    }
    const ok = await verifyPassword(password, user.password_hash);
    return ok && !bool(user.disabled) ? user : null;
  }

  /** Mints a session for a checked account; lock contention becomes 503 with Retry-After. */
  async openSession(user: UserRow, origin: { userAgent: string; ip: string }): Promise<NewSession> {
    const token = newSecret();
    const csrfToken = newSecret();
    const now = this.now();
    try {
      await this.deps.sessions.insert({
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        user_id: user.id,
        token_hash: sha256Hex(token),
        csrf_token: csrfToken,
        expires_at: new Date(now.getTime() + this.deps.sessionTtlMs).toISOString(),
        last_seen_at: now.toISOString(),
        user_agent: origin.userAgent.slice(0, 500),
        ip: origin.ip.slice(0, 45),
      });
      await this.deps.users.update(user.id, { last_login_at: now.toISOString() });
    } catch (err) {
      if (isContention(err)) throw new HttpError(503, 'the server is busy; try again', {}, { 'Retry-After': '1' });
      throw err;
    }
    return { token, csrfToken, user: { ...user, last_login_at: now.toISOString() } };
  }

  async closeSession(sessionId: number): Promise<void> {
    await this.deps.sessions.remove(sessionId);
  }

  /** The principal behind a session cookie value; expired sessions are deleted when presented. */
  async fromSession(cookieValue: string): Promise<Authenticated | null> {
    const row = await this.deps.sessions.findByHash(sha256Hex(cookieValue));
    if (!row) return null;
    const now = this.now();
    if (row.expires_at <= now.toISOString()) {
      await this.deps.sessions.remove(row.id);
      return null;
    }
    if (bool(row.user_disabled)) return null;
    await this.stamp(row.last_seen_at, now, (at, stale) => this.deps.sessions.touch(row.id, at, stale));
    return { principal: ownerPrincipal(row.user_id, row), credential: { kind: 'session', sessionId: row.id, csrfToken: row.csrf_token } };
  }

  /** The principal behind a bearer token, or null for an unknown, expired or disabled token or account. */
  async fromToken(raw: string): Promise<Authenticated | null> {
    const row = await this.deps.tokens.findByHash(sha256Hex(raw));
    if (!row || bool(row.disabled) || bool(row.user_disabled)) return null;
    const now = this.now();
    if (row.expires_at && row.expires_at <= now.toISOString()) return null;
    await this.stamp(row.last_used_at, now, (at, stale) => this.deps.tokens.touch(row.id, at, stale));
    return { principal: ownerPrincipal(row.user_id, row), credential: { kind: 'bearer', tokenId: row.id } };
  }

  /** Writes an activity stamp unless the stored one is less than a minute old. */
  private async stamp(last: string | null, now: Date, write: (at: string, staleBefore: string) => Promise<void>): Promise<void> {
    const staleBefore = new Date(now.getTime() - ACTIVITY_STAMP_MS).toISOString();
    if (last !== null && last >= staleBefore) return;
    await write(now.toISOString(), staleBefore);
  }

  // ---- API tokens

  async listTokens(userId: number) {
    return (await this.deps.tokens.listForUser(userId)).map(tokenRecord);
  }

  async mintToken(userId: number, name: string | undefined, expiresIn: string | undefined): Promise<MintedToken> {
    const label = (name ?? '').trim();
    if (label === '') throw badRequest('name is required');
    if ([...label].length > MAX_TOKEN_NAME) throw badRequest(`name must be at most ${MAX_TOKEN_NAME} characters`);
    let expiresAt: string | null = null;
    if (expiresIn !== undefined && expiresIn.trim() !== '') {
      let ms: number;
      try {
        ms = parseDuration(expiresIn.trim());
      } catch {
        throw badRequest(`invalid expiresIn "${expiresIn}": expected a duration such as 720h or 30m`);
      }
      if (!(ms > 0)) throw badRequest('expiresIn must be a positive duration');
      const at = this.now().getTime() + ms;
      if (!Number.isFinite(at) || at > 8.64e15) throw badRequest('expiresIn is too long');
      expiresAt = new Date(at).toISOString();
    }
    const cap = this.deps.maxUserTokens;
    if (cap > 0 && (await this.deps.tokens.countForUser(userId)) >= cap) {
      throw conflict(`token limit reached: an account may hold at most ${cap} API tokens; revoke one first`);
    }
    const token = newSecret();
    const now = nowIso();
    const row = await this.deps.tokens.insert({
      created_at: now,
      updated_at: now,
      user_id: userId,
      name: label,
      token_hash: sha256Hex(token),
      prefix: token.slice(0, 8),
      expires_at: expiresAt,
      last_used_at: null,
      disabled: false,
    });
    return { token, id: row.id, name: row.name, prefix: row.prefix };
  }

  async revokeToken(userId: number, tokenId: number): Promise<void> {
    if (!(await this.deps.tokens.removeOwned(tokenId, userId))) throw notFound('token not found');
  }

  /** Removes sessions whose lifetime has passed (they are refused anyway; this keeps the table small). */
  async sweepExpiredSessions(): Promise<number> {
    return this.deps.sessions.removeExpired(nowIso());
  }
}
