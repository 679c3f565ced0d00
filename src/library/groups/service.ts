// Group rules: create and partial update, re-parenting without cycles, the truncated single
// read, delete guarded by user scopes, clone and merge, and the bulk operations.
//
// Checks that read through other features' services run before a transaction opens: on SQLite
// the one connection belongs to the transaction until it ends.
import type { RawBuilder, SqlBool } from 'kysely';
import type { Tx } from '../../core/db/repository.js';
import { parseJson } from '../../core/db/values.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { OUTSIDE_SCOPE, SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import type { CarrierService } from '../categories/service.js';
import { changedText, newRowStamp, withChange, type ChangeData } from '../common/changes.js';
import type { TimeBucket } from '../common/named.repository.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { RelationService } from '../relations/service.js';
import type { Database } from '../schema/database.js';
import { tagRecord, type TagService } from '../tags/service.js';
import type { GroupCopyRepository } from './copy.repository.js';
import type { GroupListQuery } from './filters.js';
import { categoryStub, groupRecord, listedGroup } from './records.js';
import type { GroupFilter, GroupRepository, GroupRow, TreeChild } from './repository.js';

export type { GroupRow, TreeChild };

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

export interface GroupDeps extends NamedDeps {
  tags: TagService;
  categories: CarrierService;
  relations: RelationService;
  /** The list's MRQL filter predicate over `"groups"` (null when blank; 400 when invalid). */
  mrqlFilter(text: string | undefined): RawBuilder<SqlBool> | null;
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

const resourceStub = (r: { id: number; name: string; content_type: string; file_size: number | string; created_at: string }) => ({
  ID: r.id,
  Name: r.name,
  ContentType: r.content_type,
  FileSize: Number(r.file_size),
  CreatedAt: r.created_at,
});
const noteStub = (r: { id: number; name: string; description: string; created_at: string }) => ({ ID: r.id, Name: r.name, Description: r.description, CreatedAt: r.created_at });

export class GroupService {
  readonly named: NamedEntities<'groups', GroupFilter, [vis: Visibility]>;

  constructor(
    private readonly repo: GroupRepository,
    private readonly copies: GroupCopyRepository,
    private readonly deps: GroupDeps,
  ) {
    this.named = new NamedEntities<'groups', GroupFilter, [vis: Visibility]>(repo, { entityType: 'group', label: 'group', uniqueName: false }, deps);
  }

  /** The filter with its MRQL expression compiled. */
  private filter(f: GroupListQuery): GroupFilter {
    return { ...f, mrqlWhere: this.deps.mrqlFilter(f.MRQL) };
  }

  /** One page of the list with Tags and Category preloaded (two extra statements per page). */
  async list(vis: Visibility, f: GroupListQuery, perPage?: number) {
    const { rows, page, perPage: size } = await this.named.list(this.filter(f), perPage, vis);
    return { rows: await this.present(rows), page, perPage: size };
  }

  /** Created and updated counts per bucket over the list's filters. */
  timeline(vis: Visibility, f: GroupListQuery, buckets: readonly TimeBucket[]) {
    return this.repo.timeline(this.filter(f), buckets, vis);
  }

  /** Ids matching a filter, for mass edit (bounded by the caller), inside its transaction. */
  matchingIds(vis: Visibility, f: GroupListQuery, limit: number, tx?: Tx<Database>): Promise<number[]> {
    return (tx ? this.repo.in(tx) : this.repo).matchingIds(this.filter(f), limit, vis);
  }

  private async present(rows: GroupRow[]) {
    const [tags, cats] = await Promise.all([
      this.deps.tags.tagsOf('group', rows.map((r) => r.id)),
      this.deps.categories.byIds(rows.map((r) => r.category_id)),
    ]);
    return rows.map((r) => listedGroup(r, tags.get(r.id) ?? [], r.category_id === null ? null : categoryStub(cats.get(r.category_id))));
  }

