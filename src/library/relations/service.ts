// Relation rules (contract: Relation types and relations): no self relations, both groups and
// the type need categories, the groups' categories must fit the type's, and a type with a back
// relation gets its reverse edge in the same transaction.
import { sql, type Transaction } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, rowStamp, withChange } from '../common/crud.js';
import { pageOf } from '../common/list.js';
import type { Database, LibraryDb } from '../schema/database.js';
import { relationRecord, type RelationRow, type RelationTypeRow } from './records.js';

type Trx = Transaction<Database>;

export interface RelationWrite {
  Id?: number;
  FromGroupId?: number;
  ToGroupId?: number;
  GroupRelationTypeId?: number;
  Name?: string;
  Description?: string;
}

export interface RelationFilters {
  page?: number;
  FromGroupId?: number;
  ToGroupId?: number;
  GroupRelationTypeId?: number;
  /** Either end is this group. */
  GroupId?: number;
}

interface Endpoint {
  id: number;
  name: string;
  category_id: number | null;
  category: string | null;
}

export class RelationService {
  readonly crud: Crud<'group_relations'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'group_relations',
      entityType: 'relation',
      label: 'relation',
      sort: { columns: ['id', 'name', 'created_at', 'updated_at'], meta: false },
    });
  }

  /** Relations with their ends and type loaded, in one statement per page. */
  async list(f: RelationFilters, perPage?: number) {
    const { page, perPage: size, offset } = pageOf(f.page, perPage);
    let q = this.lib.db
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
    const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(size).offset(offset).execute();
    return {
      rows: rows.map((r) => ({
        ...relationRecord(r, { from: { ID: r.from_group_id, Name: r.from_name }, to: { ID: r.to_group_id, Name: r.to_name } }),
        RelationTypeName: r.type_name,
      })),
      page,
      perPage: size,
    };
  }

  async read(id: number | undefined) {
    const row = await this.crud.require(id);
    const db = this.lib.db;
    const [groups, type] = await Promise.all([
      db.selectFrom('groups').select(['id', 'name']).where('id', 'in', [row.from_group_id, row.to_group_id]).execute(),
      db.selectFrom('group_relation_types').selectAll().where('id', '=', row.relation_type_id).executeTakeFirst(),
    ]);
    const stub = (gid: number) => {
      const g = groups.find((x) => x.id === gid);
      return g ? { ID: g.id, Name: g.name } : null;
    };
    return relationRecord(row, { from: stub(row.from_group_id), to: stub(row.to_group_id), type: type ?? null });
  }

  private async endpoint(trx: Trx, id: number | undefined, field: string): Promise<Endpoint> {
    if (id === undefined) throw badRequest(`${field} is required`);
    const g = await trx
      .selectFrom('groups')
      .leftJoin('categories', 'categories.id', 'groups.category_id')
      .select(['groups.id', 'groups.name', 'groups.category_id', 'categories.name as category'])
      .where('groups.id', '=', id)
      .executeTakeFirst();
    if (!g) throw notFound(`${field}: group ${id} not found`);
    return g;
  }

  /** The four rules; returns the type for the back edge. */
  private async check(trx: Trx, fromId: number | undefined, toId: number | undefined, typeId: number | undefined): Promise<{ from: Endpoint; to: Endpoint; type: RelationTypeRow }> {
    if (fromId !== undefined && fromId === toId) throw badRequest('cannot relate to self');
    const from = await this.endpoint(trx, fromId, 'FromGroupId');
    const to = await this.endpoint(trx, toId, 'ToGroupId');
    if (typeId === undefined) throw badRequest('GroupRelationTypeId is required');
    const type = await trx.selectFrom('group_relation_types').selectAll().where('id', '=', typeId).executeTakeFirst();
    if (!type) throw notFound(`relation type ${typeId} not found`);
    if (from.category_id === null || to.category_id === null || type.from_category_id === null || type.to_category_id === null) {
      throw badRequest('both groups and the relation type must have a category');
    }
    if (from.category_id !== type.from_category_id || to.category_id !== type.to_category_id) {
      const names = await trx.selectFrom('categories').select(['id', 'name']).where('id', 'in', [type.from_category_id, type.to_category_id]).execute();
      const cat = (id: number) => names.find((c) => c.id === id)?.name ?? String(id);
      throw badRequest(
        `relation type "${type.name}" relates ${cat(type.from_category_id)} to ${cat(type.to_category_id)}, ` +
          `but from group "${from.name}" is a ${from.category} and to group "${to.name}" is a ${to.category}`,
      );
    }
    return { from, to, type };
  }

  private async exists(trx: Trx, from: number, to: number, type: number, except?: number): Promise<boolean> {
    let q = trx.selectFrom('group_relations').select('id').where('from_group_id', '=', from).where('to_group_id', '=', to).where('relation_type_id', '=', type);
    if (except !== undefined) q = q.where('id', '<>', except);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Adds the reverse edge of a type with a back relation, unless it is there already. */
  private async addBackEdge(actor: Actor, trx: Trx, from: number, to: number, type: RelationTypeRow, name: string, description: string): Promise<void> {
    if (type.back_relation_id === null) return;
    if (await this.exists(trx, to, from, type.back_relation_id)) return;
    await trx
      .insertInto('group_relations')
      .values({ ...rowStamp(actor), name, description, from_group_id: to, to_group_id: from, relation_type_id: type.back_relation_id })
      .execute();
  }

  async create(actor: Actor, input: RelationWrite) {
    const id = await withChange(this.lib, actor, 'create', 'relation', async () => {
      const row = await this.lib.db.transaction().execute(async (trx) => {
        const { from, to, type } = await this.check(trx, input.FromGroupId, input.ToGroupId, input.GroupRelationTypeId);
        if (await this.exists(trx, from.id, to.id, type.id)) throw conflict('these groups are already related by this relation type');
        const name = input.Name ?? '';
        const description = input.Description ?? '';
        const created = await trx
          .insertInto('group_relations')
          .values({ ...rowStamp(actor), name, description, from_group_id: from.id, to_group_id: to.id, relation_type_id: type.id })
          .returningAll()
          .executeTakeFirstOrThrow();
        await this.addBackEdge(actor, trx, from.id, to.id, type, name, description);
        return created;
      });
      return { id: row.id, name: row.name, after: row, result: row.id };
    });
    return this.read(id);
  }

  /**
   * Partial update. When the ends or the type change, the old reverse edge goes and the new
   * one is added, so a pair never points at a relation that no longer exists.
   */
  async update(actor: Actor, id: number, input: RelationWrite) {
    const before = await this.crud.require(id);
    await withChange(this.lib, actor, 'update', 'relation', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        const fromId = input.FromGroupId ?? before.from_group_id;
        const toId = input.ToGroupId ?? before.to_group_id;
        const typeId = input.GroupRelationTypeId ?? before.relation_type_id;
        const { type } = await this.check(trx, fromId, toId, typeId);
        const moved = fromId !== before.from_group_id || toId !== before.to_group_id || typeId !== before.relation_type_id;
        if (moved && (await this.exists(trx, fromId, toId, typeId, before.id))) throw conflict('these groups are already related by this relation type');
        const name = input.Name ?? before.name;
        const description = input.Description ?? before.description;
        if (moved) await this.removeBackEdge(trx, before);
        await trx
          .updateTable('group_relations')
          .set({ name, description, from_group_id: fromId, to_group_id: toId, relation_type_id: typeId, updated_at: nowIso() })
          .where('id', '=', before.id)
          .execute();
        if (moved) await this.addBackEdge(actor, trx, fromId, toId, type, name, description);
      });
      return { id, name: input.Name ?? before.name, before, result: undefined };
    });
    return this.read(id);
  }

  private async removeBackEdge(trx: Trx, row: RelationRow): Promise<void> {
    await sql`DELETE FROM group_relations WHERE from_group_id = ${row.to_group_id} AND to_group_id = ${row.from_group_id}
      AND relation_type_id = (SELECT back_relation_id FROM group_relation_types WHERE id = ${row.relation_type_id})`.execute(trx);
  }
}

