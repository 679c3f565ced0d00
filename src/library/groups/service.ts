// Group rules: create and partial update, re-parenting without cycles, the truncated single
// read, delete guarded by user scopes, clone and merge, and the bulk operations.
import { sql, type Transaction } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, newRowStamp, withChange } from '../common/crud.js';
import { pageOf, sortTerms, applySort } from '../common/list.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { Database } from '../schema/database.js';
import { GROUP_SORT, applyGroupFilters, type GroupListQuery } from './filters.js';
import { mrqlListFilter } from '../mrql/filter.js';
import { ancestorsOf, wouldCreateCycle } from './hierarchy.js';
import { categoriesById, noteStubs, resourceStubs, tagsByGroup } from './loaders.js';
import { categoryStub, groupRecord, listedGroup, type GroupRow } from './records.js';
import { tagRecord } from '../tags/service.js';
import { checkCarrierMeta } from '../common/content.js';
import { GROUP_CARRIER } from './content.js';
import { groupRelations } from '../relations/service.js';

type Trx = Transaction<Database>;

export const SCOPE_GROUP_MESSAGE = "group is assigned as a user scope; reassign or clear that user's scope first";
const OWN_RESOURCE_LIMIT = 5;
const COLLECTION_LIMIT = 50;

export interface GroupWrite {
  ID?: number;
  Name?: string;
  Description?: string;
  CategoryId?: number;
  OwnerId?: number;
  Groups?: number[];
  Tags?: number[];
  Meta?: string;
  URL?: string;
}

/** Lenient URL check (companion §12.11): relative values pass, only unparsable text fails. */
function normaliseUrl(raw: string | undefined): string | null {
  const text = (raw ?? '').trim();
  if (text === '') return null;
  try {
    return new URL(text, 'http://relative.invalid').href.startsWith('http://relative.invalid') ? text : new URL(text).href;
  } catch {
    throw badRequest(`URL "${text}" is not a valid URL`);
  }
}

async function requireAll(trx: Trx, table: 'tags' | 'groups', ids: number[], label: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await trx.selectFrom(table).select('id').where('id', 'in', ids).execute();
  if (found.length !== ids.length) {
    const have = new Set(found.map((r) => r.id));
    throw notFound(`${label} ${ids.find((i) => !have.has(i))} not found`);
  }
}

