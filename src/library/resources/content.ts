// Resources as a content kind for edit-meta, bulk edits and mass edit: their links, their
// resource category's MetaSchema, list filters for Target=filter, and series-aware meta
// storage (a member keeps only its own differences, with explicit nulls for removed keys).
import { makeBag, readParams } from '../../core/http/params.js';
import type { Tx } from '../../core/db/repository.js';
import type { ContentKind } from '../common/content.js';
import type { Database } from '../schema/database.js';
import { ResourceListInput } from './filters.js';
import type { ResourceService } from './service.js';
import type { ResourceStores } from './stores.js';

export function resourceContent(resources: ResourceService, stores: ResourceStores): ContentKind {
  return {
    entity: 'resource',
    table: 'resources',
    plural: 'resources',
    carrier: { table: 'resource_categories', column: 'resource_category_id', label: 'resource category' },
    links: {
      tags: { table: 'resource_tags', self: 'resource_id', other: 'tag_id', target: 'tags' },
      groups: { table: 'groups_related_resources', self: 'resource_id', other: 'group_id', target: 'groups' },
      notes: { table: 'resource_notes', self: 'resource_id', other: 'note_id', target: 'notes' },
    },
    // Mass edit selects inside its transaction: the lookup joins it.
    filterIds: (db, vis, query, limit) => stores.resources.in(db as Tx<Database>).matchingIds(resources.filterOf(readParams(ResourceListInput, makeBag(query))), limit, vis),
    writeMeta: (trx, id, meta) => resources.writeMeta(trx, id, meta),
  };
}
