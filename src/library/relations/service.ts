// Relation rules (contract: Relation types and relations): no self relations, both groups and
// the type need categories, the groups' categories must fit the type's, and a type with a back
// relation gets its reverse edge in the same transaction. The rules read (through the category
// service too) before the transaction opens: on SQLite the one connection belongs to the
// transaction until it ends.
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { visibilityOf, type Visibility } from '../auth/visibility.js';
import type { CommonListInput } from '../common/list.js';
import type { CarrierService } from '../categories/service.js';
import { rowStamp, withChange } from '../common/changes.js';
import { pageOf } from '../common/list.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { relationRecord } from './records.js';
import type { Endpoint, RelationFilters, RelationRepository, RelationRow, RelationTypeRepository, RelationTypeRow } from './repository.js';

export type { RelationFilters };

export interface RelationWrite {
  Id?: number;
  FromGroupId?: number;
  ToGroupId?: number;
  GroupRelationTypeId?: number;
  Name?: string;
  Description?: string;
}

export class RelationService {
  readonly named: NamedEntities<'group_relations', CommonListInput, [vis: Visibility]>;

  constructor(
    private readonly relations: RelationRepository,
    private readonly types: RelationTypeRepository,
    private readonly categories: CarrierService,
    private readonly deps: NamedDeps,
  ) {
    this.named = new NamedEntities<'group_relations', CommonListInput, [vis: Visibility]>(relations, { entityType: 'relation', label: 'relation', uniqueName: false }, deps);
  }

  /** Relations with their ends and type loaded, in one statement per page. */
  async list(vis: Visibility, f: RelationFilters, perPage?: number) {
    const { page, perPage: size, offset } = pageOf(f.page, perPage);
    const rows = await this.relations.listPage(f, size, offset, vis);
    return {
      rows: rows.map((r) => ({
        ...relationRecord(r, { from: { ID: r.from_group_id, Name: r.from_name }, to: { ID: r.to_group_id, Name: r.to_name } }),
        RelationTypeName: r.type_name,
      })),
      page,
      perPage: size,
    };
  }

  async read(vis: Visibility, id: number | undefined) {
    const row = await this.named.require(id, vis);
    const [groups, type] = await Promise.all([this.relations.groupNames([row.from_group_id, row.to_group_id]), this.types.find(row.relation_type_id)]);
    const stub = (gid: number) => {
      const g = groups.find((x) => x.id === gid);
      return g ? { ID: g.id, Name: g.name } : null;
    };
    return relationRecord(row, { from: stub(row.from_group_id), to: stub(row.to_group_id), type: type ?? null });
  }

  /** Outgoing and incoming relations of one group, for its detail read (capped). */
  async ofGroup(vis: Visibility, groupId: number, limit: number) {
    const [outgoing, incoming] = await Promise.all([this.relations.ofGroup(groupId, 'from', limit, vis), this.relations.ofGroup(groupId, 'to', limit, vis)]);
    const typeStub = (r: RelationRow & { type_name: string }) => ({ ID: r.relation_type_id, Name: r.type_name });
    return {
      Relationships: outgoing.map((r) => ({ ...relationRecord(r, { to: { ID: r.to_group_id, Name: r.other_name } }), RelationType: typeStub(r) })),
      BackRelations: incoming.map((r) => ({ ...relationRecord(r, { from: { ID: r.from_group_id, Name: r.other_name } }), RelationType: typeStub(r) })),
    };
  }

  private async endpoint(relations: RelationRepository, id: number | undefined, field: string): Promise<Endpoint> {
    if (id === undefined) throw badRequest(`${field} is required`);
    const g = await relations.endpoint(id);
    if (!g) throw notFound(`${field}: group ${id} not found`);
    return g;
  }