export class GroupService {
  readonly crud: Crud<'groups'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, { table: 'groups', entityType: 'group', label: 'group', sort: GROUP_SORT });
  }

  /** One page of the list with Tags and Category preloaded (two extra statements per page). */
  async list(f: GroupListQuery, perPage?: number) {
    const { page, perPage: size, offset } = pageOf(f.page, perPage);
    const terms = sortTerms(this.lib.dialect, 'groups', f.SortBy, GROUP_SORT);
    const rows = await applySort(this.filtered(f).selectAll('groups'), terms)
      .limit(size)
      .offset(offset)
      .execute();
    return { rows: await this.present(rows), page, perPage: size };
  }

  /** The list's filtered query, before select, sort and paging. */
  filtered(f: GroupListQuery) {
    return applyGroupFilters(this.lib.db.selectFrom('groups'), this.lib.dialect, f, mrqlListFilter(this.lib, 'group', f.MRQL, '"groups"'));
  }

  async count(f: GroupListQuery): Promise<number> {
    const r = await this.filtered(f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Ids matching a filter, for mass edit (bounded by the caller). */
  async matchingIds(f: GroupListQuery, limit: number, db = this.lib.db): Promise<number[]> {
    const mrql = mrqlListFilter(this.lib, 'group', f.MRQL, '"groups"');
    const rows = await applyGroupFilters(db.selectFrom('groups'), this.lib.dialect, f, mrql).select('groups.id').orderBy('groups.id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async present(rows: GroupRow[]) {
    const ids = rows.map((r) => r.id);
    const [tags, cats] = await Promise.all([tagsByGroup(this.lib.db, ids), categoriesById(this.lib.db, rows.map((r) => r.category_id))]);
    return rows.map((r) => listedGroup(r, tags.get(r.id) ?? [], r.category_id === null ? null : (cats.get(r.category_id) ?? null)));
  }

  /** The single-group read: owned and related resources truncated to 5, other collections to 50. */
  async read(id: number | undefined) {
    const row = await this.crud.require(id);
    const db = this.lib.db;
    const [tags, category, owner, ownGroups, relatedGroups, ownResources, relatedResources, ownNotes, relatedNotes, relations] = await Promise.all([
      tagsByGroup(db, [row.id]),
      row.category_id === null ? null : db.selectFrom('categories').select(['id', 'name', 'description']).where('id', '=', row.category_id).executeTakeFirst(),
      row.owner_id === null ? undefined : db.selectFrom('groups').selectAll().where('id', '=', row.owner_id).executeTakeFirst(),
      db.selectFrom('groups').selectAll().where('owner_id', '=', row.id).orderBy('name').limit(COLLECTION_LIMIT).execute(),
      db
        .selectFrom('group_related_groups as rg')
        .innerJoin('groups', 'groups.id', 'rg.related_group_id')
        .selectAll('groups')
        .where('rg.group_id', '=', row.id)
        .orderBy('groups.name')
        .limit(COLLECTION_LIMIT)
        .execute(),
      resourceStubs(db, { ownerId: row.id }, OWN_RESOURCE_LIMIT),
      resourceStubs(db, { relatedTo: row.id }, OWN_RESOURCE_LIMIT),
      noteStubs(db, { ownerId: row.id }, COLLECTION_LIMIT),
      noteStubs(db, { relatedTo: row.id }, COLLECTION_LIMIT),
      groupRelations(db, row.id, COLLECTION_LIMIT),
    ]);
    return {
      ...groupRecord(row),
      Tags: (tags.get(row.id) ?? []).map(tagRecord),
      Category: categoryStub(category),
      Owner: owner ? groupRecord(owner) : null,
      OwnGroups: ownGroups.map(groupRecord),
      RelatedGroups: relatedGroups.map(groupRecord),
      OwnResources: ownResources,
      RelatedResources: relatedResources,
      OwnNotes: ownNotes,
      RelatedNotes: relatedNotes,
      ...relations,
    };
  }

  async parents(id: number | undefined) {
    const row = await this.crud.require(id);
    return (await ancestorsOf(this.lib.db, row.id)).map(groupRecord);
  }

  private async checkOwner(trx: Trx, groupId: number | null, ownerId: number | null | undefined): Promise<void> {
    if (ownerId === null || ownerId === undefined) return;
    const owner = await trx.selectFrom('groups').select('id').where('id', '=', ownerId).executeTakeFirst();
    if (!owner) throw notFound(`owner group ${ownerId} not found`);
    if (groupId !== null && (await wouldCreateCycle(trx, groupId, ownerId))) {
      throw conflict(groupId === ownerId ? 'a group cannot own itself' : 'this owner would create an ownership cycle');
    }
  }

  private async checkCategory(trx: Trx, categoryId: number | null | undefined): Promise<void> {
    if (categoryId === null || categoryId === undefined) return;
    const c = await trx.selectFrom('categories').select('id').where('id', '=', categoryId).executeTakeFirst();
    if (!c) throw notFound(`category ${categoryId} not found`);
  }

  private async setLinks(trx: Trx, groupId: number, tags: number[] | undefined, related: number[] | undefined): Promise<void> {
    if (tags !== undefined) {
      const unique = [...new Set(tags)];
      await requireAll(trx, 'tags', unique, 'tag');
      await trx.deleteFrom('group_tags').where('group_id', '=', groupId).execute();
      if (unique.length) await trx.insertInto('group_tags').values(unique.map((tag_id) => ({ group_id: groupId, tag_id }))).execute();
    }
    if (related !== undefined) {
      const unique = [...new Set(related)].filter((g) => g !== groupId);
      await requireAll(trx, 'groups', unique, 'group');
      await trx.deleteFrom('group_related_groups').where('group_id', '=', groupId).execute();
      if (unique.length) {
        await trx.insertInto('group_related_groups').values(unique.map((related_group_id) => ({ group_id: groupId, related_group_id }))).execute();
      }
    }
  }

  async create(actor: Actor, input: GroupWrite) {
    const name = validName(input.Name);
    const meta = jsonObjectText(input.Meta, 'Meta');
    const url = normaliseUrl(input.URL);
    // 0 means none, as forms send it.
    const categoryId = input.CategoryId || null;
    const ownerId = input.OwnerId || null;
    const id = await withChange(this.lib, actor, 'create', 'group', async () => {
      const newId = await this.lib.db.transaction().execute(async (trx) => {
        await this.checkCategory(trx, categoryId);
        await this.checkOwner(trx, null, ownerId);
        await checkCarrierMeta(trx, GROUP_CARRIER, categoryId, JSON.parse(meta));
        const row = await trx
          .insertInto('groups')
          .values({
            ...newRowStamp(actor),
            name,
            description: input.Description ?? '',
            url,
            meta,
            owner_id: ownerId,
            category_id: categoryId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.setLinks(trx, row.id, input.Tags, input.Groups);
        return row.id;
      });
      return { id: newId, name, result: newId };
    });
    return this.read(id);
  }

  /** Partial update: omitted fields and absent arrays keep their values; explicit empties clear. */
  async update(actor: Actor, id: number, input: GroupWrite) {
    const before = await this.crud.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    const categoryId = input.CategoryId === undefined ? before.category_id : input.CategoryId || null;
    const ownerId = input.OwnerId === undefined ? before.owner_id : input.OwnerId || null;
    await withChange(this.lib, actor, 'update', 'group', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await this.checkCategory(trx, categoryId);
        if (ownerId !== before.owner_id) await this.checkOwner(trx, id, ownerId);
        if (input.Meta !== undefined || categoryId !== before.category_id) await checkCarrierMeta(trx, GROUP_CARRIER, categoryId, JSON.parse(meta));
        await trx
          .updateTable('groups')
          .set({
            name,
            description: input.Description ?? before.description,
            url: input.URL === undefined ? before.url : normaliseUrl(input.URL),
            meta,
            owner_id: ownerId,
            category_id: categoryId,
            updated_at: nowIso(),
          })
          .where('id', '=', id)
          .execute();
        await this.setLinks(trx, id, input.Tags, input.Groups);
      });
      return { id, name, before, result: undefined };
    });
    return this.read(id);
  }

  private async refuseScopeGroups(trx: Trx | Library['db'], ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const user = await trx.selectFrom('users').select('id').where('scope_group_id', 'in', ids).limit(1).executeTakeFirst();
    if (user) throw conflict(SCOPE_GROUP_MESSAGE);
  }

  async delete(actor: Actor, id: number | undefined): Promise<GroupRow> {
    const row = await this.crud.require(id);
    await this.refuseScopeGroups(this.lib.db, [row.id]);
    return this.crud.delete(actor, row.id);
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest('ID must list at least one group');
    await withChange(this.lib, actor, 'delete', 'group', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await requireAll(trx, 'groups', unique, 'group');
        await this.refuseScopeGroups(trx, unique);
        await trx.deleteFrom('groups').where('id', 'in', unique).execute();
      });
      return { message: `Deleted ${unique.length} groups (${unique.join(', ')})`, result: undefined };
    });
  }

  /** Copies the group with its associations and duplicates its relations in both directions. */
  async clone(actor: Actor, id: number | undefined) {
    const source = await this.crud.require(id);
    const newId = await withChange(this.lib, actor, 'create', 'group', async () => {
      const cloneId = await this.lib.db.transaction().execute(async (trx) => {
        const stamp = newRowStamp(actor);
        const now = stamp.created_at;
        const { id: created } = await trx
          .insertInto('groups')
          .values({
            ...stamp,
            name: source.name,
            description: source.description,
            url: source.url,
            meta: source.meta,
            owner_id: source.owner_id,
            category_id: source.category_id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const c = sql`CAST(${created} AS integer)`;
        await sql`INSERT INTO group_tags (group_id, tag_id) SELECT ${c}, tag_id FROM group_tags WHERE group_id = ${source.id}`.execute(trx);
        await sql`INSERT INTO groups_related_resources (group_id, resource_id) SELECT ${c}, resource_id FROM groups_related_resources WHERE group_id = ${source.id}`.execute(trx);
        await sql`INSERT INTO groups_related_notes (group_id, note_id) SELECT ${c}, note_id FROM groups_related_notes WHERE group_id = ${source.id}`.execute(trx);
        await sql`INSERT INTO group_related_groups (group_id, related_group_id) SELECT ${c}, related_group_id FROM group_related_groups WHERE group_id = ${source.id}`.execute(trx);
        const ts = sql`CAST(${now} AS ${sql.raw(this.lib.dialect.kind === 'sqlite' ? 'text' : 'timestamptz')})`;
        await sql`INSERT INTO group_relations (created_at, updated_at, created_by_user_id, name, description, from_group_id, to_group_id, relation_type_id)
          SELECT ${ts}, ${ts}, created_by_user_id, name, description, ${c}, to_group_id, relation_type_id FROM group_relations WHERE from_group_id = ${source.id} AND to_group_id <> ${source.id}`.execute(trx);
        await sql`INSERT INTO group_relations (created_at, updated_at, created_by_user_id, name, description, from_group_id, to_group_id, relation_type_id)
          SELECT ${ts}, ${ts}, created_by_user_id, name, description, from_group_id, ${c}, relation_type_id FROM group_relations WHERE to_group_id = ${source.id} AND from_group_id <> ${source.id}`.execute(trx);
        return created;
      });
      return { id: cloneId, name: source.name, message: `Cloned group "${source.name}" (${source.id}) as ${cloneId}`, result: cloneId };
    });
    return this.read(newId);
  }

  /** Moves every relationship of the losers to the winner, then deletes the losers. */
  async merge(actor: Actor, winnerId: number, loserIds: number[]): Promise<void> {
    const losers = [...new Set(loserIds)];
    if (losers.length === 0) throw badRequest('Losers must list at least one group');
    if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
    const winner = await this.crud.require(winnerId);
    await withChange(this.lib, actor, 'update', 'group', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await requireAll(trx, 'groups', losers, 'group');
        await this.refuseScopeGroups(trx, losers);
        const ancestors = (await ancestorsOf(trx, winner.id)).map((g) => g.id);
        if (losers.some((l) => ancestors.includes(l))) throw conflict('cannot merge an ancestor into one of its descendants');
        await mergeInto(trx, winner.id, losers);
        const loserMeta = await trx.selectFrom('groups').select('meta').where('id', 'in', losers).orderBy('id').execute();
        const meta = Object.assign({}, ...loserMeta.map((m) => parseJson<Record<string, unknown>>(m.meta, {})), parseJson<Record<string, unknown>>(winner.meta, {}));
        await trx.deleteFrom('groups').where('id', 'in', losers).execute();
        await trx.updateTable('groups').set({ meta: JSON.stringify(meta), updated_at: nowIso() }).where('id', '=', winner.id).execute();
      });
      return { id: winner.id, name: winner.name, message: `Merged groups ${losers.join(', ')} into "${winner.name}"`, result: undefined };
    });
  }
}

