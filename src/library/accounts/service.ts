// Account administration (companion §10.2, §10.3): the user record, create/update/delete with
// their rules, the last-enabled-administrator guard, and the root administrator bootstrap.
// Every change to who may administer runs under one in-process lock, so two requests cannot
// each remove "the other" last administrator.
import { randomBytes } from 'node:crypto';
import { uuidV7 } from '../../core/ids.js';
import { nowIso, bool } from '../../core/db/values.js';
import { badRequest, conflict, HttpError, notFound } from '../../core/http/errors.js';
import type { Transactor } from '../../core/db/repository.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import type { EventBus } from '../../core/events/bus.js';
import type { Database } from '../schema/database.js';
import { withChange } from '../common/changes.js';
import { isRole, type Actor, type Principal, type Role } from '../auth/principal.js';
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords.js';
import type { ApiTokenRepository, SessionRepository } from '../auth/credentials.repository.js';
import type { UserRepository, UserRow } from './repository.js';

export const LAST_ADMIN_MESSAGE = 'cannot remove the last enabled administrator';
const MAX_USERNAME = 128;

/** The user record of every user endpoint (companion §10.3); hashes never leave. */
export function userRecord(row: UserRow) {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    guid: row.guid ?? '',
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    ...(row.scope_group_id !== null ? { scopeGroupId: row.scope_group_id } : {}),
    disabled: bool(row.disabled),
    ...(row.last_login_at ? { lastLoginAt: row.last_login_at } : {}),
  };
}
export type UserRecord = ReturnType<typeof userRecord>;

export function principalOf(row: UserRow, superUser = false): Principal {
  return { userId: row.id, username: row.username, role: row.role as Role, scopeGroupId: row.scope_group_id, superUser };
}

/**
 * Fields of a create or update as sent. `undefined` means omitted; `null` is only meaningful
 * for scopeGroupId (clears the scope) and is refused elsewhere.
 */
export interface UserInput {
  username?: unknown;
  displayName?: unknown;
  password?: unknown;
  role?: unknown;
  scopeGroupId?: unknown;
  disabled?: unknown;
}

function text(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) throw badRequest(`${name} cannot be null`);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
  return value;
}

function flag(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === null) throw badRequest(`${name} cannot be null`);
  if (typeof value === 'boolean') return value;
  const s = String(Array.isArray(value) ? value[value.length - 1] : value).trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(s)) return true;
  if (['false', '0', 'off', 'no', ''].includes(s)) return false;
  throw badRequest(`${name} must be a boolean (true or false)`);
}

/** null clears; an empty or 0 value (forms, query) clears too. */
function scopeId(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '' || value === 0 || value === '0') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest('scopeGroupId must be a group id');
  return n;
}

function validUsername(value: string): string {
  const name = value.trim();
  if (name === '') throw badRequest('username is required');
  if ([...name].length > MAX_USERNAME) throw badRequest(`username must be at most ${MAX_USERNAME} characters`);
  return name;
}

function checkedPassword(value: string): string {
  const problem = passwordProblem(value);
  if (problem) throw badRequest(problem);
  return value;
}

export interface UserServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  tokens: ApiTokenRepository;
  transactor: Transactor<Database>;
  bus: EventBus<Principal>;
}

export class UserService {
  private readonly lock = new KeyedLock();
  private readonly adminWatchers: (() => Promise<void>)[] = [];

  constructor(private readonly deps: UserServiceDeps) {}

  /** Runs after any change that may move the root administrator (the implicit actor with auth off). */
  watchAdmins(watcher: () => Promise<void>): void {
    this.adminWatchers.push(watcher);
  }

  private get users() {
    return this.deps.users;
  }

  async list(offset: number, limit: number): Promise<UserRecord[]> {
    if (offset < 0) throw badRequest('offset must not be negative');
    if (limit < 0) throw badRequest('limit must not be negative');
    return (await this.users.list(offset, limit)).map(userRecord);
  }

  /** The account, or undefined when there is none. */
  find(id: number): Promise<UserRow | undefined> {
    return this.users.find(id);
  }

  async require(id: number): Promise<UserRow> {
    const row = await this.users.find(id);
    if (!row) throw notFound('user not found');
    return row;
  }

  /** Scope group names by id (the administration pages show names, not ids). */
  scopeGroupNames(ids: readonly number[]): Promise<Map<number, string>> {
    return this.users.scopeGroupNames(ids);
  }

  /** The role and scope rules shared by create and update (companion §10.3). */
  private async scopeFor(role: Role, scope: number | null): Promise<number | null> {
    if (role === 'admin' || role === 'editor') return null;
    if (scope === null) {
      if (role === 'guest') throw badRequest('this role must be limited to a group');
      return null;
    }
    if (!(await this.users.scopeGroupExists(scope))) throw badRequest('scope group does not exist');
    return scope;
  }

