// Resource rules besides creation: reads and lists, edit, delete, the bulk operations and
// removal from a series (contract: Resources; companion §3, §11.2).
import type { Tx } from '../../core/db/repository.js';
import { parseJson } from '../../core/db/values.js';
import { badRequest } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import { changedText, withChange, type ChangeData } from '../common/changes.js';
import { pageOf } from '../common/list.js';
import { NamedEntities } from '../common/named.js';
import type { TimeBucket } from '../common/named.repository.js';
import { jsonObjectText, validName } from '../common/names.js';
import { mrqlListFilter } from '../mrql/filter.js';
import type { Database } from '../schema/database.js';
import type { ResourceContext } from './context.js';
import type { ResourceListQuery } from './filters.js';
import type { IngestService, ResourceWrite } from './ingest.js';
import { replaceLinks } from './links.js';
import type { ResourcePresenter } from './present.js';
import type { ResourceRecord, ResourceRow } from './records.js';
import type { ResourceRemoval } from './removal.js';
import type { ResourceFilter } from './repository.js';
import { editMemberMeta, joinSeries, resolveSeries, type MetaColumns } from './series-meta.js';
import type { ResourceStores } from './stores.js';

/** Hook data of a change that rewrites no text field (§16.3): the resource as stored. */
export function hookData(row: ResourceRow): ChangeData {
  return { id: row.id, name: row.name, description: row.description, meta: row.meta };
}

export interface ResourceServiceDeps {
  ctx: ResourceContext;
  stores: ResourceStores;
  ingest: IngestService;
  presenter: ResourcePresenter;
  removal: ResourceRemoval;
}

export class ResourceService {
  /** The shared rules of named rows: 404 for a missing id, every id of a bulk request must exist. */
  readonly named: NamedEntities<'resources', ResourceFilter, [vis: Visibility]>;

  constructor(private readonly deps: ResourceServiceDeps) {
    this.named = new NamedEntities<'resources', ResourceFilter, [vis: Visibility]>(deps.stores.resources, { entityType: 'resource', label: 'resource', uniqueName: false }, deps.ctx.lib);
  }

  private get ctx() {
    return this.deps.ctx;
  }

  private get repo() {
    return this.deps.stores.resources;
  }

  /** The list filters with the MRQL predicate and the similarity thresholds resolved. */
  filterOf(f: ResourceListQuery): ResourceFilter {
    return { ...f, mrql: mrqlListFilter(this.ctx.lib, 'resource', f.MRQL, 'resources'), thresholds: this.ctx.thresholds() };
  }

  async find(vis: Visibility, id: number): Promise<ResourceRow | undefined> {
    return this.repo.find(id, vis);
  }

  /** The row, or 404 when it does not exist or `vis` may not see it. */
  async require(vis: Visibility, id: number | undefined): Promise<ResourceRow> {
    return this.named.require(id, vis);
  }

  /** The single read with its notes, groups, versions and image hash. */
  async read(vis: Visibility, id: number | undefined): Promise<ResourceRecord> {
    return this.present(await this.require(vis, id), vis);
  }

  /** One stored row as the API shows it (everything the single read has, as `vis` sees it). */
  present(row: ResourceRow, vis: Visibility = SEE_ALL): Promise<ResourceRecord> {
    return this.deps.presenter.one(row, vis);
  }

  /** Stored rows as a list shows them (Tags, Owner, resourceCategory, series). */
  presentPage(rows: readonly ResourceRow[]): Promise<ResourceRecord[]> {
    return this.deps.presenter.page(rows);
  }

  /** One page; MaxResults overrides the page size (contract, general conventions 6). */
  async list(vis: Visibility, f: ResourceListQuery) {
    const { page, perPage, offset } = pageOf(f.page, f.MaxResults && f.MaxResults > 0 ? Math.min(f.MaxResults, 10_000) : undefined);
    const rows = await this.repo.page(this.filterOf(f), perPage, offset, vis);
    return { rows: await this.presentPage(rows), page, perPage };
  }

  async count(vis: Visibility, f: ResourceListQuery): Promise<number> {
    return this.repo.count(this.filterOf(f), vis);
  }

  /** Created and updated counts of the filtered list per time bucket. */
  timeline(vis: Visibility, f: ResourceListQuery, buckets: readonly TimeBucket[]) {
    return this.repo.timeline(this.filterOf(f), buckets, vis);
  }

  /** Ids matching the filters, at most `limit` (for view-by-filter and mass edit). */
  async matchingIds(vis: Visibility, f: ResourceListQuery, limit: number): Promise<number[]> {
    return this.repo.matchingIds(this.filterOf(f), limit, vis);
  }

  /** Resource categories as form options, by name. */
  categoryOptions(): Promise<{ id: number; name: string }[]> {
    return this.deps.stores.refs.categoryOptions();
  }

  /** The number of version `versionId` (compare links name versions by number). */
  async versionNumber(versionId: number | null): Promise<number | undefined> {
    if (versionId === null) return undefined;
    return (await this.deps.stores.versions.find(versionId))?.version_number;
  }

