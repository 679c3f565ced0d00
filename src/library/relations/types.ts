// Relation type rules: a name unique per (from category, to category), and ReverseName,
// which creates or links the type going the other way; both rows point at each other through
// back_relation_id. A type whose reverse name is its own name is its own back relation.
//
// Categories are checked through their service before a transaction opens: on SQLite the one
// connection belongs to the transaction until it ends.
import type { Tx } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import type { CarrierService } from '../categories/service.js';
import { newRowStamp, withChange } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { validName } from '../common/names.js';
import { categoryStub } from '../groups/records.js';
import type { Database } from '../schema/database.js';
import { relationTypeRecord } from './records.js';
import type { RelationRepository, RelationTypeFilters, RelationTypeRepository, RelationTypeRow } from './repository.js';

export type { RelationTypeFilters };

export interface RelationTypeWrite {
  Id?: number;
  Name?: string;
  ReverseName?: string;
  Description?: string;
  FromCategory?: number;
  ToCategory?: number;
}

export class RelationTypeService {
  readonly named: NamedEntities<'group_relation_types', RelationTypeFilters>;

  constructor(
    private readonly types: RelationTypeRepository,
    private readonly relations: RelationRepository,
    private readonly categories: CarrierService,
    private readonly deps: NamedDeps,
  ) {
    // Names are unique per pair of categories, which refuseDuplicate checks.
    this.named = new NamedEntities(types, { entityType: 'relation_type', label: 'relation type', uniqueName: false }, deps);
  }

  /** Category filters, and the types a given group may take part in on either side. */
  list(f: RelationTypeFilters) {
    return this.named.list(f);
  }

  /** The single read: categories and back relation loaded. */
  async read(id: number | undefined) {
    const row = await this.named.require(id);
    const ids = [row.from_category_id, row.to_category_id].filter((c): c is number => c !== null);
    const cats = await this.categories.byIds(ids);
    const back = row.back_relation_id === null ? null : await this.types.find(row.back_relation_id);
    return relationTypeRecord(row, {
      from: categoryStub(row.from_category_id === null ? null : cats.get(row.from_category_id)),
      to: categoryStub(row.to_category_id === null ? null : cats.get(row.to_category_id)),
      back: back ?? null,
    });
  }

  /** Every type as a form option: "name (from → to)". */
  async options(): Promise<{ id: number; name: string }[]> {
    return (await this.types.options()).map((t) => ({ id: t.id, name: `${t.name} (${t.from_name ?? '?'} → ${t.to_name ?? '?'})` }));
  }

  private async requireCategory(id: number | undefined, field: string): Promise<number> {
    // 0 is "none" (a plugin's update that leaves a category out), and a type needs both.
    if (!id) throw badRequest(`${field} is required`);
    if (!(await this.categories.find(id))) throw notFound(`${field}: category ${id} not found`);
    return id;
  }

  private async refuseDuplicate(types: RelationTypeRepository, name: string, from: number, to: number, except?: number): Promise<void> {
    if (await types.findByEnds(name, from, to, except)) throw conflict(`a relation type named "${name}" already exists between these categories`);
  }

  /** Points `a` and `b` at each other, releasing whatever they were paired with before. */
  private async pair(types: RelationTypeRepository, a: RelationTypeRow, b: RelationTypeRow | null): Promise<void> {
    const now = nowIso();
    await types.releaseBacks(b ? [a.id, b.id] : [a.id], now);
    await types.setBack(a.id, b?.id ?? null, now);
    if (b && b.id !== a.id) await types.setBack(b.id, a.id, now);
  }

  /** Links (or creates) the type named `reverse` that runs from `to` back to `from`. */
  private async linkReverse(actor: Actor, tx: Tx<Database>, forward: RelationTypeRow, reverse: string): Promise<void> {
    const types = this.types.in(tx);
    if (reverse === '') return this.pair(types, forward, null);
    const from = forward.from_category_id!;
    const to = forward.to_category_id!;
    if (reverse === forward.name) {
      if (from !== to) throw badRequest('ReverseName equal to Name needs FromCategory and ToCategory to be the same category');
      return this.pair(types, forward, forward);
    }
    const existing = await types.findByEnds(reverse, to, from);
    if (existing) return this.pair(types, forward, existing);
    const current = forward.back_relation_id !== null && forward.back_relation_id !== forward.id ? await types.find(forward.back_relation_id) : undefined;
    if (current) {
      // Renaming the reverse of an existing pair renames the back type itself.
      await types.update(current.id, { name: reverse });
      return;
    }
    const back = await types.insert({ ...newRowStamp(actor), name: reverse, description: '', from_category_id: to, to_category_id: from, back_relation_id: null });
    return this.pair(types, forward, back);
  }

  async create(actor: Actor, input: RelationTypeWrite) {
    const name = validName(input.Name);
    const reverse = input.ReverseName === undefined ? '' : input.ReverseName.trim() === '' ? '' : validName(input.ReverseName, 'ReverseName');
    const from = await this.requireCategory(input.FromCategory, 'FromCategory');
    const to = await this.requireCategory(input.ToCategory, 'ToCategory');
    const id = await withChange(this.deps.bus, actor, 'create', 'relation_type', async () => {
      const row = await this.deps.transactor.run(async (tx) => {
        const types = this.types.in(tx);
        await this.refuseDuplicate(types, name, from, to);
        const forward = await types.insert({ ...newRowStamp(actor), name, description: input.Description ?? '', from_category_id: from, to_category_id: to, back_relation_id: null });
        await this.linkReverse(actor, tx, forward, reverse);
        return forward;
      });
      return { id: row.id, name, after: row, result: row.id };
    });
    return this.read(id);
  }

  /**
   * Partial update. Changing categories moves the back type along (swapped) and is refused
   * while relations of either type exist, since they would no longer fit.
   */
  async update(actor: Actor, id: number | undefined, input: RelationTypeWrite) {
    const before = await this.named.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const from = input.FromCategory === undefined ? before.from_category_id! : await this.requireCategory(input.FromCategory, 'FromCategory');
    const to = input.ToCategory === undefined ? before.to_category_id! : await this.requireCategory(input.ToCategory, 'ToCategory');
    await withChange(this.deps.bus, actor, 'update', 'relation_type', async () => {
      await this.deps.transactor.run(async (tx) => {
        const types = this.types.in(tx);
        await this.refuseDuplicate(types, name, from, to, before.id);
        const moved = from !== before.from_category_id || to !== before.to_category_id;
        if (moved && before.back_relation_id === before.id && from !== to && input.ReverseName === undefined) {
          throw badRequest('a type that is its own reverse needs FromCategory and ToCategory to be the same category');
        }
        if (moved) {
          const pairIds = [before.id, ...(before.back_relation_id !== null ? [before.back_relation_id] : [])];
          if (await this.relations.in(tx).anyOfTypes(pairIds)) throw conflict('the categories of a relation type cannot change while relations of it exist');
          if (before.back_relation_id !== null && before.back_relation_id !== before.id) {
            await types.update(before.back_relation_id, { from_category_id: to, to_category_id: from });
          }
        }
        await types.update(before.id, { name, description: input.Description ?? before.description, from_category_id: from, to_category_id: to });
        if (input.ReverseName !== undefined) {
          const forward = await types.find(before.id);
          if (!forward) throw notFound(`relation type ${before.id} not found`);
          const reverse = input.ReverseName.trim() === '' ? '' : validName(input.ReverseName, 'ReverseName');
          await this.linkReverse(actor, tx, forward, reverse);
        }
      });
      return { id: before.id, name, before, result: undefined };
    });
    return this.read(before.id);
  }
}