/** Outgoing and incoming relations of one group, for its detail read (capped). */
export async function groupRelations(db: LibraryDb, groupId: number, limit: number) {
  const base = () =>
    db
      .selectFrom('group_relations as r')
      .innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id')
      .selectAll('r')
      .select(['t.name as type_name']);
  const [outgoing, incoming] = await Promise.all([
    base().innerJoin('groups as g', 'g.id', 'r.to_group_id').select(['g.name as other_name']).where('r.from_group_id', '=', groupId).orderBy('t.name').orderBy('g.name').limit(limit).execute(),
    base().innerJoin('groups as g', 'g.id', 'r.from_group_id').select(['g.name as other_name']).where('r.to_group_id', '=', groupId).orderBy('t.name').orderBy('g.name').limit(limit).execute(),
  ]);
  const typeStub = (r: RelationRow & { type_name: string }) => ({ ID: r.relation_type_id, Name: r.type_name });
  return {
    Relationships: outgoing.map((r) => ({ ...relationRecord(r, { to: { ID: r.to_group_id, Name: r.other_name } }), RelationType: typeStub(r) })),
    BackRelations: incoming.map((r) => ({ ...relationRecord(r, { from: { ID: r.from_group_id, Name: r.other_name } }), RelationType: typeStub(r) })),
  };
}
