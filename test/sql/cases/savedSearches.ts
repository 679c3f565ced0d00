// Representative calls of every saved-search statement (see ../snapshots.test.ts).
import { SavedSearchRepository } from '../../../src/library/savedSearches/repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';

export default [
  sqlCases(SavedSearchRepository, [
    ['list (every family)', (r) => r.list(7, null)],
    ['list (one family)', (r) => r.list(7, 'resources')],
    ['findOwned', (r) => r.findOwned(3, 7)],
    ['insert', (r) => r.insert({ user_id: 7, name: 'Holiday photos', family: 'resources', layout: 'details', url: '/resources/details?Tags=3', created_at: now, updated_at: now })],
    ['updateOwned', (r) => r.updateOwned(3, 7, { name: 'Trips', updated_at: now })],
    ['removeOwned', (r) => r.removeOwned(3, 7)],
  ]),
];
