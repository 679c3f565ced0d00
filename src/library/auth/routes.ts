// /v1/auth/* (contract: Accounts and authentication endpoints): login, logout, current principal.
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { LibraryRoutes } from '../http/routes.js';
import { userRecord } from '../accounts/service.js';
import { UserRecordSchema } from '../accounts/schemas.js';
import type { LoginFlow } from './login.js';
import { authEnabledFor, csrfTokenOf } from './pipeline.js';
import { can } from './principal.js';

export const PrincipalSchema = Type.Object({
  authEnabled: Type.Boolean(),
  userId: Type.Integer(),
  username: Type.String(),
  role: Type.String(),
  scopeGroupId: Type.Union([Type.Integer(), Type.Null()]),
  isAdmin: Type.Boolean(),
  canWrite: Type.Boolean(),
  superUser: Type.Boolean(),
  csrfToken: Type.String({ description: 'send as X-CSRF-Token (or csrf_token) on cookie-authenticated writes; empty for bearer requests' }),
});

export function registerAuthRoutes(routes: LibraryRoutes, login: LoginFlow): void {
  routes.add({
    method: 'POST',
    path: '/v1/auth/login',
    tag: 'auth',
    summary: 'Sign in: sets the session cookie and returns the user (429 when throttled, 503 + Retry-After on contention)',
    needs: 'public',
    input: Type.Object({ username: Type.Optional(Type.String()), password: Type.Optional(Type.String()) }),
    reply: UserRecordSchema,
    handler: async ({ req, reply, input }) => {
      if (!input.username || !input.password) throw badRequest('username and password are required');
      const session = await login.login(req, input.username, input.password);
      login.setCookie(reply, session.token);
      return sendWrite(req, reply, userRecord(session.user), '/dashboard');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/auth/logout',
    tag: 'auth',
    summary: 'Sign out: revokes the current session and clears the cookie',
    needs: 'account',
    reply: Type.Object({ ok: Type.Boolean() }),
    handler: async ({ req, reply }) => {
      await login.logout(req, reply);
      return sendWrite(req, reply, { ok: true }, '/login');
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/auth/me',
    tag: 'auth',
    summary: 'The current principal and, for session requests, its CSRF token',
    needs: 'account',
    reply: PrincipalSchema,
    handler: async ({ req }) => {
      const p = req.principal;
      return {
        authEnabled: authEnabledFor(req),
        userId: p.userId,
        username: p.username,
        role: p.role,
        scopeGroupId: p.scopeGroupId,
        isAdmin: can(p, 'system'),
        canWrite: can(p, 'write'),
        superUser: p.superUser,
        csrfToken: csrfTokenOf(req),
      };
    },
  });
}
