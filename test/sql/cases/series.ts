// Representative calls of every series repository statement (see ../snapshots.test.ts).
import { SeriesRepository } from '../../../src/library/series/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(SeriesRepository, [
    ['find', (r) => r.find(7)],
    ['findByName', (r) => r.findByName('Summer')],
    ['findMany', (r) => r.findMany([1, 2])],
    ['findBySlug', (r) => r.findBySlug('summer-2024')],
    ['page', (r) => r.page({}, 50, 0)],
    ['page (slug filter, meta sort)', (r) => r.page({ Name: 'sum', Slug: 'win', SortBy: ["meta->>'artist' desc"] }, 50, 50)],
    ['count', (r) => r.count({ Slug: 'win' })],
    ['timeline', (r) => r.timeline({}, [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }])],
    ['insert', (r) => r.insert({ created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, name: 'Summer', slug: 'summer', meta: '{}' })],
    ['update', (r) => r.update(7, { name: 'Winter', meta: '{"artist":"A"}' })],
    ['remove', (r) => r.remove([7])],
    ['members', (r) => r.members(7, 100)],
    ['memberOwnMeta', (r) => r.memberOwnMeta(7)],
    ['setMemberMeta', (r) => r.setMemberMeta(12, '{"artist":"A"}')],
    ['releaseMembers', (r) => r.releaseMembers(7, '2024-06-01T12:00:00.000Z')],
  ]),
];
