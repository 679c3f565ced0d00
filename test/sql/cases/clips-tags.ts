// Representative calls of every clip-service tag and tag-link statement (see ../snapshots.test.ts).
import { ClipTagRepository } from '../../../src/clips/tags/links.repository.js';
import { TagRepository } from '../../../src/clips/tags/repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';
const client = { id: 5, name: 'work/client' };

export default [
  sqlCases(TagRepository, [
    ['find', (r) => r.find(5)],
    ['findByName', (r) => r.findByName('work/client')],
    ['findMany', (r) => r.findMany([1, 2])],
    ['findByNames', (r) => r.findByNames(['work', 'work/client'])],
    ['list', (r) => r.list()],
    ['list (subtree)', (r) => r.list(client)],
    ['subtree', (r) => r.subtree(client)],
    ['rootTree', (r) => r.rootTree('work/client/a')],
    ['children', (r) => r.children(client)],
    ['countAll', (r) => r.countAll()],
    ['counts', (r) => r.counts([1, 2], now)],
    ['counts (all)', (r) => r.counts('all', now)],
    ['toJson', (r) => r.toJson([{ id: 5, name: 'work/client', color: '#78716C', created_at: now }], now)],
    ['insert', (r) => r.insert({ name: 'work/client', color: '#78716C', created_at: now })],
    ['setColor', (r) => r.setColor(5, '#EF4444')],
    ['parkNames', (r) => r.parkNames([5, 6])],
    ['setName', (r) => r.setName(5, 'work/customer')],
    ['delete', (r) => r.delete(5)],
  ]),
  sqlCases(ClipTagRepository, [
    ['carrying', (r) => r.carrying(5, [1, 2])],
    ['sameTreeLinks', (r) => r.sameTreeLinks([1, 2], client)],
    ['removeSameTree', (r) => r.removeSameTree([1, 2], client)],
    ['insert', (r) => r.insert([1, 2], 5, now)],
    ['remove', (r) => r.remove(5, [1, 2])],
  ]),
];
