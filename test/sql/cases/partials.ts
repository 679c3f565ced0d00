// Representative calls of every template partial repository statement (see ../snapshots.test.ts).
import { PartialRepository } from '../../../src/library/partials/repository.js';
import { sqlCases } from '../capture.js';

const STAMP = { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000000' };

export default [
  sqlCases(PartialRepository, [
    ['find', (r) => r.find(7)],
    ['findByName', (r) => r.findByName('price-tag')],
    ['findMany', (r) => r.findMany([1, 2])],
    ['page', (r) => r.page({ Name: 'price', SortBy: ['name asc'] }, 50, 0)],
    ['count', (r) => r.count({})],
    ['timeline', (r) => r.timeline({}, [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }])],
    ['insert', (r) => r.insert({ ...STAMP, name: 'price-tag', description: '', content: '<b>x</b>' })],
    ['update', (r) => r.update(7, { content: 'y' })],
    ['remove', (r) => r.remove([7])],
  ]),
];
