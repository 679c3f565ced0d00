// Groups as a content kind for edit-meta, bulk meta and mass edit: their links, their
// category's MetaSchema, list filters for Target=filter, and re-parenting without cycles.
import { makeBag, readParams } from '../../core/http/params.js';
import type { CarrierRef, ContentKind } from '../common/content.js';
import { GroupListInput } from './filters.js';
import type { GroupService } from './service.js';

export const GROUP_CARRIER: CarrierRef = { table: 'categories', column: 'category_id', label: 'category' };

export function groupContent(groups: GroupService): ContentKind {
  return {
    entity: 'group',
    table: 'groups',
    plural: 'groups',
    carrier: GROUP_CARRIER,
    links: {
      tags: { table: 'group_tags', self: 'group_id', other: 'tag_id', target: 'tags' },
      notes: { table: 'groups_related_notes', self: 'group_id', other: 'note_id', target: 'notes' },
      resources: { table: 'groups_related_resources', self: 'group_id', other: 'resource_id', target: 'resources' },
      relatedGroups: { table: 'group_related_groups', self: 'group_id', other: 'related_group_id', target: 'groups' },
    },
    filterIds: (tx, vis, query, limit) => groups.matchingIds(vis, readParams(GroupListInput, makeBag(query)), limit, tx),
    checkOwner: (tx, ids, ownerId) => groups.checkNewOwner(tx, ids, ownerId),
  };
}
