// Who is acting. With authentication off every request runs as the root administrator, a
// super-user that passes every check (companion §10.1); accounts and -auth arrive later and
// only change how the principal is resolved, not how services receive it.
import type { RequestOrigin } from '../../core/events/bus.js';

export type Role = 'admin' | 'editor' | 'user' | 'guest';

/** Capabilities a route can require (companion §10.9). */
export type Capability = 'public' | 'read' | 'write' | 'editor' | 'partials' | 'system';

export interface Principal {
  userId: number;
  username: string;
  role: Role;
  scopeGroupId: number | null;
  superUser: boolean;
}

/** What a service receives: the principal plus where the request came from. */
export interface Actor {
  principal: Principal;
  origin?: RequestOrigin;
}

const GRANTS: Record<Role, Capability[]> = {
  admin: ['public', 'read', 'write', 'editor', 'partials', 'system'],
  editor: ['public', 'read', 'write', 'editor'],
  user: ['public', 'read', 'write'],
  guest: ['public', 'read'],
};

export function can(principal: Principal, needs: Capability): boolean {
  return principal.superUser || GRANTS[principal.role].includes(needs);
}
