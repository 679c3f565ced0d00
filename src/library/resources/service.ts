// Resource rules besides creation: reads and lists, edit, delete, the bulk operations and
// removal from a series (contract: Resources; companion §3, §11.2).
import { sql } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import { applySort, pageOf, sortTerms } from '../common/list.js';
import { jsonObjectText, validName } from '../common/names.js';
import type { ResourceContext } from './context.js';
import { RESOURCE_SORT, applyResourceFilters, type ResourceListQuery } from './filters.js';
import { mrqlListFilter } from '../mrql/filter.js';
import type { IngestService, ResourceWrite } from './ingest.js';
import { replaceLinks } from './links.js';
import type { LibraryDb } from '../schema/database.js';
import { presentResource, presentResources, type ResourceRow } from './records.js';
import { deleteResources } from './removal.js';
import { editMemberMeta, joinSeries, dropSeriesIfEmpty, resolveSeries } from './series-meta.js';

export class ResourceService {
  constructor(
    private readonly ctx: ResourceContext,
    private readonly ingest: IngestService,
  ) {}

  private get db() {
    return this.ctx.lib.db;
  }

  async find(id: number): Promise<ResourceRow | undefined> {
    return this.db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async require(id: number | undefined): Promise<ResourceRow> {
    if (id === undefined || id === null) throw badRequest('id is required');
    const row = await this.find(id);
    if (!row) throw notFound(`resource ${id} not found`);
    return row;
  }

  async read(id: number | undefined) {
    return presentResource(this.db, await this.require(id));
  }

  filtered(f: ResourceListQuery, db: LibraryDb = this.db) {
    return applyResourceFilters(db.selectFrom('resources'), this.ctx.lib.dialect, f, this.ctx.thresholds(), mrqlListFilter(this.ctx.lib, 'resource', f.MRQL, 'resources'));
  }

  /** One page; MaxResults overrides the page size (contract, general conventions 6). */
  async list(f: ResourceListQuery) {
    const { page, perPage, offset } = pageOf(f.page, f.MaxResults && f.MaxResults > 0 ? Math.min(f.MaxResults, 10_000) : undefined);
    const terms = sortTerms(this.ctx.lib.dialect, 'resources', f.SortBy, RESOURCE_SORT);
    const rows = await applySort(this.filtered(f).selectAll('resources'), terms).limit(perPage).offset(offset).execute();
    return { rows: await presentResources(this.db, rows), page, perPage };
  }

  async count(f: ResourceListQuery): Promise<number> {
    const r = await this.filtered(f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Ids matching the filters, at most `limit` (for view-by-filter). */
  async matchingIds(f: ResourceListQuery, limit: number, db: LibraryDb = this.db): Promise<number[]> {
    const rows = await this.filtered(f, db).select('resources.id').orderBy('resources.id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** Partial update: absent fields keep their values; given lists and Meta replace. */
  async edit(actor: Actor, id: number | undefined, input: ResourceWrite) {
    const before = await this.require(id);
    const name = input.Name === undefined ? before.name : validName(input.Name);
    const metaGiven = input.Meta !== undefined;
    const meta = metaGiven ? parseJson<Record<string, unknown>>(jsonObjectText(input.Meta, 'Meta'), {}) : parseJson<Record<string, unknown>>(before.meta, {});
    await withChange(this.ctx.lib, actor, 'update', 'resource', async () => {
      await this.db.transaction().execute(async (trx) => {
        await this.ingest.checkRefs(trx, input);
        const categoryId = input.ResourceCategoryId || before.resource_category_id;
        const seriesChange = await resolveSeries(trx, actor, input);
        const seriesId = seriesChange === undefined ? before.series_id : seriesChange;
        let metaCols: { meta: string; own_meta: string };
        if (seriesId === null) metaCols = { meta: JSON.stringify(meta), own_meta: '{}' };
        else if (seriesId !== before.series_id) metaCols = await joinSeries(trx, seriesId, meta);
        else if (metaGiven) metaCols = await editMemberMeta(trx, seriesId, meta);
        else metaCols = { meta: before.meta, own_meta: before.own_meta };
        await this.ingest.checkCategoryMeta(trx, categoryId, parseJson(metaCols.meta, {}));
        await trx
          .updateTable('resources')
          .set({
            name,
            description: input.Description ?? before.description,
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
            updated_at: nowIso(),
          })
          .where('id', '=', before.id)
          .execute();
        await replaceLinks(trx, before.id, { Tags: input.Tags, Groups: input.Groups, Notes: input.Notes });
        if (seriesId !== before.series_id) await dropSeriesIfEmpty(trx, before.series_id);
      });
      return { id: before.id, name, before, result: undefined };
    });
    return this.read(before.id);
  }

  async delete(actor: Actor, id: number | undefined): Promise<ResourceRow> {
    const row = await this.require(id);
    await withChange(this.ctx.lib, actor, 'delete', 'resource', async () => {
      await deleteResources(this.ctx, [row]);
      return { id: row.id, name: row.name, before: row, result: undefined };
    });
    return row;
  }

  private async requireMany(ids: number[]): Promise<ResourceRow[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badRequest('ID must list at least one resource');
    const rows = await this.db.selectFrom('resources').selectAll().where('id', 'in', unique).execute();
    if (rows.length !== unique.length) {
      const have = new Set(rows.map((r) => r.id));
      throw notFound(`resource ${unique.find((i) => !have.has(i))} not found`);
    }
    return rows;
  }

  async bulkDelete(actor: Actor, ids: number[]): Promise<void> {
    const rows = await this.requireMany(ids);
    await withChange(this.ctx.lib, actor, 'delete', 'resource', async () => {
      await deleteResources(this.ctx, rows);
      return { message: `Deleted ${rows.length} resources (${rows.map((r) => r.id).join(', ')})`, result: undefined };
    });
  }

  /** Leaves the series: the effective meta is frozen into meta; an empty series is deleted. */
  async removeSeries(actor: Actor, id: number | undefined): Promise<void> {
    const row = await this.require(id);
    if (row.series_id === null) return;
    await withChange(this.ctx.lib, actor, 'update', 'resource', async () => {
      await this.db.transaction().execute(async (trx) => {
        await trx.updateTable('resources').set({ series_id: null, own_meta: '{}', updated_at: nowIso() }).where('id', '=', row.id).execute();
        await dropSeriesIfEmpty(trx, row.series_id);
      });
      return { id: row.id, name: row.name, before: row, message: `Removed from series ${row.series_id}`, result: undefined };
    });
  }

  async setDimensions(actor: Actor, id: number | undefined, width: number, height: number): Promise<void> {
    const row = await this.require(id);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) throw badRequest('Width and Height must be non-negative integers');
    await withChange(this.ctx.lib, actor, 'update', 'resource', async () => {
      await this.db.updateTable('resources').set({ width, height, updated_at: nowIso() }).where('id', '=', row.id).execute();
      return { id: row.id, name: row.name, before: row, message: `Set dimensions to ${width}×${height}`, result: undefined };
    });
  }

  async editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void> {
    const row = await this.require(id);
    const v = field === 'name' ? validName(value) : value;
    await withChange(this.ctx.lib, actor, 'update', 'resource', async () => {
      await this.db.updateTable('resources').set({ [field]: v, updated_at: nowIso() }).where('id', '=', row.id).execute();
      return { id: row.id, name: field === 'name' ? v : row.name, before: row, result: undefined };
    });
  }
}
