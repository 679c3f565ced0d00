// The invocation every plugin entry point carries (library-plugins.md §9.7): on whose behalf it
// runs and which request it serves. Host functions read it; Node's AsyncLocalStorage carries it
// into them because the Lua runtime runs host functions in the caller's async context.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestOrigin } from '../../core/events/bus.js';
import type { Principal } from '../auth/principal.js';

export interface Invocation {
  /** null = actor 0: unrestricted, attributed to the root account. */
  actor: Principal | null;
  /** The request this entry point serves, when it is request-bound. */
  origin?: RequestOrigin;
  /** A render entry point: within a page render it shares the page's MRQL cache (§24). */
  render?: boolean;
  /** This entry point's MRQL cache (§11.6), made on first use. */
  mrql?: Map<string, unknown>;
}

export const invocations = new AsyncLocalStorage<Invocation>();

export function currentInvocation(): Invocation {
  return invocations.getStore() ?? { actor: null };
}

/** Actor 0 for the root super-user and with authentication off (§9.7). */
export function actorFor(principal: Principal | undefined): Principal | null {
  if (!principal || principal.superUser) return null;
  return principal;
}
