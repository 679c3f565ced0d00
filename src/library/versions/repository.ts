// Resource version rows (companion §3.6): numbered per resource, listed newest first; the
// lookups of restore, compare, delete and cleanup, and the moves of a merge.
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, ResourceVersionTable } from '../schema/database.js';
import type { VersionRow } from '../resources/records.js';
import type { StoredFile } from '../resources/repository.js';

export class VersionRepository extends Repository<Database> {
  async find(id: number): Promise<VersionRow | undefined> {
    return this.db.selectFrom('resource_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A resource's versions, newest first. */
  async listFor(resourceId: number): Promise<VersionRow[]> {
    return this.db.selectFrom('resource_versions').selectAll().where('resource_id', '=', resourceId).orderBy('version_number', 'desc').execute();
  }

  /** The versions of several resources, by resource and number (merge moves them in this order). */
  async allFor(resourceIds: readonly number[]): Promise<VersionRow[]> {
    if (resourceIds.length === 0) return [];
    return this.db.selectFrom('resource_versions').selectAll().where('resource_id', 'in', [...resourceIds]).orderBy('resource_id').orderBy('version_number').execute();
  }

  /** Version number `n` of a resource. */
  async numbered(resourceId: number, n: number): Promise<VersionRow | undefined> {
    return this.db.selectFrom('resource_versions').selectAll().where('resource_id', '=', resourceId).where('version_number', '=', n).executeTakeFirst();
  }

  async hasAny(resourceId: number): Promise<boolean> {
    return (await this.db.selectFrom('resource_versions').select('id').where('resource_id', '=', resourceId).limit(1).executeTakeFirst()) !== undefined;
  }

  async count(resourceId: number): Promise<number> {
    const r = await this.db.selectFrom('resource_versions').select(sql<number>`count(*)`.as('n')).where('resource_id', '=', resourceId).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The highest version number of a resource (0 without versions). */
  async lastNumber(resourceId: number): Promise<number> {
    const r = await this.db
      .selectFrom('resource_versions')
      .select(sql<number>`COALESCE(MAX(version_number), 0)`.as('n'))
      .where('resource_id', '=', resourceId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(row: Insertable<ResourceVersionTable>): Promise<VersionRow> {
    return this.db.insertInto('resource_versions').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes a version row (a merge gives it to the winner under a new number). */
  async patch(id: number, cols: Updateable<ResourceVersionTable>): Promise<void> {
    await this.db.updateTable('resource_versions').set(cols).where('id', '=', id).execute();
  }

  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('resource_versions').where('id', 'in', [...ids]).execute();
  }

  /** The files of the resources' versions. */
  async filesOf(resourceIds: readonly number[]): Promise<StoredFile[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.db.selectFrom('resource_versions').select(['location', 'storage_location']).where('resource_id', 'in', [...resourceIds]).execute();
    return rows.map((r) => ({ location: r.location, storage: r.storage_location }));
  }

  /** True when some version's file is this one. */
  async usesFile(file: StoredFile): Promise<boolean> {
    let q = this.db.selectFrom('resource_versions').select('id').where('location', '=', file.location);
    q = file.storage === null ? q.where('storage_location', 'is', null) : q.where('storage_location', '=', file.storage);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * The next batch (by id, after `afterId`) of resources with more than one version, the only
   * ones a cleanup can shorten; limited to one owner group when given.
   */
  async withOlderVersions(afterId: number, ownerId: number | undefined, limit: number): Promise<{ id: number; current_version_id: number | null }[]> {
    let q = this.db.selectFrom('resources').select(['id', 'current_version_id']).where('id', '>', afterId);
    if (ownerId !== undefined) q = q.where('owner_id', '=', ownerId);
    q = q.where(sql<SqlBool>`(SELECT count(*) FROM resource_versions v WHERE v.resource_id = resources.id) > 1`);
    return q.orderBy('id').limit(limit).execute();
  }
}
