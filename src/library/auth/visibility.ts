// What a principal may see (companion §10.10). A group-limited principal — a non-admin with a
// scope group, or any guest — sees its scope group and every descendant, the resources and notes
// those groups own, and the global vocabularies; everyone else sees everything. The value is a
// pure function of the principal and is computed once per principal object (so once per
// request); the subtree itself is never materialised in the application: repositories turn it
// into a recursive condition in SQL (visibility.repository.ts).
//
// Repositories of the confined tables (groups, resources, notes) take a Visibility on every
// read and write entry point, so an endpoint cannot reach their rows without saying who looks.
import type { Principal } from './principal.js';
import { isScoped } from './principal.js';

export type Visibility =
  | { readonly kind: 'all' }
  /**
   * The subtree under `rootId`; null: a guest without a scope group sees nothing. `plan` is a
   * hint a list page sets once it has measured the subtree: it changes how the statement finds
   * the rows, never which rows are visible.
   */
  | { readonly kind: 'subtree'; readonly rootId: number | null; readonly plan?: SubtreePlan };

/** What a list page knows when it plans a confined statement. */
export interface SubtreePlan {
  /** The subtree holds a large share of all groups. */
  large: boolean;
  /** Filters besides the scope narrow the rows. */
  narrowed: boolean;
}

/** Everything: admins, editors, unscoped users, and the service's own work (workers, start-up). */
export const SEE_ALL: Visibility = Object.freeze({ kind: 'all' });

const computed = new WeakMap<Principal, Visibility>();

export function visibilityOf(principal: Principal): Visibility {
  let v = computed.get(principal);
  if (!v) {
    v = isScoped(principal) ? Object.freeze({ kind: 'subtree', rootId: principal.scopeGroupId }) : SEE_ALL;
    computed.set(principal, v);
  }
  return v;
}

export function confined(v: Visibility): v is { kind: 'subtree'; rootId: number | null } {
  return v.kind === 'subtree';
}

/** The message of refusals that would act outside the subtree (writes; reads answer 404). */
export const OUTSIDE_SCOPE = 'outside your permitted scope';