  /** The single-group read: owned and related resources truncated to 5, other collections to 50. */
  async read(vis: Visibility, id: number | undefined) {
    const row = await this.named.require(id, vis);
    const [tags, category, owner, ownGroups, relatedGroups, ownResources, relatedResources, ownNotes, relatedNotes, relations] = await Promise.all([
      this.deps.tags.tagsOf('group', [row.id]),
      row.category_id === null ? undefined : this.deps.categories.find(row.category_id),
      row.owner_id === null ? undefined : this.repo.find(row.owner_id, vis),
      this.repo.children(row.id, COLLECTION_LIMIT, vis),
      this.repo.relatedGroups(row.id, COLLECTION_LIMIT, vis),
      this.repo.resourceStubs({ ownerId: row.id }, OWN_RESOURCE_LIMIT, vis),
      this.repo.resourceStubs({ relatedTo: row.id }, OWN_RESOURCE_LIMIT, vis),
      this.repo.noteStubs({ ownerId: row.id }, COLLECTION_LIMIT, vis),
      this.repo.noteStubs({ relatedTo: row.id }, COLLECTION_LIMIT, vis),
      this.deps.relations.ofGroup(vis, row.id, COLLECTION_LIMIT),
    ]);
    return {
      ...groupRecord(row),
      Tags: (tags.get(row.id) ?? []).map(tagRecord),
      Category: categoryStub(category),
      Owner: owner ? groupRecord(owner) : null,
      OwnGroups: ownGroups.map(groupRecord),
      RelatedGroups: relatedGroups.map(groupRecord),
      OwnResources: ownResources.map(resourceStub),
      RelatedResources: relatedResources.map(resourceStub),
      OwnNotes: ownNotes.map(noteStub),
      RelatedNotes: relatedNotes.map(noteStub),
      ...relations,
    };
  }

  /** The group's ancestors and itself; a confined caller's chain starts at its scope group. */
  async parents(vis: Visibility, id: number | undefined) {
    const row = await this.named.require(id, vis);
    const chain = await this.repo.ancestors(row.id);
    const visible = new Set(await this.repo.visibleAmong(chain.map((g) => g.id), vis));
    return chain.filter((g) => visible.has(g.id)).map(groupRecord);
  }

  /** One page of a parent's children (0 = root groups) with their child counts. */
  async treeChildren(vis: Visibility, parentId: number, limit: number): Promise<TreeChild[]> {
    const rows = await this.repo.treeChildren(parentId, limit, vis);
    return rows.map((row) => Object.assign(row, { childCount: Number(row.childCount), categoryName: row.categoryName ?? null }));
  }

  /**
   * The new parent must exist and be visible; a confined caller must name one (a top-level
   * group is outside every subtree) — 403, as the contract has for clearing an owner.
   */
  private async checkOwner(vis: Visibility, groupId: number | null, ownerId: number | null | undefined): Promise<void> {
    if (ownerId === null || ownerId === undefined) {
      if (vis.kind === 'subtree') throw forbidden(`a group-limited account cannot place a group at the top level: choose a parent ${OUTSIDE_SCOPE.replace('outside', 'inside')}`);
      return;
    }
    if (!(await this.repo.find(ownerId, SEE_ALL))) throw notFound(`owner group ${ownerId} not found`);
    if (!(await this.repo.find(ownerId, vis))) throw forbidden(`owner group ${ownerId} is ${OUTSIDE_SCOPE}`);
    if (groupId !== null && (await this.repo.wouldCreateCycle(groupId, ownerId))) {
      throw conflict(groupId === ownerId ? 'a group cannot own itself' : 'this owner would create an ownership cycle');
    }
  }

  private async checkCategory(categoryId: number | null | undefined): Promise<void> {
    if (categoryId === null || categoryId === undefined) return;
    if (!(await this.deps.categories.find(categoryId))) throw notFound(`category ${categoryId} not found`);
  }

  /** The links a write sets, checked: every id must exist; a group does not relate to itself. */
  private async checkLinks(vis: Visibility, groupId: number | null, tags: number[] | undefined, related: number[] | undefined) {
    const tagIds = tags === undefined ? undefined : [...new Set(tags)];
    if (tagIds?.length) await this.deps.tags.named.requireAll(tagIds);
    const relatedIds = related === undefined ? undefined : [...new Set(related)].filter((g) => g !== groupId);
    if (relatedIds?.length) await this.named.requireAll(relatedIds, vis);
    return { tagIds, relatedIds };
  }