  /** Partial update: absent fields keep their values; given lists and Meta replace. */
  async edit(actor: Actor, id: number | undefined, input: ResourceWrite): Promise<ResourceRecord> {
    const vis = visibilityOf(actor.principal);
    const before = await this.require(vis, id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const metaGiven = input.Meta !== undefined;
    const submittedMeta = metaGiven ? jsonObjectText(input.Meta, 'Meta') : before.meta;
    // What before-hooks see and may rewrite (library-plugins.md §16.3).
    const data: ChangeData = { id: before.id, name, description: input.Description ?? before.description, meta: input.Meta ?? '' };
    await withChange(this.ctx.lib.bus, actor, 'update', 'resource', async () => {
      const finalName = changedText(data, 'name', name) === name ? name : validName(changedText(data, 'name', name));
      const hookedMeta = data.meta !== (input.Meta ?? '');
      const meta = parseJson<Record<string, unknown>>(hookedMeta ? jsonObjectText(changedText(data, 'meta', '') || '{}', 'Meta') : submittedMeta, {});
      const metaChanged = metaGiven || hookedMeta;
      await this.ctx.lib.transactor.run(async (trx) => {
        const stores = this.deps.stores.in(trx);
        await this.deps.ingest.checkRefs(trx, input, vis, 'edit');
        const categoryId = input.ResourceCategoryId || before.resource_category_id;
        const seriesChange = await resolveSeries(stores.series, actor, input);
        const seriesId = seriesChange === undefined ? before.series_id : seriesChange;
        let metaCols: MetaColumns;
        if (seriesId === null) metaCols = { meta: JSON.stringify(meta), own_meta: '{}' };
        else if (seriesId !== before.series_id) metaCols = await joinSeries(stores.series, seriesId, meta);
        else if (metaChanged) metaCols = await editMemberMeta(stores.series, seriesId, meta);
        else metaCols = { meta: before.meta, own_meta: before.own_meta };
        await this.deps.ingest.checkCategoryMeta(trx, categoryId, parseJson(metaCols.meta, {}));
        await stores.resources.update(before.id, {
          name: finalName,
          description: changedText(data, 'description', before.description),
          owner_id: input.OwnerId === undefined ? before.owner_id : input.OwnerId || null,
          width: input.Width ?? before.width,
          height: input.Height ?? before.height,
          resource_category_id: categoryId,
          category: input.Category ?? before.category,
          content_category: input.ContentCategory ?? before.content_category,
          original_name: input.OriginalName ?? before.original_name,
          original_location: input.OriginalLocation ?? before.original_location,
          series_id: seriesId,
          ...metaCols,
        }, vis);
        await replaceLinks(stores.links, before.id, { Tags: input.Tags, Groups: input.Groups, Notes: input.Notes }, vis);
        // A series the resource leaves stays, even empty: only deleting a resource removes it (§3.8).
      });
      return { id: before.id, name: finalName, before, result: undefined };
    }, { data });
    return this.read(vis, before.id);
  }

  /** Stores a new effective meta the series-aware way (mass edit, edit-meta); no timestamp. */
  async writeMeta(trx: Tx<Database>, id: number, meta: Record<string, unknown>): Promise<void> {
    const stores = this.deps.stores.in(trx);
    const row = await stores.resources.find(id, SEE_ALL);
    if (!row) throw new Error(`resource ${id} vanished during a meta edit`);
    const cols = row.series_id === null ? { meta: JSON.stringify(meta), own_meta: '{}' } : await editMemberMeta(stores.series, row.series_id, meta);
    await stores.resources.patch(id, cols);
  }

  async delete(actor: Actor, id: number | undefined): Promise<ResourceRow> {
    const row = await this.require(visibilityOf(actor.principal), id);
    await withChange(this.ctx.lib.bus, actor, 'delete', 'resource', async () => {
      await this.deps.removal.deleteResources([row]);
      return { id: row.id, name: row.name, before: row, result: undefined };
    }, { data: { id: row.id, name: row.name } });
    return row;
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    if (ids.length === 0) throw badRequest('ID must list at least one resource');
    const rows = await this.named.requireAll(ids, visibilityOf(actor.principal));
    await withChange(this.ctx.lib.bus, actor, 'delete', 'resource', async () => {
      await this.deps.removal.deleteResources(rows);
      return { message: `Deleted ${rows.length} resources (${rows.map((r) => r.id).join(', ')})`, result: undefined };
    }, { ids: rows.map((r) => r.id) });
  }

  /** Leaves the series: the effective meta is frozen into meta; the series remains, even empty (contract). */
  async removeSeries(actor: Actor, id: number | undefined): Promise<void> {
    const vis = visibilityOf(actor.principal);
    const row = await this.require(vis, id);
    if (row.series_id === null) return;
    await withChange(this.ctx.lib.bus, actor, 'update', 'resource', async () => {
      await this.ctx.lib.transactor.run(async (trx) => {
        const stores = this.deps.stores.in(trx);
        await stores.resources.update(row.id, { series_id: null, own_meta: '{}' }, vis);
      });
      return { id: row.id, name: row.name, before: row, message: `Removed from series ${row.series_id}`, result: undefined };
    }, { data: hookData(row) });
  }

  async setDimensions(actor: Actor, id: number | undefined, width: number, height: number): Promise<void> {
    const vis = visibilityOf(actor.principal);
    const row = await this.require(vis, id);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) throw badRequest('Width and Height must be non-negative integers');
    await withChange(this.ctx.lib.bus, actor, 'update', 'resource', async () => {
      await this.repo.update(row.id, { width, height }, vis);
      return { id: row.id, name: row.name, before: row, message: `Set dimensions to ${width}×${height}`, result: undefined };
    }, { data: hookData(row) });
  }

  /** Inline edit of name or description (resource names need not be unique). */
  editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void> {
    return this.named.editField(actor, id, field, value);
  }
}
