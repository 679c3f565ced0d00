// Representative calls of every relation type and relation statement (see ../snapshots.test.ts).
import { RelationRepository, RelationTypeRepository } from '../../../src/library/relations/repository.js';
import type { Visibility } from '../../../src/library/auth/visibility.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED: Visibility = { kind: 'subtree', rootId: 3 };

const STAMP = { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1 };
const BUCKETS = [{ start: '2024-01-01T00:00:00.000Z', end: '2025-01-01T00:00:00.000Z' }];

export default [
  sqlCases(RelationTypeRepository, [
    ['find', (r) => r.find(7)],
    ['findByName', (r) => r.findByName('works at')],
    ['findMany', (r) => r.findMany([1, 2])],
    ['page', (r) => r.page({}, 50, 0)],
    ['page (category filters)', (r) => r.page({ FromCategory: 1, ToCategory: 2, SortBy: ['from_category_id asc'] }, 50, 0)],
    ['page (types fitting a group on either side)', (r) => r.page({ Name: 'work', ForFromGroup: 10, ForToGroup: 11 }, 50, 0)],
    ['count', (r) => r.count({ FromCategory: 1 })],
    ['timeline', (r) => r.timeline({}, BUCKETS)],
    ['insert', (r) => r.insert({ ...STAMP, guid: '00000000-0000-4000-8000-000000000000', name: 'works at', description: '', from_category_id: 1, to_category_id: 2, back_relation_id: null })],
    ['update', (r) => r.update(7, { name: 'employs', from_category_id: 2, to_category_id: 1 })],
    ['remove', (r) => r.remove([7])],
    ['findByEnds', (r) => r.findByEnds('employs', 2, 1)],
    ['findByEnds (other than one type)', (r) => r.findByEnds('employs', 2, 1, 7)],
    ['releaseBacks', (r) => r.releaseBacks([7, 8], '2024-06-01T12:00:00.000Z')],
    ['setBack', (r) => r.setBack(7, 8, '2024-06-01T12:00:00.000Z')],
    ['options', (r) => r.options()],
  ]),
  sqlCases(RelationRepository, [
    ['find', (r) => r.find(9, SCOPED)],
    ['findByName', (r) => r.findByName('lives')],
    ['findMany', (r) => r.findMany([9, 10], SCOPED)],
    ['page', (r) => r.page({}, 50, 0, SCOPED)],
    ['count', (r) => r.count({}, SCOPED)],
    ['timeline', (r) => r.timeline({}, BUCKETS, SCOPED)],
    ['update', (r) => r.update(9, { name: 'step', from_group_id: 3, to_group_id: 4, relation_type_id: 7 }, SCOPED)],
    ['remove', (r) => r.remove([9], SCOPED)],
    ['listPage', (r) => r.listPage({}, 50, 0, SCOPED)],
    ['listPage (every filter)', (r) => r.listPage({ FromGroupId: 3, ToGroupId: 4, GroupRelationTypeId: 7, GroupId: 3 }, 50, 50, SCOPED)],
    ['ofGroup (outgoing)', (r) => r.ofGroup(3, 'from', 50, SCOPED)],
    ['ofGroup (incoming)', (r) => r.ofGroup(3, 'to', 50, SCOPED)],
    ['groupNames', (r) => r.groupNames([3, 4])],
    ['endpoint', (r) => r.endpoint(3)],
    ['exists', (r) => r.exists(3, 4, 7)],
    ['exists (other than one relation)', (r) => r.exists(3, 4, 7, 9)],
    ['anyOfTypes', (r) => r.anyOfTypes([7, 8])],
    ['insert', (r) => r.insert({ ...STAMP, name: '', description: '', from_group_id: 3, to_group_id: 4, relation_type_id: 7 })],
    ['removeBackEdge', (r) => r.removeBackEdge({ from_group_id: 3, to_group_id: 4, relation_type_id: 7 })],
  ]),
];
