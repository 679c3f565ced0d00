// The resource and series statements of an import apply: where the bytes of a hash already
// are, series reused by slug or created, resources and their versions created or updated.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { Repository } from '../../../core/db/repository.js';
import type { Database, ResourceTable, ResourceVersionTable, SeriesTable } from '../../schema/database.js';
import { batched } from '../../archive/batches.js';

export type StoredFile = Pick<Selectable<ResourceTable>, 'location' | 'storage_location' | 'content_type'>;

export class ImportResourceRepository extends Repository<Database> {
  /** The oldest resource whose current file has this hash. */
  async withHash(hash: string): Promise<(StoredFile & { id: number }) | undefined> {
    return this.db.selectFrom('resources').select(['id', 'location', 'storage_location', 'content_type']).where('hash', '=', hash).orderBy('id').executeTakeFirst();
  }

  /** The oldest version with this hash (its file may outlive the resource's current one). */
  async versionWithHash(hash: string): Promise<StoredFile | undefined> {
    return this.db.selectFrom('resource_versions').select(['location', 'storage_location', 'content_type']).where('hash', '=', hash).orderBy('id').executeTakeFirst();
  }

  async seriesBySlug(slugs: readonly string[]): Promise<{ id: number; slug: string }[]> {
    return batched([...slugs], (s) => this.db.selectFrom('series').select(['id', 'slug']).where('slug', 'in', s).execute());
  }

  /** Creates the series unless its slug exists; undefined when it did. */
  async insertSeries(row: Insertable<SeriesTable>): Promise<number | undefined> {
    const r = await this.db
      .insertInto('series')
      .values(row)
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r?.id;
  }

  async seriesIdOf(slug: string): Promise<number> {
    return (await this.db.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  }

  async seriesMeta(id: number): Promise<string> {
    return (await this.db.selectFrom('series').select('meta').where('id', '=', id).executeTakeFirstOrThrow()).meta;
  }

  async resource(id: number): Promise<Selectable<ResourceTable>> {
    return this.db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async insertResource(row: Insertable<ResourceTable>): Promise<number> {
    return (await this.db.insertInto('resources').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateResource(id: number, patch: Updateable<ResourceTable>): Promise<void> {
    await this.db.updateTable('resources').set(patch).where('id', '=', id).execute();
  }

  async insertVersion(row: Insertable<ResourceVersionTable>): Promise<number> {
    return (await this.db.insertInto('resource_versions').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }
}
