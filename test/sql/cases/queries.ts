// Representative calls of every saved query repository statement (see ../snapshots.test.ts).
import { QueryRepository } from '../../../src/library/queries/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(QueryRepository, [
    ['find', (r) => r.find(7)],
    ['findByName', (r) => r.findByName('all tags')],
    ['findMany', (r) => r.findMany([1, 2])],
    ['page', (r) => r.page({}, 50, 0)],
    ['page (text filter)', (r) => r.page({ Text: 'order by', SortBy: ['name desc'] }, 50, 0)],
    ['count', (r) => r.count({ Text: 'order by' })],
    ['timeline (text filter)', (r) => r.timeline({ Text: '42' }, [{ start: '2024-01-01T00:00:00.000Z', end: '2025-01-01T00:00:00.000Z' }])],
    ['insert', (r) => r.insert({ created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, name: 'all tags', text: 'SELECT 1', template: '', description: '' })],
    ['update', (r) => r.update(7, { text: 'SELECT 2' })],
    ['remove', (r) => r.remove([7])],
    ['columns', (r) => r.columns()],
  ]),
];
