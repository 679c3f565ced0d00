// Groups as a content kind for edit-meta, bulk meta and mass edit: their links, their
// category's MetaSchema, list filters for Target=filter, and re-parenting without cycles.
import { conflict } from '../../core/http/errors.js';
import { makeBag, readParams } from '../../core/http/params.js';
import type { ContentKind } from '../common/content.js';
import { GroupListInput } from './filters.js';
import { ancestorsOf } from './hierarchy.js';
import type { GroupService } from './service.js';

export const GROUP_CARRIER = { table: 'categories', column: 'category_id', label: 'category' } as const;

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
    filterIds: (db, query, limit) => groups.matchingIds(readParams(GroupListInput, makeBag(query)), limit, db),
    // Every selected group gets the same parent, so a cycle exists exactly when one of them is
    // that parent or one of its ancestors.
    checkOwner: async (trx, ids, ownerId) => {
      if (ownerId === null) return;
      const selected = new Set(ids);
      const chain = await ancestorsOf(trx, ownerId);
      const hit = chain.find((g) => selected.has(g.id));
      if (hit) throw conflict(hit.id === ownerId ? `group ${ownerId} cannot own itself` : `making group ${ownerId} the owner would create an ownership cycle through group ${hit.id}`);
    },
  };
}
