// Wires accounts: users, sessions, API tokens and UI settings. The services are built before any
// route (the request pipeline authenticates with them and start-up bootstraps the root
// administrator); the routes and pages are registered with the other features.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import type { Transactor } from '../../core/db/repository.js';
import type { EventBus } from '../../core/events/bus.js';
import type { AuthConfig } from '../config.js';
import type { FeatureHost } from '../context.js';
import type { Database } from '../schema/database.js';
import type { Principal } from '../auth/principal.js';
import { ApiTokenRepository, SessionRepository } from '../auth/credentials.repository.js';
import { AuthService } from '../auth/service.js';
import { UserRepository } from './repository.js';
import { UserSettingRepository } from './settings.repository.js';
import { UserService } from './service.js';
import { AccountSettings } from './settings.js';
import { registerAccountRoutes } from './routes.js';
import { registerAccountPages } from './pages.js';

export interface Accounts {
  users: UserService;
  auth: AuthService;
  settings: AccountSettings;
}

export function buildAccounts(db: Kysely<Database>, dialect: Dialect, transactor: Transactor<Database>, bus: EventBus<Principal>, config: AuthConfig): Accounts {
  const userRepo = new UserRepository(db, dialect);
  const sessions = new SessionRepository(db, dialect);
  const tokens = new ApiTokenRepository(db, dialect);
  return {
    users: new UserService({ users: userRepo, sessions, tokens, transactor, bus }),
    auth: new AuthService({ users: userRepo, sessions, tokens, sessionTtlMs: config.sessionTtlMs, maxUserTokens: config.maxUserTokens }),
    settings: new AccountSettings(new UserSettingRepository(db, dialect)),
  };
}

/**
 * Start-up (companion §10.2): apply -create-admin-user, make sure an enabled administrator
 * exists, warn when only generated passwords guard an -auth library; returns the root principal.
 */
export async function bootstrapAccounts(accounts: Accounts, config: AuthConfig, log: (msg: string) => void): Promise<Principal> {
  if (config.bootstrapAdmin) await accounts.users.applyBootstrapAdmin(config.bootstrapAdmin.username, config.bootstrapAdmin.password, log);
  await accounts.users.ensureAdmin(log);
  if (config.enabled && (await accounts.users.onlyGeneratedAdminPasswords())) {
    log('warning: every enabled administrator still has a generated password, so nobody can sign in as one; restart with -create-admin-user NAME -create-admin-password PASSWORD (or CREATE_ADMIN_USER / CREATE_ADMIN_PASSWORD) to set known credentials');
  }
  return accounts.users.rootPrincipal();
}

export function accountsFeature({ app, routes, layout }: FeatureHost, accounts: Accounts): void {
  registerAccountRoutes(routes, accounts.users, accounts.auth, accounts.settings);
  registerAccountPages(app, layout, accounts.users, accounts.auth, accounts.settings);
}