  private role(value: unknown): Role | undefined {
    const raw = text('role', value);
    if (raw === undefined) return undefined;
    const role = raw.trim().toLowerCase();
    if (!isRole(role)) throw badRequest('invalid role');
    return role;
  }

  private async assertUsernameFree(username: string, exceptId: number | null): Promise<void> {
    const taken = await this.users.findByUsername(username);
    if (taken && taken.id !== exceptId) throw conflict(`username "${username}" is already taken`);
  }

  async create(actor: Actor, input: UserInput): Promise<UserRecord> {
    const rawName = text('username', input.username);
    const rawPassword = text('password', input.password);
    if (rawName === undefined || rawName.trim() === '') throw badRequest('username is required');
    if (rawPassword === undefined || rawPassword === '') throw badRequest('password is required');
    const username = validUsername(rawName);
    const password = checkedPassword(rawPassword);
    const role = this.role(input.role) ?? 'user';
    const scope = await this.scopeFor(role, scopeId(input.scopeGroupId) ?? null);
    const displayName = text('displayName', input.displayName) ?? '';
    const disabled = flag('disabled', input.disabled) ?? false;
    await this.assertUsernameFree(username, null);
    const passwordHash = await hashPassword(password);

    const row = await this.lock.with('admins', () =>
      withChange(this.deps.bus, actor, 'create', 'user', async () => {
        const now = nowIso();
        const created = await this.users.insert({
          created_at: now,
          updated_at: now,
          guid: uuidV7(),
          username,
          display_name: displayName,
          password_hash: passwordHash,
          role,
          scope_group_id: scope,
          disabled,
          password_auto_generated: false,
        });
        return { id: created.id, name: created.username, after: userRecord(created), result: created };
      }),
    );
    await this.adminsChanged();
    return userRecord(row);
  }

  /** Partial update: only the fields present change (companion §10.3). */
  async update(actor: Actor, id: number, input: UserInput): Promise<UserRecord> {
    const rawName = text('username', input.username);
    const rawPassword = text('password', input.password);
    const displayName = text('displayName', input.displayName);
    const newRole = this.role(input.role);
    const newScope = scopeId(input.scopeGroupId);
    const disabled = flag('disabled', input.disabled);
    const username = rawName === undefined ? undefined : validUsername(rawName);
    // An empty password field (the edit form's "leave unchanged") keeps the password.
    const password = rawPassword === undefined || rawPassword === '' ? undefined : checkedPassword(rawPassword);
    const passwordHash = password === undefined ? undefined : await hashPassword(password);

    const after = await this.lock.with('admins', async () => {
      const before = await this.require(id);
      if (username !== undefined && username !== before.username) await this.assertUsernameFree(username, id);
      const role = newRole ?? (before.role as Role);
      const scope = await this.scopeFor(role, newScope === undefined ? before.scope_group_id : newScope);
      const isDisabled = disabled ?? bool(before.disabled);
      const wasActiveAdmin = before.role === 'admin' && !bool(before.disabled);
      if (wasActiveAdmin && (role !== 'admin' || isDisabled) && (await this.users.countEnabledAdmins(id)) === 0) {
        throw conflict(LAST_ADMIN_MESSAGE);
      }
      // Locking an account or an administrator's password reset ends every way in.
      const revokeAll = (isDisabled && !bool(before.disabled)) || passwordHash !== undefined;
      return withChange(this.deps.bus, actor, 'update', 'user', async () => {
        await this.deps.transactor.run(async (tx) => {
          await this.users.in(tx).update(id, {
            updated_at: nowIso(),
            ...(username !== undefined ? { username } : {}),
            ...(displayName !== undefined ? { display_name: displayName } : {}),
            ...(passwordHash !== undefined ? { password_hash: passwordHash, password_auto_generated: false } : {}),
            role,
            scope_group_id: scope,
            disabled: isDisabled,
          });
          if (revokeAll) {
            await this.deps.sessions.in(tx).removeForUser(id);
            await this.deps.tokens.in(tx).removeForUser(id);
          }
        });
        const row = await this.require(id);
        return { id, name: row.username, before: userRecord(before), after: userRecord(row), result: row };
      });
    });
    await this.adminsChanged();
    return userRecord(after);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    await this.lock.with('admins', async () => {
      const before = await this.require(id);
      if (before.role === 'admin' && !bool(before.disabled) && (await this.users.countEnabledAdmins(id)) === 0) {
        throw conflict(LAST_ADMIN_MESSAGE);
      }
      await withChange(this.deps.bus, actor, 'delete', 'user', async () => {
        await this.deps.transactor.run(async (tx) => {
          await this.users.in(tx).clearAuthorship(id);
          await this.users.in(tx).remove(id);
        });
        return { id, name: before.username, before: userRecord(before), result: undefined };
      });
    });
    await this.adminsChanged();
  }

