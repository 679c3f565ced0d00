// /v1/users, /v1/user… (admin) and /v1/account/… (self-service): contract "Accounts and
// authentication endpoints", companion §10.3, §10.5, §10.11, §11.4.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import type { AuthService } from '../auth/service.js';
import { MAX_SETTING_VALUE_BYTES, settingValue, type AccountSettings } from './settings.js';
import { Ok, TokenRecordSchema, UserFields, UserRecordSchema } from './schemas.js';
import { userRecord, type UserInput, type UserService } from './service.js';

/** The account a self-service request acts on; with auth off, the root administrator. */
export function selfOf(req: FastifyRequest): number {
  return req.principal.userId;
}

/** Password and tokens need a real signed-in account (companion §10.1). */
function signedInSelf(req: FastifyRequest): number {
  if (req.credential.kind === 'off') throw badRequest('account management requires an authenticated user');
  return req.principal.userId;
}

/** Form posts carry `disabledPresent` so an unticked box means "enabled". */
function userInput(input: Record<string, unknown>): UserInput {
  const { disabledPresent, ...rest } = input;
  if (disabledPresent !== undefined && rest.disabled === undefined) rest.disabled = false;
  return rest;
}

export function registerAccountRoutes(routes: LibraryRoutes, users: UserService, auth: AuthService, settings: AccountSettings): void {
  // ---- user administration (admin-only)

  routes.add({
    method: 'GET',
    path: '/v1/users',
    tag: 'users',
    summary: 'List accounts by username (limit 0 returns every account)',
    needs: 'system',
    input: Type.Object({ offset: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 0, description: 'default 50; 0 = all' })) }),
    reply: Type.Array(UserRecordSchema),
    handler: async ({ input }) => users.list(input.offset ?? 0, input.limit ?? 50),
  });

  routes.add({
    method: 'POST',
    path: '/v1/users',
    tag: 'users',
    summary: 'Create an account',
    needs: 'system',
    input: Type.Object(UserFields),
    reply: UserRecordSchema,
    handler: async ({ req, reply, input }) => sendWrite(req, reply, await users.create(actorOf(req), userInput(input)), '/admin/users'),
  });

  routes.add({
    method: 'GET',
    path: '/v1/user',
    tag: 'users',
    summary: 'One account',
    needs: 'system',
    input: Type.Object({ id: Type.Integer() }),
    reply: UserRecordSchema,
    handler: async ({ input }) => userRecord(await users.require(input.id)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/user',
    tag: 'users',
    summary: 'Update an account (only the fields sent change; 409 when it would leave no enabled administrator)',
    needs: 'system',
    input: Type.Object({ id: Type.Integer(), ...UserFields }),
    reply: UserRecordSchema,
    handler: async ({ req, reply, input }) => {
      const { id, ...fields } = input;
      return sendWrite(req, reply, await users.update(actorOf(req), id, userInput(fields)), '/admin/users');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/user/delete',
    tag: 'users',
    summary: 'Delete an account (409 for the last enabled administrator)',
    needs: 'system',
    input: Type.Object({ id: Type.Integer() }),
    reply: Ok,
    handler: async ({ req, reply, input }) => {
      await users.delete(actorOf(req), input.id);
      return sendWrite(req, reply, { ok: true }, '/admin/users');
    },
  });

  // ---- self-service (any signed-in principal)

  routes.add({
    method: 'POST',
    path: '/v1/account/password',
    tag: 'account',
    summary: 'Change your own password; your other sessions end (API tokens stay)',
    needs: 'account',
    input: Type.Object({ currentPassword: Type.String(), newPassword: Type.String() }),
    reply: Ok,
    handler: async ({ req, reply, input }) => {
      const userId = signedInSelf(req);
      const keep = req.credential.kind === 'session' ? req.credential.sessionId : null;
      await users.changeOwnPassword(userId, keep, input.currentPassword, input.newPassword);
      return sendWrite(req, reply, { ok: true }, '/account?changed=password');
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/account/tokens',
    tag: 'account',
    summary: 'Your API tokens, newest first',
    needs: 'account',
    reply: Type.Array(TokenRecordSchema),
    handler: async ({ req }) => auth.listTokens(signedInSelf(req)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/account/tokens',
    tag: 'account',
    summary: 'Mint an API token; the raw token is in this reply and nowhere else, ever',
    needs: 'account',
    input: Type.Object({
      name: Type.Optional(Type.String()),
      expiresIn: Type.Optional(Type.String({ description: 'duration such as 720h or 90m; omitted = no expiry' })),
    }),
    reply: Type.Object({ token: Type.String(), id: Type.Integer(), name: Type.String(), prefix: Type.String() }),
    // Never a redirect: the raw token must reach the client.
    handler: async ({ req, input }) => auth.mintToken(signedInSelf(req), input.name, input.expiresIn),
  });

  routes.add({
    method: 'POST',
    path: '/v1/account/tokens/delete',
    tag: 'account',
    summary: 'Revoke one of your API tokens',
    needs: 'account',
    input: Type.Object({ id: Type.Integer() }),
    reply: Ok,
    handler: async ({ req, reply, input }) => {
      await auth.revokeToken(signedInSelf(req), input.id);
      return sendWrite(req, reply, { ok: true }, '/account');
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/account/settings',
    tag: 'account',
    summary: 'Your UI settings (key → JSON value)',
    needs: 'account',
    reply: Type.Record(Type.String(), Type.Unknown()),
    handler: async ({ req }) => settings.all(selfOf(req)),
  });

  routes.add({
    method: 'PUT',
    path: '/v1/account/settings/:key',
    tag: 'account',
    summary: 'Store one UI setting: body {"value": <any JSON>}',
    needs: 'account',
    bodyLimit: MAX_SETTING_VALUE_BYTES + 1024,
    input: Type.Object({ key: Type.String() }),
    reply: Ok,
    handler: async ({ req }) => {
      const isJson = (req.headers['content-type'] ?? '').toLowerCase().includes('json');
      // The key comes from the path alone (a body member of the same name must not replace it).
      const key = (req.params as { key: string }).key;
      await settings.put(selfOf(req), key, settingValue(req.body, req.query as Record<string, unknown>, isJson));
      return { ok: true };
    },
  });

  routes.add({
    method: 'DELETE',
    path: '/v1/account/settings/:key',
    tag: 'account',
    summary: 'Remove one UI setting',
    needs: 'account',
    input: Type.Object({ key: Type.String() }),
    reply: Ok,
    handler: async ({ req }) => {
      await settings.remove(selfOf(req), (req.params as { key: string }).key);
      return { ok: true };
    },
  });
}
