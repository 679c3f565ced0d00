// Relation type rows (with their back-relation pairing) and relation rows between groups (with
// the ends and types a list, a read or a rule check needs, joined in the same statement).
import { sql, type Insertable, type RawBuilder, type SqlBool } from 'kysely';
import { insideScope } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import type { RelationTable, RelationTypeTable } from '../schema/database.js';
import type { CommonListInput } from '../common/list.js';
import { NamedRepository, type NamedQuery, type NamedRow } from '../common/named.repository.js';

export type RelationTypeRow = NamedRow<'group_relation_types'>;
export type RelationRow = NamedRow<'group_relations'>;

export interface RelationTypeFilters extends CommonListInput {
  FromCategory?: number;
  ToCategory?: number;
  /** Types whose from category is this group's category. */
  ForFromGroup?: number;
  /** Types whose to category is this group's category. */
  ForToGroup?: number;
}

export interface RelationFilters {
  page?: number;
  FromGroupId?: number;
  ToGroupId?: number;
  GroupRelationTypeId?: number;
  /** Either end is this group. */
  GroupId?: number;
}

/** A group as a relation end: its category decides which types fit. */
export interface Endpoint {
  id: number;
  name: string;
  category_id: number | null;
  category: string | null;
}

const groupCategory = (id: number) => sql`(SELECT g.category_id FROM "groups" g WHERE g.id = ${id})`;

export class RelationTypeRepository extends NamedRepository<'group_relation_types', RelationTypeFilters> {
  protected readonly table = 'group_relation_types';
  protected readonly sort = { columns: ['id', 'name', 'description', 'created_at', 'updated_at', 'from_category_id', 'to_category_id'], meta: false };

  protected override filtered(f: RelationTypeFilters): NamedQuery {
    let q = super.filtered(f);
    if (f.FromCategory !== undefined) q = q.where(sql<SqlBool>`group_relation_types.from_category_id = ${f.FromCategory}`);
    if (f.ToCategory !== undefined) q = q.where(sql<SqlBool>`group_relation_types.to_category_id = ${f.ToCategory}`);
    if (f.ForFromGroup !== undefined) q = q.where(sql<SqlBool>`group_relation_types.from_category_id = ${groupCategory(f.ForFromGroup)}`);
    if (f.ForToGroup !== undefined) q = q.where(sql<SqlBool>`group_relation_types.to_category_id = ${groupCategory(f.ForToGroup)}`);
    return q;
  }

  async insert(row: Insertable<RelationTypeTable>): Promise<RelationTypeRow> {
    return (await this.db.insertInto('group_relation_types').values(row).returningAll().executeTakeFirstOrThrow()) as RelationTypeRow;
  }

  /** The type named `name` from category `from` to category `to` (other than `exceptId`). */
  async findByEnds(name: string, from: number, to: number, exceptId?: number): Promise<RelationTypeRow | undefined> {
    let q = this.db.selectFrom('group_relation_types').selectAll().where('name', '=', name).where('from_category_id', '=', from).where('to_category_id', '=', to);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return (await q.orderBy('id').executeTakeFirst()) as RelationTypeRow | undefined;
  }

  /** Unpairs the types paired with any of `ids`, except the ids themselves. */
  async releaseBacks(ids: readonly number[], now: string): Promise<void> {
    await this.db
      .updateTable('group_relation_types')
      .set({ back_relation_id: null, updated_at: now })
      .where('back_relation_id', 'in', [...ids])
      .where('id', 'not in', [...ids])
      .execute();
  }

  async setBack(id: number, backId: number | null, now: string): Promise<void> {
    await this.db.updateTable('group_relation_types').set({ back_relation_id: backId, updated_at: now }).where('id', '=', id).execute();
  }

  /** Every type with its categories' names, by name (form selects). */
  async options(): Promise<{ id: number; name: string; from_name: string | null; to_name: string | null }[]> {
    return this.db
      .selectFrom('group_relation_types as t')
      .leftJoin('categories as f', 'f.id', 't.from_category_id')
      .leftJoin('categories as c', 'c.id', 't.to_category_id')
      .select(['t.id', 't.name', 'f.name as from_name', 'c.name as to_name'])
      .orderBy('t.name')
      .orderBy('t.id')
      .execute();
  }
}

export class RelationRepository extends NamedRepository<'group_relations', CommonListInput, [vis: Visibility]> {
  protected readonly table = 'group_relations';
  protected readonly sort = { columns: ['id', 'name', 'created_at', 'updated_at'], meta: false };

