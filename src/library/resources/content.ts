// Resources as a content kind for edit-meta, bulk edits and mass edit: their links, their
// resource category's MetaSchema, list filters for Target=filter, and series-aware meta
// storage (a member keeps only its own differences, with explicit nulls for removed keys).
import { makeBag, readParams } from '../../core/http/params.js';
import type { ContentKind } from '../common/content.js';
import { ResourceListInput } from './filters.js';
import { editMemberMeta } from './series-meta.js';
import type { ResourceService } from './service.js';

export function resourceContent(resources: ResourceService): ContentKind {
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
    filterIds: (db, query, limit) => resources.matchingIds(readParams(ResourceListInput, makeBag(query)), limit, db),
    writeMeta: async (trx, id, meta) => {
      const row = await trx.selectFrom('resources').select('series_id').where('id', '=', id).executeTakeFirstOrThrow();
      const cols = row.series_id === null ? { meta: JSON.stringify(meta), own_meta: '{}' } : await editMemberMeta(trx, row.series_id, meta);
      await trx.updateTable('resources').set(cols).where('id', '=', id).execute();
    },
  };
}
