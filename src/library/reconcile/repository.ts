// Which stored locations a row references, for reconciliation: one statement per batch of
// locations over the (location, storage_location) indexes of resources and versions.
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';

export class FileReferenceRepository extends Repository<Database> {
  /**
   * The locations of `locations` on filesystem `storage` (null: the main one, whose rows may
   * also carry '') that a resource or a resource version points at.
   */
  async referenced(storage: string | null, locations: readonly string[]): Promise<Set<string>> {
    if (locations.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('resources')
      .select('location')
      .where('location', 'in', locations)
      .where((eb) => (storage === null ? eb.or([eb('storage_location', 'is', null), eb('storage_location', '=', '')]) : eb('storage_location', '=', storage)))
      .union(
        this.db
          .selectFrom('resource_versions')
          .select('location')
          .where('location', 'in', locations)
          .where((eb) => (storage === null ? eb.or([eb('storage_location', 'is', null), eb('storage_location', '=', '')]) : eb('storage_location', '=', storage))),
      )
      .execute();
    return new Set(rows.map((r) => r.location));
  }
}
