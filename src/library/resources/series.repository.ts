// Series as resources see them (companion §3.11): found or created by slug, their shared meta
// (claimed by the first member that brings some), and removed once their last member leaves.
import { sql, type Insertable, type SqlBool } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { Repository } from '../../core/db/repository.js';
import type { Database, SeriesTable } from '../schema/database.js';

export class SeriesMembershipRepository extends Repository<Database> {
  /** Creates the series of this slug unless it exists (the unique slug decides), returns its id. */
  async ensure(row: Insertable<SeriesTable>): Promise<number> {
    await this.db
      .insertInto('series')
      .values(row)
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    return (await this.db.selectFrom('series').select('id').where('slug', '=', row.slug).executeTakeFirstOrThrow()).id;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('series').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Sets the series meta only while it is empty; true when this call set it. */
  async claimMeta(id: number, metaJson: string): Promise<boolean> {
    const r = await this.db
      .updateTable('series')
      .set({ meta: metaJson, updated_at: nowIso() })
      .where('id', '=', id)
      .where(sql<SqlBool>`(CAST(meta AS text) = '{}' OR meta IS NULL)`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The series meta as stored (JSON text). */
  async metaOf(id: number): Promise<string> {
    return (await this.db.selectFrom('series').select('meta').where('id', '=', id).executeTakeFirstOrThrow()).meta;
  }

  /** Series by id, as resource records show them. */
  async byIds(ids: readonly number[]): Promise<{ id: number; name: string; slug: string; meta: string }[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('series').select(['id', 'name', 'slug', 'meta']).where('id', 'in', [...ids]).execute();
  }

  /** Deletes the series when no resource is left in it. */
  async removeIfEmpty(id: number): Promise<void> {
    const member = await this.db.selectFrom('resources').select('id').where('series_id', '=', id).limit(1).executeTakeFirst();
    if (!member) await this.db.deleteFrom('series').where('id', '=', id).execute();
  }
}