/** Re-points every link of the losers at the winner, skipping links the winner already has. */
async function mergeInto(trx: Trx, winner: number, losers: number[]): Promise<void> {
  const w = sql`CAST(${winner} AS integer)`;
  const l = sql.join(losers);
  const copy = async (table: string, col: string) => {
    await sql`INSERT INTO ${sql.table(table)} (group_id, ${sql.ref(col)})
      SELECT DISTINCT ${w}, x.${sql.ref(col)} FROM ${sql.table(table)} x
      WHERE x.group_id IN (${l}) AND NOT EXISTS (SELECT 1 FROM ${sql.table(table)} y WHERE y.group_id = ${winner} AND y.${sql.ref(col)} = x.${sql.ref(col)})`.execute(trx);
  };
  await copy('group_tags', 'tag_id');
  await copy('groups_related_resources', 'resource_id');
  await copy('groups_related_notes', 'note_id');
  await copy('group_related_groups', 'related_group_id');
  await trx.deleteFrom('group_related_groups').where('group_id', '=', winner).where('related_group_id', 'in', [winner, ...losers]).execute();
  await sql`INSERT INTO group_related_groups (group_id, related_group_id)
    SELECT DISTINCT x.group_id, ${w} FROM group_related_groups x
    WHERE x.related_group_id IN (${l}) AND x.group_id <> ${winner} AND x.group_id NOT IN (${l})
      AND NOT EXISTS (SELECT 1 FROM group_related_groups y WHERE y.group_id = x.group_id AND y.related_group_id = ${winner})`.execute(trx);
  for (const table of ['groups', 'notes', 'resources'] as const) {
    await trx.updateTable(table).set({ owner_id: winner }).where('owner_id', 'in', losers).where('id', '<>', winner).execute();
  }
  // Relations: re-point both ends, dropping ones that would relate the winner to itself or duplicate.
  await sql`UPDATE group_relations SET from_group_id = ${winner}
    WHERE from_group_id IN (${l}) AND to_group_id <> ${winner} AND to_group_id NOT IN (${l})
      AND NOT EXISTS (SELECT 1 FROM group_relations d WHERE d.from_group_id = ${winner} AND d.to_group_id = group_relations.to_group_id AND d.relation_type_id = group_relations.relation_type_id)`.execute(trx);
  await sql`UPDATE group_relations SET to_group_id = ${winner}
    WHERE to_group_id IN (${l}) AND from_group_id <> ${winner} AND from_group_id NOT IN (${l})
      AND NOT EXISTS (SELECT 1 FROM group_relations d WHERE d.to_group_id = ${winner} AND d.from_group_id = group_relations.from_group_id AND d.relation_type_id = group_relations.relation_type_id)`.execute(trx);
}
