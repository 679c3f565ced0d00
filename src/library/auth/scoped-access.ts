// The seam plugins (and any other code that is not a repository) use to ask what a principal
// may see (companion §10.10, library-plugins.md §26): "may this principal see entity X" and
// "restrict these ids to what it may see". Both run one indexed statement with the subtree as a
// recursive condition; nothing is cached across principals. Repositories apply the same rule
// through `insideScope` / `entityVisible` in their own statements instead.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import type { Database } from '../schema/database.js';
import type { Principal } from './principal.js';
import { VisibilityRepository, type ConfinedKind } from './visibility.repository.js';
import { visibilityOf, type Visibility } from './visibility.js';

export type { ConfinedKind, Visibility };

export class ScopedAccess {
  constructor(private readonly repo: VisibilityRepository) {}

  /** What `principal` may see: everything, or its scope group's subtree (a guest without one: nothing). */
  visibility(principal: Principal): Visibility {
    return visibilityOf(principal);
  }

  /** Whether `principal` may see the group, resource or note `id` (false also when it does not exist). */
  async maySee(principal: Principal, kind: ConfinedKind, id: number): Promise<boolean> {
    return (await this.repo.visibleIds(visibilityOf(principal), kind, [id])).length === 1;
  }

  /** The ids among `ids` that exist and that `principal` may see, in id order. */
  restrict(principal: Principal, kind: ConfinedKind, ids: readonly number[]): Promise<number[]> {
    return this.repo.visibleIds(visibilityOf(principal), kind, ids);
  }
}

export function scopedAccess(db: Kysely<Database>, dialect: Dialect): ScopedAccess {
  return new ScopedAccess(new VisibilityRepository(db, dialect));
}
