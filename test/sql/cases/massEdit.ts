// Representative calls of every content-edit statement (see ../snapshots.test.ts), over the
// tables and links of groups, notes and resources.
import { ContentRepository } from '../../../src/library/massEdit/repository.js';
import type { CarrierRef, LinkSpec } from '../../../src/library/common/content.js';
import type { Visibility } from '../../../src/library/auth/visibility.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED: Visibility = { kind: 'subtree', rootId: 3 };

const GROUP_TAGS: LinkSpec = { table: 'group_tags', self: 'group_id', other: 'tag_id', target: 'tags' };
const NOTE_GROUPS: LinkSpec = { table: 'groups_related_notes', self: 'note_id', other: 'group_id', target: 'groups' };
const CATEGORY: CarrierRef = { table: 'categories', column: 'category_id', label: 'category' };
const RESOURCE_CATEGORY: CarrierRef = { table: 'resource_categories', column: 'resource_category_id', label: 'resource category' };

export default [
  sqlCases(ContentRepository, [
    ['existingIds', (r) => r.existingIds('groups', [1, 2, 3], SCOPED)],
    ['existingIds (tags)', (r) => r.existingIds('tags', [4], SCOPED)],
    ['links', (r) => r.links(GROUP_TAGS, [1, 2])],
    ['links (note groups)', (r) => r.links(NOTE_GROUPS, [5])],
    ['unlink', (r) => r.unlink(GROUP_TAGS, [{ s: 1, o: 4 }, { s: 2, o: 4 }])],
    ['link', (r) => r.link(NOTE_GROUPS, [{ s: 5, o: 1 }, { s: 5, o: 2 }])],
    ['hookRows', (r) => r.hookRows('notes', [5, 7])],
    ['metaRows', (r) => r.metaRows('groups', CATEGORY, [1, 2])],
    ['metaRows (resources)', (r) => r.metaRows('resources', RESOURCE_CATEGORY, [6])],
    ['carrierSchema', (r) => r.carrierSchema(RESOURCE_CATEGORY, 3)],
    ['writeHookFields', (r) => r.writeHookFields('groups', 1, { name: 'n', description: 'd', meta: '{"a":1}' })],
    ['writeMeta', (r) => r.writeMeta('notes', 5, '{"a":1}')],
    ['readMeta', (r) => r.readMeta('groups', 1)],
    ['ownerDiffers', (r) => r.ownerDiffers('groups', [1, 2], 3)],
    ['ownerDiffers (clear)', (r) => r.ownerDiffers('resources', [6], null)],
    ['setOwner', (r) => r.setOwner('groups', [1, 2], 3)],
    ['touch', (r) => r.touch('notes', [5], '2024-06-01T12:00:00.000Z')],
  ]),
];