  /** The four rules; returns the type for the back edge. */
  private async check(fromId: number | undefined, toId: number | undefined, typeId: number | undefined): Promise<{ from: Endpoint; to: Endpoint; type: RelationTypeRow }> {
    if (fromId !== undefined && fromId === toId) throw badRequest('cannot relate to self');
    const from = await this.endpoint(this.relations, fromId, 'FromGroupId');
    const to = await this.endpoint(this.relations, toId, 'ToGroupId');
    if (typeId === undefined) throw badRequest('GroupRelationTypeId is required');
    const type = await this.types.find(typeId);
    if (!type) throw notFound(`relation type ${typeId} not found`);
    if (from.category_id === null || to.category_id === null || type.from_category_id === null || type.to_category_id === null) {
      throw badRequest('both groups and the relation type must have a category');
    }
    if (from.category_id !== type.from_category_id || to.category_id !== type.to_category_id) {
      const names = await this.categories.byIds([type.from_category_id, type.to_category_id]);
      const cat = (id: number) => names.get(id)?.name ?? String(id);
      throw badRequest(
        `relation type "${type.name}" relates ${cat(type.from_category_id)} to ${cat(type.to_category_id)}, ` +
          `but from group "${from.name}" is a ${from.category} and to group "${to.name}" is a ${to.category}`,
      );
    }
    return { from, to, type };
  }

  /** Adds the reverse edge of a type with a back relation, unless it is there already. */
  private async addBackEdge(actor: Actor, relations: RelationRepository, from: number, to: number, type: RelationTypeRow, name: string, description: string): Promise<void> {
    if (type.back_relation_id === null) return;
    if (await relations.exists(to, from, type.back_relation_id)) return;
    await relations.insert({ ...rowStamp(actor), name, description, from_group_id: to, to_group_id: from, relation_type_id: type.back_relation_id });
  }

  async create(actor: Actor, input: RelationWrite) {
    const { from, to, type } = await this.check(input.FromGroupId, input.ToGroupId, input.GroupRelationTypeId);
    const id = await withChange(this.deps.bus, actor, 'create', 'relation', async () => {
      const row = await this.deps.transactor.run(async (tx) => {
        const relations = this.relations.in(tx);
        if (await relations.exists(from.id, to.id, type.id)) throw conflict('these groups are already related by this relation type');
        const name = input.Name ?? '';
        const description = input.Description ?? '';
        const created = await relations.insert({ ...rowStamp(actor), name, description, from_group_id: from.id, to_group_id: to.id, relation_type_id: type.id });
        await this.addBackEdge(actor, relations, from.id, to.id, type, name, description);
        return created;
      });
      return { id: row.id, name: row.name, after: row, result: row.id };
    });
    return this.read(visibilityOf(actor.principal), id);
  }

  /**
   * Partial update. When the ends or the type change, the old reverse edge goes and the new
   * one is added, so a pair never points at a relation that no longer exists.
   */
  async update(actor: Actor, id: number, input: RelationWrite) {
    const vis = visibilityOf(actor.principal);
    const before = await this.named.require(id, vis);
    const fromId = input.FromGroupId ?? before.from_group_id;
    const toId = input.ToGroupId ?? before.to_group_id;
    const typeId = input.GroupRelationTypeId ?? before.relation_type_id;
    const { type } = await this.check(fromId, toId, typeId);
    await withChange(this.deps.bus, actor, 'update', 'relation', async () => {
      await this.deps.transactor.run(async (tx) => {
        const relations = this.relations.in(tx);
        const moved = fromId !== before.from_group_id || toId !== before.to_group_id || typeId !== before.relation_type_id;
        if (moved && (await relations.exists(fromId, toId, typeId, before.id))) throw conflict('these groups are already related by this relation type');
        const name = input.Name ?? before.name;
        const description = input.Description ?? before.description;
        if (moved) await relations.removeBackEdge(before);
        await relations.update(before.id, { name, description, from_group_id: fromId, to_group_id: toId, relation_type_id: typeId }, vis);
        if (moved) await this.addBackEdge(actor, relations, fromId, toId, type, name, description);
      });
      return { id, name: input.Name ?? before.name, before, result: undefined };
    });
    return this.read(vis, id);
  }
}