  private async setLinks(groups: GroupRepository, groupId: number, links: { tagIds?: number[]; relatedIds?: number[] }): Promise<void> {
    if (links.tagIds !== undefined) await groups.setTags(groupId, links.tagIds);
    if (links.relatedIds !== undefined) await groups.setRelatedGroups(groupId, links.relatedIds.filter((g) => g !== groupId));
  }

  async create(actor: Actor, input: GroupWrite) {
    const name = validName(input.Name);
    const meta = jsonObjectText(input.Meta, 'Meta');
    const url = normaliseUrl(input.URL);
    // 0 means none, as forms send it.
    const categoryId = input.CategoryId || null;
    const ownerId = input.OwnerId || null;
    const vis = visibilityOf(actor.principal);
    await this.checkCategory(categoryId);
    await this.checkOwner(vis, null, ownerId);
    await this.deps.categories.checkEntityMeta(categoryId, JSON.parse(meta) as Record<string, unknown>);
    const links = await this.checkLinks(vis, null, input.Tags, input.Groups);
    const data: ChangeData = { id: 0, name, description: input.Description ?? '', meta };
    const id = await withChange(this.deps.bus, actor, 'create', 'group', async () => {
      const finalName = validName(changedText(data, 'name', name));
      const finalMeta = data.meta === meta ? meta : jsonObjectText(changedText(data, 'meta', meta) || '{}', 'Meta');
      const newId = await this.deps.transactor.run(async (tx) => {
        const groups = this.repo.in(tx);
        const created = await groups.insert({ ...newRowStamp(actor), name: finalName, description: changedText(data, 'description', ''), url, meta: finalMeta, owner_id: ownerId, category_id: categoryId });
        await this.setLinks(groups, created, links);
        return created;
      });
      return { id: newId, name: finalName, result: newId };
    }, { data });
    return this.read(vis, id);
  }

  /** Partial update: omitted fields and absent arrays keep their values; explicit empties clear. */
  async update(actor: Actor, id: number, input: GroupWrite) {
    const vis = visibilityOf(actor.principal);
    const before = await this.named.require(id, vis);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const meta = input.Meta === undefined ? before.meta : jsonObjectText(input.Meta, 'Meta');
    const categoryId = input.CategoryId === undefined ? before.category_id : input.CategoryId || null;
    const ownerId = input.OwnerId === undefined ? before.owner_id : input.OwnerId || null;
    await this.checkCategory(categoryId);
    if (ownerId !== before.owner_id) await this.checkOwner(vis, id, ownerId);
    if (input.Meta !== undefined || categoryId !== before.category_id) {
      await this.deps.categories.checkEntityMeta(categoryId, JSON.parse(meta) as Record<string, unknown>);
    }
    const url = input.URL === undefined ? before.url : normaliseUrl(input.URL);
    const links = await this.checkLinks(vis, id, input.Tags, input.Groups);
    const data: ChangeData = { id, name, description: input.Description ?? before.description, meta };
    await withChange(this.deps.bus, actor, 'update', 'group', async () => {
      const finalName = validName(changedText(data, 'name', name));
      const finalMeta = data.meta === meta ? meta : jsonObjectText(changedText(data, 'meta', meta) || '{}', 'Meta');
      await this.deps.transactor.run(async (tx) => {
        const groups = this.repo.in(tx);
        await groups.update(id, { name: finalName, description: changedText(data, 'description', before.description), url, meta: finalMeta, owner_id: ownerId, category_id: categoryId }, vis);
        await this.setLinks(groups, id, links);
      });
      return { id, name: finalName, before, result: undefined };
    }, { data });
    return this.read(vis, id);
  }

  private async refuseScopeGroups(ids: number[]): Promise<void> {
    if (await this.repo.isUserScope(ids)) throw conflict(SCOPE_GROUP_MESSAGE);
  }

