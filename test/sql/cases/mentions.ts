// Representative calls of every statement of mentions → links (see ../snapshots.test.ts).
import { MentionRepository } from '../../../src/library/mentions/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(MentionRepository, [
    ['description', (r) => r.description('groups', 4)],
    ['textBlocks', (r) => r.textBlocks(9)],
    ['linked', (r) => r.linked({ table: 'groups_related_notes', self: 'group_id', other: 'note_id', target: 'notes' }, 4)],
  ]),
];
