// Who is calling: the API key's role and, for tag-scoped keys, the scope resolved by id on
// every request (so a renamed scope tag is followed at once; companion §4.5, §6.5).
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** What a route needs: a minimum role, or nothing at all (GET /status). */
export type Needs = Role | 'none';

export interface Scope {
  tagId: number;
  /** Current name of the scope tag. */
  name: string;
}

export interface KeyPrincipal {
  keyId: number;
  role: Role;
  scope: Scope | null;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** viewer < editor < admin; each includes the lower roles. */
export function hasRole(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: KeyPrincipal | null;
  }
}
