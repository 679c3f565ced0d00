// Indexes the resource features look rows up by: /v1/resource/local finds a file by its
// location, the OriginalLocation and ContentCategory filters, and the version and similarity
// lookups of one resource, and a group's resources in list order.
import type { Kysely, Migration } from 'kysely';

export function resourcesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('idx_resources_location').on('resources').columns(['location', 'storage_location']).execute();
      await db.schema.createIndex('idx_resources_original_location').on('resources').column('original_location').execute();
      await db.schema.createIndex('idx_resources_content_category').on('resources').column('content_category').execute();
      await db.schema.createIndex('idx_resources_category').on('resources').column('category').execute();
      // A group's resources, newest first (group pages, OwnerId filters) without a sort step.
      await db.schema.createIndex('idx_resources_owner_created').on('resources').columns(['owner_id', 'created_at']).execute();
      await db.schema.createIndex('idx_resource_versions_location').on('resource_versions').columns(['location', 'storage_location']).execute();
      await db.schema.createIndex('idx_resource_similarities_p').on('resource_similarities').columns(['resource_id1', 'p_distance']).execute();
      await db.schema.createIndex('idx_resource_similarities_p2').on('resource_similarities').columns(['resource_id2', 'p_distance']).execute();
    },
  };
}