  async delete(actor: Actor, id: number | undefined): Promise<GroupRow> {
    const row = await this.named.require(id, visibilityOf(actor.principal));
    await this.refuseScopeGroups([row.id]);
    return this.named.delete(actor, row.id);
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest('ID must list at least one group');
    const vis = visibilityOf(actor.principal);
    await this.named.requireAll(unique, vis);
    await this.refuseScopeGroups(unique);
    await withChange(this.deps.bus, actor, 'delete', 'group', async () => {
      await this.repo.remove(unique, vis);
      return { message: `Deleted ${unique.length} groups (${unique.join(', ')})`, result: undefined };
    }, { ids: unique });
  }

  /** Copies the group with its associations and duplicates its relations in both directions. */
  async clone(actor: Actor, id: number | undefined) {
    const vis = visibilityOf(actor.principal);
    const source = await this.named.require(id, vis);
    // A clone sits beside its source; a confined caller cannot clone its own scope root upward.
    await this.checkOwner(vis, source.id, source.owner_id);
    const newId = await withChange(this.deps.bus, actor, 'create', 'group', async () => {
      const cloneId = await this.deps.transactor.run(async (tx) => {
        const stamp = newRowStamp(actor);
        const created = await this.repo.in(tx).insert({
          ...stamp,
          name: source.name,
          description: source.description,
          url: source.url,
          meta: source.meta,
          owner_id: source.owner_id,
          category_id: source.category_id,
        });
        const copies = this.copies.in(tx);
        await copies.copyLinks(source.id, created);
        await copies.copyRelations(source.id, created, stamp.created_at);
        return created;
      });
      return { id: cloneId, name: source.name, message: `Cloned group "${source.name}" (${source.id}) as ${cloneId}`, result: cloneId };
    });
    return this.read(vis, newId);
  }

  /** Moves every relationship of the losers to the winner, then deletes the losers. */
  async merge(actor: Actor, winnerId: number, loserIds: number[]): Promise<void> {
    const losers = [...new Set(loserIds)];
    if (losers.length === 0) throw badRequest('Losers must list at least one group');
    if (losers.includes(winnerId)) throw badRequest('the winner cannot also be a loser');
    const vis = visibilityOf(actor.principal);
    const winner = await this.named.require(winnerId, vis);
    await this.named.requireAll(losers, vis);
    await this.refuseScopeGroups(losers);
    const ancestors = (await this.repo.ancestors(winner.id)).map((g) => g.id);
    if (losers.some((l) => ancestors.includes(l))) throw conflict('cannot merge an ancestor into one of its descendants');
    await withChange(this.deps.bus, actor, 'update', 'group', async () => {
      await this.deps.transactor.run(async (tx) => {
        const groups = this.repo.in(tx);
        await this.copies.in(tx).moveRelationships(winner.id, losers);
        // The winner's own meta wins over the losers'; among losers, higher ids win.
        const loserMeta = (await groups.metas(losers)).map((m) => parseJson<Record<string, unknown>>(m, {}));
        const meta = Object.assign({}, ...loserMeta, parseJson<Record<string, unknown>>(winner.meta, {})) as Record<string, unknown>;
        await groups.remove(losers, vis);
        await groups.update(winner.id, { meta: JSON.stringify(meta) }, vis);
      });
      return { id: winner.id, name: winner.name, message: `Merged groups ${losers.join(', ')} into "${winner.name}"`, result: undefined };
    });
  }

  /**
   * Mass edit's owner op: every selected group gets the same parent, so a cycle exists exactly
   * when one of them is that parent or one of its ancestors (409). Runs in the edit's transaction.
   */
  async checkNewOwner(tx: Tx<Database>, ids: number[], ownerId: number | null): Promise<void> {
    if (ownerId === null) return;
    const selected = new Set(ids);
    const chain = await this.repo.in(tx).ancestors(ownerId);
    const hit = chain.find((g) => selected.has(g.id));
    if (hit) throw conflict(hit.id === ownerId ? `group ${ownerId} cannot own itself` : `making group ${ownerId} the owner would create an ownership cycle through group ${hit.id}`);
  }
}
