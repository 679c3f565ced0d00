// Representative calls of every tag repository statement (see ../snapshots.test.ts).
import { TagRepository } from '../../../src/library/tags/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(TagRepository, [
    ['find', (r) => r.find(7)],
    ['findByName', (r) => r.findByName('holiday')],
    ['findMany', (r) => r.findMany([1, 2, 3])],
    ['page', (r) => r.page({}, 50, 0)],
    ['page (name filter, sorted by usage)', (r) => r.page({ Name: 'hol', SortBy: ['most_used_resource desc'] }, 50, 50)],
    ['page (meta sort, created bounds)', (r) => r.page({ SortBy: ["meta->>'colour' asc"], CreatedAfter: '2024-01-01', CreatedBefore: '2024-12-31' }, 20, 0)],
    ['count', (r) => r.count({ Description: 'trip' })],
    ['timeline', (r) => r.timeline({ Name: 'hol' }, [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }, { start: '2024-02-01T00:00:00.000Z', end: '2024-03-01T00:00:00.000Z' }])],
    ['insert', (r) => r.insert({ name: 'holiday', description: '', meta: '{}', created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000000' })],
    ['update', (r) => r.update(7, { name: 'trips' })],
    ['remove', (r) => r.remove([4, 5])],
    ['copyLinks', (r) => r.copyLinks(1, [2, 3])],
    ['tagsOf (resources)', (r) => r.tagsOf('resource', [1, 2, 2])],
    ['tagsOf (groups)', (r) => r.tagsOf('group', [3])],
    ['usage', (r) => r.usage([1, 2])],
    ['carriers (notes)', (r) => r.carriers('note', 4, 12)],
  ]),
];
