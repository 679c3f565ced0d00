// Wires sign-in: the login flow (throttled), /v1/auth/* and the /login and /logout pages.
import type { FeatureHost } from '../context.js';
import type { Accounts } from '../accounts/feature.js';
import { LoginFlow } from './login.js';
import { registerLoginPages } from './pages.js';
import { LoginLimiter } from './rate-limit.js';
import { registerAuthRoutes } from './routes.js';

export function authFeature({ app, routes, layout, lib }: FeatureHost, accounts: Accounts): LoginFlow {
  const { auth: config } = lib.config;
  const limiter = new LoginLimiter(config.loginMaxAttempts, config.loginWindowMs);
  const login = new LoginFlow(accounts.auth, limiter, lib.audit, { trustProxyHeaders: config.trustProxyHeaders, cookieSecure: config.cookieSecure });
  registerAuthRoutes(routes, login);
  registerLoginPages(app, layout, login);
  return login;
}
