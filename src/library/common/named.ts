// The rules every named entity shares, written once: a missing id is 404, every id of a bulk
// request must exist, names are unique where the table says so (409 on a clash, whatever the
// route), paged lists, inline name/description edits, and deletes with their change events.
import type { Updateable } from 'kysely';
import type { EventBus } from '../../core/events/bus.js';
import type { Transactor, Tx } from '../../core/db/repository.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Actor, Principal } from '../auth/principal.js';
import type { Database } from '../schema/database.js';
import { withChange } from './changes.js';
import { pageOf, type CommonListInput } from './list.js';
import type { NamedRepository, NamedRow, NamedTable, Seen } from './named.repository.js';
import { visibilityOf } from '../auth/visibility.js';
import { validName } from './names.js';

export interface NamedKind {
  /** Entity type in the audit log and events ("tag", "resource_category"). */
  entityType: string;
  /** Human label in messages ("tag", "resource category"). */
  label: string;
  /** Whether two rows may share a name (note types may; the rest may not). */
  uniqueName: boolean;
}

export interface NamedDeps {
  bus: EventBus<Principal>;
  transactor: Transactor<Database>;
}

/** The first of `ids` that is not among `foundIds` (the ids a lookup of them returned). */
export function firstMissing(ids: readonly number[], foundIds: Iterable<number>): number | undefined {
  const have = new Set(foundIds);
  return ids.find((id) => !have.has(id));
}

/**
 * The one "every id must exist" rule: 404 naming the first of `ids` that is not among
 * `foundIds` (the ids a lookup of those ids returned). Duplicate ids count once.
 */
export function requireIdsFound(label: string, ids: readonly number[], foundIds: Iterable<number>): void {
  const missing = firstMissing(ids, foundIds);
  if (missing !== undefined) throw notFound(`${label} ${missing} not found`);
}

/** The same rule over the rows a lookup returned; returns them. */
export function requireFound<R extends { id: number }>(label: string, ids: readonly number[], found: readonly R[]): R[] {
  requireIdsFound(label, ids, found.map((r) => r.id));
  return [...found];
}

export class NamedEntities<T extends NamedTable, I extends CommonListInput = CommonListInput, S extends Seen = []> {
  constructor(
    readonly repo: NamedRepository<T, I, S>,
    readonly kind: NamedKind,
    private readonly deps: NamedDeps,
  ) {}

  /** The row, or 404 when it does not exist or `seen` may not see it (never 403, §10.10). */
  async require(id: number | undefined, ...seen: S): Promise<NamedRow<T>> {
    if (id === undefined || id === null) throw badRequest('id is required');
    const row = await this.repo.find(id, ...seen);
    if (!row) throw notFound(`${this.kind.label} ${id} not found`);
    return row;
  }

  /** Every id must exist (404 naming the first that does not); duplicates count once. */
  async requireAll(ids: readonly number[], ...seen: S): Promise<NamedRow<T>[]> {
    const unique = [...new Set(ids)];
    return requireFound(this.kind.label, unique, await this.repo.findMany(unique, ...seen));
  }

  /** 409 when another row already has this name (tables with unique names only). */
  async assertNameFree(name: string, exceptId?: number): Promise<void> {
    if (!this.kind.uniqueName) return;
    const clash = await this.repo.findByName(name);
    if (clash && clash.id !== exceptId) throw conflict(`a ${this.kind.label} named "${name}" already exists`);
  }

  async list(input: I, perPage?: number, ...seen: S) {
    const { page, perPage: size, offset } = pageOf(input.page, perPage);
    const rows = await this.repo.page(input, size, offset, ...seen);
    return { rows, page, perPage: size };
  }

  count(input: I, ...seen: S): Promise<number> {
    return this.repo.count(input, ...seen);
  }

  /**
   * What the acting principal may see, as the repository wants it: global tables ignore the
   * value, confined ones apply it (so edits and deletes by id answer 404 outside the subtree).
   */
  private seenBy(actor: Actor): S {
    return [visibilityOf(actor.principal)] as Seen as S;
  }

  /** Inline edit of name or description, logged as an update. */
  async editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void> {
    const row = await this.require(id, ...this.seenBy(actor));
    const v = field === 'name' ? validName(value) : value;
    if (field === 'name') await this.assertNameFree(v, row.id);
    await withChange(this.deps.bus, actor, 'update', this.kind.entityType, async () => {
      await this.repo.update(row.id, { [field]: v } as Updateable<Database[T]>, ...this.seenBy(actor));
      return { id: row.id, name: field === 'name' ? v : row.name, before: row, result: undefined };
    });
  }

  /**
   * Deletes one row with its change events; `first` runs in the same transaction before the
   * row goes (moving dependants, say). Returns the deleted row.
   */
  async delete(actor: Actor, id: number | undefined, first?: (tx: Tx<Database>, row: NamedRow<T>) => Promise<void>): Promise<NamedRow<T>> {
    const row = await this.require(id, ...this.seenBy(actor));
    return withChange(this.deps.bus, actor, 'delete', this.kind.entityType, async () => {
      await this.deps.transactor.run(async (tx) => {
        if (first) await first(tx, row);
        await this.repo.in(tx).remove([row.id], ...this.seenBy(actor));
      });
      return { id: row.id, name: row.name, before: row, result: row };
    }, { data: { id: row.id, name: row.name } });
  }
}
