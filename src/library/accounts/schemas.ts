// Reply and input schemas of the account endpoints (they also document /v1/openapi.json).
import { Type, type TSchema } from '@sinclair/typebox';

export const UserRecordSchema = Type.Object({
  ID: Type.Integer(),
  CreatedAt: Type.String(),
  UpdatedAt: Type.String(),
  guid: Type.String(),
  username: Type.String(),
  displayName: Type.String(),
  role: Type.String({ enum: ['admin', 'editor', 'user', 'guest'] }),
  scopeGroupId: Type.Optional(Type.Integer({ description: 'omitted when not scoped' })),
  disabled: Type.Boolean(),
  lastLoginAt: Type.Optional(Type.String({ description: 'omitted until the first login' })),
});

export const TokenRecordSchema = Type.Object({
  ID: Type.Integer(),
  CreatedAt: Type.String(),
  UpdatedAt: Type.String(),
  userId: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'first 8 characters of the raw token' }),
  expiresAt: Type.Optional(Type.String()),
  lastUsedAt: Type.Optional(Type.String()),
  disabled: Type.Boolean(),
});

export const Ok = Type.Object({ ok: Type.Boolean() });

/**
 * A field read as sent (no coercion), so the service can tell an explicit null from an omitted
 * field; `type` documents what a client should send.
 */
function asSent(type: string, description: string, nullable = false): TSchema {
  return Type.Optional(Type.Unsafe<unknown>({ oneOf: [{ type }], ...(nullable ? { nullable: true } : {}), description }));
}

export const UserFields = {
  username: asSent('string', 'unique, at most 128 characters'),
  displayName: asSent('string', 'display name'),
  password: asSent('string', 'at least 8 characters, at most 72 bytes; empty on update keeps the password'),
  role: asSent('string', 'admin, editor, user or guest (default user)'),
  scopeGroupId: asSent('integer', 'group subtree the account is confined to; required for guests; null, empty or 0 clears it', true),
  disabled: asSent('boolean', 'locks the account (ends its sessions and tokens)'),
  disabledPresent: asSent('string', 'HTML forms: the disabled checkbox was on the form, so its absence means "enabled"'),
};
