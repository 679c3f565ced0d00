// Representative calls of every resource repository statement (see ../snapshots.test.ts).
import { sql } from 'kysely';
import { ResourceLinkRepository } from '../../../src/library/resources/links.repository.js';
import { ResourceReferenceRepository } from '../../../src/library/resources/references.repository.js';
import { ResourceRepository, type ResourceFilter } from '../../../src/library/resources/repository.js';
import { SeriesMembershipRepository } from '../../../src/library/resources/series.repository.js';
import type { Visibility } from '../../../src/library/auth/visibility.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED: Visibility = { kind: 'subtree', rootId: 3 };
/** The same, measured as a small subtree (a list page's plan). */
const SMALL: Visibility = { kind: 'subtree', rootId: 3, plan: { large: false, narrowed: true } };

const T = '2024-01-01T00:00:00.000Z';
const thresholds = { similarity: 8, ahash: 0 };
const f = (extra: Partial<ResourceFilter> = {}): ResourceFilter => ({ thresholds, ...extra });

const resourceRow = {
  created_at: T,
  updated_at: T,
  created_by_user_id: 1,
  guid: '00000000-0000-4000-8000-000000000000',
  name: 'photo.jpg',
  original_name: 'photo.jpg',
  original_location: '',
  hash: 'a'.repeat(40),
  hash_type: 'SHA1',
  location: '/resources/aa/aa/aa/aaaa.jpg',
  storage_location: null,
  description: '',
  meta: '{}',
  own_meta: '{}',
  width: 800,
  height: 600,
  file_size: 12345,
  category: '',
  content_type: 'image/jpeg',
  content_category: 'image',
  resource_category_id: 1,
  series_id: null,
  owner_id: null,
  current_version_id: null,
};

