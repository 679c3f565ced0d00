// Who is acting. With authentication off every request runs as the root administrator, a
// super-user that passes every check (companion §10.1); with -auth the request pipeline
// (pipeline.ts) resolves the principal from an API token or a session cookie. Services receive
// the principal the same way in both modes.
import type { RequestOrigin } from '../../core/events/bus.js';

export const ROLES = ['admin', 'editor', 'user', 'guest'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Capabilities a route or page declares (companion §10.9):
 * - public: no principal needed (login, static assets);
 * - account: any signed-in principal, for its own session and account (never confined to a scope);
 * - read: any signed-in principal (content reads; group-limited principals see their subtree);
 * - write: user, editor, admin; editor: editor, admin; partials and system: admin.
 * A POST declared `read` changes nothing and is therefore exempt from CSRF (§10.6).
 */
export const CAPABILITIES = ['public', 'account', 'read', 'write', 'editor', 'partials', 'system'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface Principal {
  userId: number;
  username: string;
  role: Role;
  scopeGroupId: number | null;
  superUser: boolean;
  /** No credential at all (only ever seen on public routes and error pages under -auth). */
  anonymous?: boolean;
}

/** How a request proved who it is: auth off, nothing, a session cookie, or a bearer token. */
export type Credential =
  | { kind: 'off' }
  | { kind: 'none' }
  | { kind: 'session'; sessionId: number; csrfToken: string }
  | { kind: 'bearer'; tokenId: number };

/** What a service receives: the principal plus where the request came from. */
export interface Actor {
  principal: Principal;
  origin?: RequestOrigin;
}

const GRANTS: Record<Role, readonly Capability[]> = {
  admin: CAPABILITIES,
  editor: ['public', 'account', 'read', 'write', 'editor'],
  user: ['public', 'account', 'read', 'write'],
  guest: ['public', 'account', 'read'],
};

export const ANONYMOUS: Principal = Object.freeze({ userId: 0, username: '', role: 'guest', scopeGroupId: null, superUser: false, anonymous: true });

export function can(principal: Principal, needs: Capability): boolean {
  if (principal.anonymous) return needs === 'public';
  return principal.superUser || GRANTS[principal.role].includes(needs);
}

/** The roles that hold a capability (OpenAPI descriptions, the role matrix). */
export function rolesWith(needs: Capability): Role[] {
  return ROLES.filter((r) => GRANTS[r].includes(needs));
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Admins are never confined; guests always are (companion §10.10). */
export function isScoped(p: Principal): boolean {
  return !p.superUser && p.role !== 'admin' && (p.scopeGroupId !== null || p.role === 'guest');
}

/**
 * Group import creates and links groups anywhere in the tree, so it cannot be confined to a
 * subtree: it is never open to a group-limited principal, whatever its role (§10.10).
 */
export function mayImportGroups(p: Principal): boolean {
  return !isScoped(p);
}

export const GROUP_IMPORT_REFUSED = 'group import is not available to group-limited accounts';
