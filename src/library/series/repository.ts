// Series rows, and the membership columns of their resources (series_id, own_meta, meta).
import type { Insertable } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import type { SeriesTable } from '../schema/database.js';
import { NamedRepository, type NamedQuery, type NamedRow } from '../common/named.repository.js';
import type { CommonListInput } from '../common/list.js';

export type SeriesRow = NamedRow<'series'>;

/** Series have no description column; the list filters on Slug instead. */
export type SeriesListFilter = Omit<CommonListInput, 'Description'> & { Slug?: string };

export class SeriesRepository extends NamedRepository<'series', SeriesListFilter> {
  protected readonly table = 'series';
  protected readonly sort = { columns: ['id', 'name', 'slug', 'created_at', 'updated_at'], meta: true };

  protected override filtered(input: SeriesListFilter): NamedQuery {
    const q = super.filtered(input);
    return input.Slug ? q.where(containsText(this.dialect, 'series.slug', input.Slug)) : q;
  }

  async findBySlug(slug: string): Promise<SeriesRow | undefined> {
    return (await this.db.selectFrom('series').selectAll().where('slug', '=', slug).executeTakeFirst()) as SeriesRow | undefined;
  }

  async insert(row: Insertable<SeriesTable>): Promise<SeriesRow> {
    return (await this.db.insertInto('series').values(row).returningAll().executeTakeFirstOrThrow()) as SeriesRow;
  }

  /** The first `limit` members, oldest first. */
  async members(seriesId: number, limit: number): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom('resources').select(['id', 'name']).where('series_id', '=', seriesId).orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  /** Every member's own meta, to recompute their effective meta. */
  async memberOwnMeta(seriesId: number): Promise<{ id: number; own_meta: string }[]> {
    return this.db.selectFrom('resources').select(['id', 'own_meta']).where('series_id', '=', seriesId).orderBy('id').execute();
  }

  async setMemberMeta(resourceId: number, meta: string): Promise<void> {
    await this.db.updateTable('resources').set({ meta }).where('id', '=', resourceId).execute();
  }

  /** Members leave the series keeping their effective meta as plain meta. */
  async releaseMembers(seriesId: number, now: string): Promise<void> {
    await this.db.updateTable('resources').set({ own_meta: '{}', series_id: null, updated_at: now }).where('series_id', '=', seriesId).execute();
  }
}