export default [
  sqlCases(ResourceRepository, [
    ['find', (r) => r.find(7, SCOPED)],
    ['findByName', (r) => r.findByName('photo.jpg')],
    ['findMany', (r) => r.findMany([1, 2, 3], SCOPED)],
    ['page (no filter)', (r) => r.page(f(), 50, 0, SCOPED)],
    ['page (small subtree: group by group on PostgreSQL)', (r) => r.page(f({ Name: 'hol' }), 50, 100, SMALL)],
    [
      'page (text, types, dates, owner, links, exact values, sizes)',
      (r) =>
        r.page(
          f({
            Name: 'hol',
            Description: 'trip',
            ContentType: 'image/',
            ContentTypes: ['image/jpeg', ''],
            CreatedAfter: '2024-01-01',
            CreatedBefore: '2024-12-31',
            UpdatedAfter: '2024-02-01',
            UpdatedBefore: '2024-11-30',
            OwnerId: 3,
            Tags: [4, 5, 4],
            Groups: [6],
            Notes: [7],
            Ids: [8, 9],
            OriginalName: 'a.jpg',
            OriginalLocation: 'http://example.org/a.jpg',
            Hash: ' ABC ',
            MinWidth: 10,
            MaxWidth: 20,
            MinHeight: 30,
            MaxHeight: 40,
            ResourceCategoryId: 2,
            SeriesId: 11,
            SortBy: ['file_size desc'],
          }),
          20,
          40,
          SCOPED,
        ),
    ],
    ['page (subgroups, untagged, without owner, meta sort)', (r) => r.page(f({ OwnerId: 3, IncludeSubgroups: true, Untagged: true, ShowWithoutOwner: true, SortBy: ["meta->>'n' asc"] }), 50, 0, SCOPED)],
    ['page (similar, dHash zero, MetaQuery, MRQL predicate)', (r) => r.page(f({ ShowWithSimilar: true, ShowDhashZero: true, MetaQuery: ['n:EQ:42'], mrql: sql`resources.width > ${100}`, thresholds: { similarity: 6, ahash: 4 } }), 50, 0, SCOPED)],
    ['servesFile (confined)', (r) => r.servesFile(null, 'ab/cd/abcd.png', SCOPED)],
    ['servesFile (alternative filesystem, confined)', (r) => r.servesFile('archive', 'ab/cd/abcd.png', SCOPED)],
    ['count', (r) => r.count(f({ Tags: [4] }), SCOPED)],
    ['timeline', (r) => r.timeline(f({ Name: 'hol' }), [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }], SCOPED)],
    ['matchingIds', (r) => r.matchingIds(f({ OwnerId: 3 }), 2, SCOPED)],
    ['idWithHash', (r) => r.idWithHash('a'.repeat(40))],
    ['findAt (main filesystem)', (r) => r.findAt({ location: '/in/photo.jpg', storage: null })],
    ['findAt (alternative filesystem)', (r) => r.findAt({ location: '/in/photo.jpg', storage: 'archive' })],
    ['usesFile (main filesystem)', (r) => r.usesFile({ location: '/resources/aa.jpg', storage: null })],
    ['usesFile (alternative filesystem)', (r) => r.usesFile({ location: '/resources/aa.jpg', storage: 'archive' })],
    ['insert', (r) => r.insert(resourceRow)],
    ['update', (r) => r.update(7, { name: 'renamed', width: 10 }, SCOPED)],
    ['patch', (r) => r.patch(7, { current_version_id: 9 })],
    ['remove', (r) => r.remove([4, 5], SCOPED)],
    ['videosAfter', (r) => r.videosAfter(100, 25)],
  ]),
  sqlCases(ResourceLinkRepository, [
    ['existing', (r) => r.existing('tags', [1, 2], SCOPED)],
    ['existing (none asked)', (r) => r.existing('notes', [], SCOPED)],
    ['replace (tags)', (r) => r.replace('tags', 7, [1, 2, 2], SCOPED)],
    ['replace (groups, emptied)', (r) => r.replace('groups', 7, [], SCOPED)],
    ['add (notes)', (r) => r.add('notes', [7, 8], [1, 2])],
    ['targetsOf (groups)', (r) => r.targetsOf('groups', [7, 8])],
    ['notesOf', (r) => r.notesOf(7, SCOPED)],
    ['relatedGroupsOf', (r) => r.relatedGroupsOf(7, SCOPED)],
    ['groups', (r) => r.groups([3, 4])],
  ]),
  sqlCases(ResourceReferenceRepository, [
    ['category', (r) => r.category(2)],
    ['categories', (r) => r.categories([1, 2])],
    ['categoryOptions', (r) => r.categoryOptions()],
    ['detectable', (r) => r.detectable()],
    ['fallbackCategory', (r) => r.fallbackCategory()],
    ['groupCategoryNamed', (r) => r.groupCategoryNamed('Albums')],
    ['insertGroupCategory', (r) => r.insertGroupCategory({ created_at: T, updated_at: T, created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000001', name: 'Albums' })],
    ['groupNamed (any category)', (r) => r.groupNamed('Holiday', null)],
    ['groupNamed (in a category)', (r) => r.groupNamed('Holiday', 3)],
    [
      'insertGroup',
      (r) => r.insertGroup({ created_at: T, updated_at: T, created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000002', name: 'Holiday', description: '', meta: '{}', owner_id: null, category_id: 3, url: null }),
    ],
  ]),
  sqlCases(SeriesMembershipRepository, [
    ['ensure', (r) => r.ensure({ created_at: T, updated_at: T, created_by_user_id: 1, name: 'trip', slug: 'trip', meta: '{}' })],
    ['exists', (r) => r.exists(4)],
    ['claimMeta', (r) => r.claimMeta(4, '{"a":1}')],
    ['metaOf', (r) => r.metaOf(4)],
    ['byIds', (r) => r.byIds([4, 5])],
    ['removeIfEmpty', (r) => r.removeIfEmpty(4)],
  ]),
];
