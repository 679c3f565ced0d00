// Representative global searches, one per statement shape (see ../snapshots.test.ts).
import { SearchRepository } from '../../../src/library/search/repository.js';
import { sqlCases } from '../capture.js';

const words = (term: string) => ({ term, words: term.split(' ') });

export default [
  sqlCases(SearchRepository, [
    ['search (full text, prefixes, resources)', (r) => r.search({ table: 'resources', extra: ['content_type', 'original_name'], ...words('harbour light'), match: { fullText: true, prefix: true }, scope: null, limit: 20 })],
    ['search (full text, one word, unscoped notes: SQLite profile postings first)', (r) => r.search({ table: 'notes', extra: [], ...words('harbour'), match: { fullText: true, prefix: true }, scope: null, limit: 20 })],
    ['profileGroups (one exact word, groups)', (r) => r.profileGroups('groups', words('harbour'), false)],
    ['search (full text, exact words, scoped groups)', (r) => r.search({ table: 'groups', extra: [], ...words('harbour'), match: { fullText: true, prefix: false }, scope: { column: 'id', groupId: 4 }, limit: 20 })],
    [
      'search (LIKE with one-substitution patterns, scoped notes)',
      (r) =>
        r.search({
          table: 'notes',
          extra: [],
          ...words('Harb'),
          match: { fullText: false, columns: ['name', 'description'], patterns: ['%Harb%', '%_arb%', '%H_rb%', '%Ha_b%', '%Har_%'] },
          scope: { column: 'owner_id', groupId: 4 },
          limit: 50,
        }),
    ],
    ['search (LIKE, saved queries)', (r) => r.search({ table: 'saved_mrql_queries', extra: [], ...words('100%_off'), match: { fullText: false, columns: ['name', 'description'], patterns: ['%100\\%\\_off%'] }, scope: null, limit: 20 })],
  ]),
];
