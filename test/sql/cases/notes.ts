// Representative calls of every note repository statement (see ../snapshots.test.ts). The MRQL
// predicate is a stand-in: its compiled text belongs to the MRQL snapshots.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Dialect } from '../../../src/core/db/dialect/index.js';
import { NoteRepository } from '../../../src/library/notes/repository.js';
import type { Visibility } from '../../../src/library/auth/visibility.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED: Visibility = { kind: 'subtree', rootId: 3 };
/** The same, measured as a small subtree (a list page's plan). */
const SMALL: Visibility = { kind: 'subtree', rootId: 3, plan: { large: false, narrowed: true } };

// Built below with a stand-in MRQL filter (the third constructor argument).
const Notes = NoteRepository as unknown as new (db: Kysely<never>, dialect: Dialect) => NoteRepository;

const STAMP = { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000000' };

export default [
  sqlCases(
    Notes,
    [
      ['find', (r) => r.find(7, SCOPED)],
      ['findByName', (r) => r.findByName('diary')],
      ['findMany', (r) => r.findMany([1, 2, 3], SCOPED)],
      ['page', (r) => r.page({}, 50, 0, SCOPED)],
      ['page (small subtree: group by group on PostgreSQL)', (r) => r.page({ Name: 'hol' }, 50, 100, SMALL)],
      [
        'page (every filter)',
        (r) =>
          r.page(
            {
              Name: 'trip',
              Description: 'sea',
              CreatedBefore: '2024-12-31',
              CreatedAfter: '2024-01-01',
              UpdatedBefore: '2024-12-31',
              UpdatedAfter: '2024-01-01',
              StartDateBefore: '2024-06-30',
              StartDateAfter: '2024-06-01',
              EndDateBefore: '2024-07-31',
              EndDateAfter: '2024-07-01',
              OwnerId: 4,
              Tags: [1, 2, 2],
              Groups: [5],
              Ids: [10, 11],
              NoteTypeId: 3,
              NoteTypeIds: [3, 6],
              Shared: true,
              MetaQuery: ['colour:red'],
              MRQL: 'name ~ "trip"',
              SortBy: ["meta->>'colour' desc", 'start_date asc'],
            },
            50,
            100,
            SCOPED,
          ),
      ],
      ['count', (r) => r.count({ Shared: false }, SCOPED)],
      ['timeline', (r) => r.timeline({ Name: 'trip' }, [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }], SCOPED)],
      ['matchingIds', (r) => r.matchingIds({ Tags: [1] }, 1001, SCOPED)],
      ['insert', (r) => r.insert({ ...STAMP, name: 'diary', description: '', meta: '{}', owner_id: 4, note_type_id: null, start_date: null, end_date: null })],
      ['update', (r) => r.update(7, { name: 'journal', description: 'text' }, SCOPED)],
      ['remove', (r) => r.remove([7, 8], SCOPED)],
      ['existing (groups)', (r) => r.existing('groups', [4, 5], SCOPED)],
      ['setLinks (tags)', (r) => r.setLinks(7, 'tags', [1, 2], SCOPED)],
      ['setLinks (resources, cleared)', (r) => r.setLinks(7, 'resources', [], SCOPED)],
      ['groupsOf', (r) => r.groupsOf([7, 8], SCOPED)],
      ['resourcesOf', (r) => r.resourcesOf([7], SCOPED)],
      ['group', (r) => r.group(4, SCOPED)],
      ['noteTypes', (r) => r.noteTypes([3, 6])],
      ['noteTypeChoices', (r) => r.noteTypeChoices()],
    ],
    (db, dialect) => new NoteRepository(db as never, dialect, (text) => (text ? sql<SqlBool>`notes.name LIKE ${text}` : null)),
  ),
];
