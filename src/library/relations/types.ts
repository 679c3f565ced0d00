// Relation type rules: a name unique per (from category, to category), and ReverseName,
// which creates or links the type going the other way; both rows point at each other through
// back_relation_id. A type whose reverse name is its own name is its own back relation.
import { sql, type Transaction } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange } from '../common/crud.js';
import type { CommonListInput } from '../common/list.js';
import { validName } from '../common/names.js';
import type { Database } from '../schema/database.js';
import { categoryStub } from '../groups/records.js';
import { relationTypeRecord, type RelationTypeRow } from './records.js';

type Trx = Transaction<Database>;

export interface RelationTypeWrite {
  Id?: number;
  Name?: string;
  ReverseName?: string;
  Description?: string;
  FromCategory?: number;
  ToCategory?: number;
}

export interface RelationTypeFilters extends CommonListInput {
  FromCategory?: number;
  ToCategory?: number;
  ForFromGroup?: number;
  ForToGroup?: number;
}

export class RelationTypeService {
  readonly crud: Crud<'group_relation_types'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'group_relation_types',
      entityType: 'relation_type',
      label: 'relation type',
      sort: { columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'from_category_id', 'to_category_id'], meta: false },
    });
  }

  /** Category filters, and the types a given group may take part in on either side. */
  async list(f: RelationTypeFilters) {
    const groupCategory = (id: number) => sql`(SELECT g.category_id FROM "groups" g WHERE g.id = ${id})`;
    return this.crud.list(f, (q0) => {
      let q = q0;
      if (f.FromCategory !== undefined) q = q.where(sql<boolean>`group_relation_types.from_category_id = ${f.FromCategory}`);
      if (f.ToCategory !== undefined) q = q.where(sql<boolean>`group_relation_types.to_category_id = ${f.ToCategory}`);
      if (f.ForFromGroup !== undefined) q = q.where(sql<boolean>`group_relation_types.from_category_id = ${groupCategory(f.ForFromGroup)}`);
      if (f.ForToGroup !== undefined) q = q.where(sql<boolean>`group_relation_types.to_category_id = ${groupCategory(f.ForToGroup)}`);
      return q;
    });
  }

  /** The single read: categories and back relation loaded. */
  async read(id: number | undefined) {
    const row = await this.crud.require(id);
    const db = this.lib.db;
    const cats = await db
      .selectFrom('categories')
      .select(['id', 'name', 'description'])
      .where('id', 'in', [row.from_category_id ?? 0, row.to_category_id ?? 0])
      .execute();
    const back = row.back_relation_id === null ? null : await this.crud.find(row.back_relation_id);
    return relationTypeRecord(row, {
      from: categoryStub(cats.find((c) => c.id === row.from_category_id)),
      to: categoryStub(cats.find((c) => c.id === row.to_category_id)),
      back: back ?? null,
    });
  }

  private async requireCategory(trx: Trx, id: number | undefined, field: string): Promise<number> {
    if (id === undefined) throw badRequest(`${field} is required`);
    const row = await trx.selectFrom('categories').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`${field}: category ${id} not found`);
    return id;
  }

  private async refuseDuplicate(trx: Trx, name: string, from: number, to: number, except?: number): Promise<void> {
    let q = trx.selectFrom('group_relation_types').select('id').where('name', '=', name).where('from_category_id', '=', from).where('to_category_id', '=', to);
    if (except !== undefined) q = q.where('id', '<>', except);
    if (await q.executeTakeFirst()) throw conflict(`a relation type named "${name}" already exists between these categories`);
  }

  /** Points `a` and `b` at each other, releasing whatever they were paired with before. */
  private async pair(trx: Trx, a: RelationTypeRow, b: RelationTypeRow | null): Promise<void> {
    const ids = b ? [a.id, b.id] : [a.id];
    const now = nowIso();
    await trx.updateTable('group_relation_types').set({ back_relation_id: null, updated_at: now }).where('back_relation_id', 'in', ids).where('id', 'not in', ids).execute();
    await trx.updateTable('group_relation_types').set({ back_relation_id: b?.id ?? null, updated_at: now }).where('id', '=', a.id).execute();
    if (b && b.id !== a.id) await trx.updateTable('group_relation_types').set({ back_relation_id: a.id, updated_at: now }).where('id', '=', b.id).execute();
  }

  /** Links (or creates) the type named `reverse` that runs from `to` back to `from`. */
  private async linkReverse(actor: Actor, trx: Trx, forward: RelationTypeRow, reverse: string): Promise<void> {
    if (reverse === '') return this.pair(trx, forward, null);
    const from = forward.from_category_id!;
    const to = forward.to_category_id!;
    if (reverse === forward.name) {
      if (from !== to) throw badRequest('ReverseName equal to Name needs FromCategory and ToCategory to be the same category');
      return this.pair(trx, forward, forward);
    }
    const existing = await trx
      .selectFrom('group_relation_types')
      .selectAll()
      .where('name', '=', reverse)
      .where('from_category_id', '=', to)
      .where('to_category_id', '=', from)
      .executeTakeFirst();
    if (existing) return this.pair(trx, forward, existing);
    const current = forward.back_relation_id !== null && forward.back_relation_id !== forward.id ? await trx.selectFrom('group_relation_types').selectAll().where('id', '=', forward.back_relation_id).executeTakeFirst() : undefined;
    if (current) {
      // Renaming the reverse of an existing pair renames the back type itself.
      await trx.updateTable('group_relation_types').set({ name: reverse, updated_at: nowIso() }).where('id', '=', current.id).execute();
      return;
    }
    const back = await trx
      .insertInto('group_relation_types')
      .values({ ...newRowStamp(actor), name: reverse, description: '', from_category_id: to, to_category_id: from, back_relation_id: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.pair(trx, forward, back);
  }

  async create(actor: Actor, input: RelationTypeWrite) {
    const name = validName(input.Name);
    const reverse = input.ReverseName === undefined ? '' : input.ReverseName.trim() === '' ? '' : validName(input.ReverseName, 'ReverseName');
    const id = await withChange(this.lib, actor, 'create', 'relation_type', async () => {
      const row = await this.lib.db.transaction().execute(async (trx) => {
        const from = await this.requireCategory(trx, input.FromCategory, 'FromCategory');
        const to = await this.requireCategory(trx, input.ToCategory, 'ToCategory');
        await this.refuseDuplicate(trx, name, from, to);
        const forward = await trx
          .insertInto('group_relation_types')
          .values({ ...newRowStamp(actor), name, description: input.Description ?? '', from_category_id: from, to_category_id: to, back_relation_id: null })
          .returningAll()
          .executeTakeFirstOrThrow();
        await this.linkReverse(actor, trx, forward, reverse);
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
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    await withChange(this.lib, actor, 'update', 'relation_type', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        const from = input.FromCategory === undefined ? before.from_category_id! : await this.requireCategory(trx, input.FromCategory, 'FromCategory');
        const to = input.ToCategory === undefined ? before.to_category_id! : await this.requireCategory(trx, input.ToCategory, 'ToCategory');
        await this.refuseDuplicate(trx, name, from, to, before.id);
        const moved = from !== before.from_category_id || to !== before.to_category_id;
        if (moved && before.back_relation_id === before.id && from !== to && input.ReverseName === undefined) {
          throw badRequest('a type that is its own reverse needs FromCategory and ToCategory to be the same category');
        }
        if (moved) {
          const types = [before.id, ...(before.back_relation_id !== null ? [before.back_relation_id] : [])];
          const used = await trx.selectFrom('group_relations').select('id').where('relation_type_id', 'in', types).limit(1).executeTakeFirst();
          if (used) throw conflict('the categories of a relation type cannot change while relations of it exist');
          if (before.back_relation_id !== null && before.back_relation_id !== before.id) {
            await trx.updateTable('group_relation_types').set({ from_category_id: to, to_category_id: from, updated_at: nowIso() }).where('id', '=', before.back_relation_id).execute();
          }
        }
        await trx
          .updateTable('group_relation_types')
          .set({ name, description: input.Description ?? before.description, from_category_id: from, to_category_id: to, updated_at: nowIso() })
          .where('id', '=', before.id)
          .execute();
        if (input.ReverseName !== undefined) {
          const forward = await trx.selectFrom('group_relation_types').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
          const reverse = input.ReverseName.trim() === '' ? '' : validName(input.ReverseName, 'ReverseName');
          await this.linkReverse(actor, trx, forward, reverse);
        }
      });
      return { id: before.id, name, before, result: undefined };
    });
    return this.read(before.id);
  }
}