  /** A relation is visible when both its groups are (companion §10.10). */
  protected override visibleWhere(vis?: Visibility): RawBuilder<SqlBool> | null {
    const from = vis ? insideScope(vis, 'group_relations.from_group_id') : null;
    const to = vis ? insideScope(vis, 'group_relations.to_group_id') : null;
    return from && to ? sql<SqlBool>`(${from} AND ${to})` : null;
  }

  /** One page of relations with their ends' and type's names, newest first. */
  async listPage(f: RelationFilters, limit: number, offset: number, vis: Visibility) {
    let q = this.db
      .selectFrom('group_relations as r')
      .innerJoin('groups as fg', 'fg.id', 'r.from_group_id')
      .innerJoin('groups as tg', 'tg.id', 'r.to_group_id')
      .innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id')
      .selectAll('r')
      .select(['fg.name as from_name', 'tg.name as to_name', 't.name as type_name']);
    if (f.FromGroupId !== undefined) q = q.where('r.from_group_id', '=', f.FromGroupId);
    if (f.ToGroupId !== undefined) q = q.where('r.to_group_id', '=', f.ToGroupId);
    if (f.GroupRelationTypeId !== undefined) q = q.where('r.relation_type_id', '=', f.GroupRelationTypeId);
    if (f.GroupId !== undefined) {
      const g = f.GroupId;
      q = q.where((eb) => eb.or([eb('r.from_group_id', '=', g), eb('r.to_group_id', '=', g)]));
    }
    const from = insideScope(vis, 'r.from_group_id');
    const to = insideScope(vis, 'r.to_group_id');
    if (from && to) q = q.where(from).where(to);
    return q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit).offset(offset).execute();
  }

  /** Outgoing (`from`) or incoming (`to`) relations of one group with the other end's and the type's names. */
  async ofGroup(groupId: number, side: 'from' | 'to', limit: number, vis: Visibility) {
    const [own, other] = side === 'from' ? (['r.from_group_id', 'r.to_group_id'] as const) : (['r.to_group_id', 'r.from_group_id'] as const);
    const seen = insideScope(vis, other) ?? sql<SqlBool>`1 = 1`;
    return this.db
      .selectFrom('group_relations as r')
      .innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id')
      .innerJoin('groups as g', 'g.id', other)
      .selectAll('r')
      .select(['t.name as type_name', 'g.name as other_name'])
      .where(own, '=', groupId)
      .where(seen)
      .orderBy('t.name')
      .orderBy('g.name')
      .limit(limit)
      .execute();
  }

  /** Ids and names of the groups among `ids`. */
  async groupNames(ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', [...ids]).execute();
  }

  async endpoint(groupId: number): Promise<Endpoint | undefined> {
    return this.db
      .selectFrom('groups')
      .leftJoin('categories', 'categories.id', 'groups.category_id')
      .select(['groups.id', 'groups.name', 'groups.category_id', 'categories.name as category'])
      .where('groups.id', '=', groupId)
      .executeTakeFirst();
  }

  /** Whether `from` relates to `to` by `type` (in a relation other than `exceptId`). */
  async exists(from: number, to: number, type: number, exceptId?: number): Promise<boolean> {
    let q = this.db.selectFrom('group_relations').select('id').where('from_group_id', '=', from).where('to_group_id', '=', to).where('relation_type_id', '=', type);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Whether any relation has one of these types. */
  async anyOfTypes(typeIds: readonly number[]): Promise<boolean> {
    return (await this.db.selectFrom('group_relations').select('id').where('relation_type_id', 'in', [...typeIds]).limit(1).executeTakeFirst()) !== undefined;
  }

  async insert(row: Insertable<RelationTable>): Promise<RelationRow> {
    return (await this.db.insertInto('group_relations').values(row).returningAll().executeTakeFirstOrThrow()) as RelationRow;
  }

  /** Removes the reverse edge of `row`: the other way round, by its type's back relation. */
  async removeBackEdge(row: Pick<RelationRow, 'from_group_id' | 'to_group_id' | 'relation_type_id'>): Promise<void> {
    await sql`DELETE FROM group_relations WHERE from_group_id = ${row.to_group_id} AND to_group_id = ${row.from_group_id}
      AND relation_type_id = (SELECT back_relation_id FROM group_relation_types WHERE id = ${row.relation_type_id})`.execute(this.db);
  }
}