  /** Own password change: the current password must match; other sessions end (tokens stay). */
  async changeOwnPassword(userId: number, keepSessionId: number | null, currentPassword: string, newPassword: string): Promise<void> {
    if (!currentPassword) throw badRequest('currentPassword is required');
    if (!newPassword) throw badRequest('newPassword is required');
    const next = checkedPassword(newPassword);
    const row = await this.require(userId);
    if (!(await verifyPassword(currentPassword, row.password_hash))) throw new HttpError(401, 'current password is incorrect');
    const passwordHash = await hashPassword(next);
    await this.deps.transactor.run(async (tx) => {
      await this.users.in(tx).update(userId, { password_hash: passwordHash, password_auto_generated: false, updated_at: nowIso() });
      await this.deps.sessions.in(tx).removeForUser(userId, keepSessionId);
    });
  }

  private async adminsChanged(): Promise<void> {
    for (const watcher of this.adminWatchers) await watcher();
  }

  // ---- bootstrap (companion §10.2)

  /**
   * Applies -create-admin-user: creates the account as an enabled admin, or resets an existing
   * one to enabled admin with no scope. A password that already matches is left alone, so a
   * flag kept in the environment does not sign the administrator out at every restart.
   */
  async applyBootstrapAdmin(username: string, password: string, log: (msg: string) => void): Promise<void> {
    const existing = await this.users.findByUsername(username);
    const now = nowIso();
    if (!existing) {
      await this.users.insert({
        created_at: now,
        updated_at: now,
        guid: uuidV7(),
        username,
        display_name: username,
        password_hash: await hashPassword(password),
        role: 'admin',
        scope_group_id: null,
        disabled: false,
        password_auto_generated: false,
      });
      log(`created administrator "${username}" from -create-admin-user`);
      return;
    }
    const same = await verifyPassword(password, existing.password_hash);
    await this.deps.transactor.run(async (tx) => {
      await this.users.in(tx).update(existing.id, {
        role: 'admin',
        disabled: false,
        scope_group_id: null,
        password_auto_generated: false,
        updated_at: now,
        ...(same ? {} : { password_hash: await hashPassword(password) }),
      });
      if (!same) {
        await this.deps.sessions.in(tx).removeForUser(existing.id);
        await this.deps.tokens.in(tx).removeForUser(existing.id);
      }
    });
    log(`reset "${username}" to an enabled administrator from -create-admin-user${same ? '' : ' with the given password'}`);
  }

  /**
   * Makes sure an enabled administrator exists, creating `root` (or the first free rootN; an
   * existing admin `root` is re-enabled) with a random password when none does.
   */
  async ensureAdmin(log: (msg: string) => void): Promise<void> {
    if (await this.users.oldestEnabledAdmin()) return;
    const existingRoot = await this.users.findByUsername('root');
    if (existingRoot && existingRoot.role === 'admin') {
      await this.users.update(existingRoot.id, { disabled: false, updated_at: nowIso() });
      log('re-enabled the administrator "root" because no enabled administrator was left');
      return;
    }
    const candidates = ['root', ...Array.from({ length: 98 }, (_, i) => `root${i + 2}`)];
    const taken = await this.users.takenUsernames(candidates);
    const username = candidates.find((c) => !taken.has(c)) ?? `root-${uuidV7()}`;
    const now = nowIso();
    await this.users.insert({
      created_at: now,
      updated_at: now,
      guid: uuidV7(),
      username,
      display_name: 'Administrator',
      password_hash: await hashPassword(randomBytes(24).toString('base64url')),
      role: 'admin',
      scope_group_id: null,
      disabled: false,
      password_auto_generated: true,
    });
    log(`created administrator "${username}" with a random password (not shown); set known credentials with -create-admin-user and -create-admin-password`);
  }

  /** True when every enabled administrator still has a generated password. */
  async onlyGeneratedAdminPasswords(): Promise<boolean> {
    return (await this.users.countAdminsWithKnownPassword()) === 0;
  }

  /** The implicit actor while authentication is off: the oldest enabled admin, as a super-user. */
  async rootPrincipal(): Promise<Principal> {
    const row = await this.users.oldestEnabledAdmin();
    if (!row) throw new Error('no enabled administrator exists');
    return principalOf(row, true);
  }
}
