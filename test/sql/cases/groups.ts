// Representative calls of every group statement (see ../snapshots.test.ts): the list with each
// filter that changes the SQL, the tree, links, clone and merge.
import { sql, type SqlBool } from 'kysely';
import { GroupCopyRepository } from '../../../src/library/groups/copy.repository.js';
import { GroupRepository } from '../../../src/library/groups/repository.js';
import type { Visibility } from '../../../src/library/auth/visibility.js';
import { sqlCases } from '../capture.js';

/** A principal confined to group 3's subtree: the statements show the visibility condition. */
const SCOPED: Visibility = { kind: 'subtree', rootId: 3 };

const STAMP = { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000000' };
const BUCKETS = [
  { start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' },
  { start: '2024-02-01T00:00:00.000Z', end: '2024-03-01T00:00:00.000Z' },
];
/** Stands in for the predicate mrqlListFilter compiles (its SQL is MRQL's snapshot). */
const mrqlWhere = sql<SqlBool>`"groups".name LIKE ${'trip%'}`;

export default [
  sqlCases(GroupRepository, [
    ['find', (r) => r.find(7, SCOPED)],
    ['findByName', (r) => r.findByName('Home')],
    ['findMany', (r) => r.findMany([1, 2], SCOPED)],
    ['page', (r) => r.page({}, 50, 0, SCOPED)],
    ['page (name widened to parents and children, exact)', (r) => r.page({ Name: '"Home"', SearchParentsForName: true, SearchChildrenForName: true }, 50, 0, SCOPED)],
    ['page (tags widened, description, url, dates)', (r) => r.page({ Tags: [1, 2], SearchParentsForTags: true, SearchChildrenForTags: true, Description: 'trip', URL: 'example', CreatedAfter: '2024-01-01', UpdatedBefore: '2024-12-31' }, 50, 0, SCOPED)],
    ['page (groups, notes, resources)', (r) => r.page({ Groups: [3], Notes: [4], Resources: [5] }, 50, 0, SCOPED)],
    ['page (categories, owner, ids, relation side, sorted by meta)', (r) => r.page({ Categories: [1, 2], CategoryId: 1, OwnerId: 3, Ids: [4, 5], RelationTypeId: 6, RelationSide: 1, SortBy: ["meta->>'rank' desc", 'name asc'] }, 50, 100, SCOPED)],
    ['page (MetaQuery with parent. and child., MRQL)', (r) => r.page({ MetaQuery: ['rank:GT:3', 'parent.region:north', 'child.size:LE:10'], mrqlWhere }, 50, 0, SCOPED)],
    ['count', (r) => r.count({ Name: 'trip' }, SCOPED)],
    ['timeline', (r) => r.timeline({ Tags: [1] }, BUCKETS, SCOPED)],
    ['matchingIds', (r) => r.matchingIds({ Name: 'trip', mrqlWhere }, 501, SCOPED)],
    ['insert', (r) => r.insert({ ...STAMP, name: 'Home', description: '', url: null, meta: '{}', owner_id: null, category_id: 2 })],
    ['update', (r) => r.update(7, { name: 'Away', owner_id: 3, category_id: null, meta: '{"a":1}' }, SCOPED)],
    ['remove', (r) => r.remove([7, 8], SCOPED)],
    ['children', (r) => r.children(7, 50, SCOPED)],
    ['relatedGroups', (r) => r.relatedGroups(7, 50, SCOPED)],
    ['ancestors', (r) => r.ancestors(7)],
    ['visibleAmong', (r) => r.visibleAmong([1, 7], SCOPED)],
    ['wouldCreateCycle', (r) => r.wouldCreateCycle(7, 9)],
    ['treeChildren (roots)', (r) => r.treeChildren(0, 50, SCOPED)],
    ['treeChildren (of a parent)', (r) => r.treeChildren(7, 100, SCOPED)],
    ['setTags', (r) => r.setTags(7, [1, 2])],
    ['setTags (clear)', (r) => r.setTags(7, [])],
    ['setRelatedGroups', (r) => r.setRelatedGroups(7, [8, 9])],
    ['isUserScope', (r) => r.isUserScope([7, 8])],
    ['metas', (r) => r.metas([8, 9])],
    ['resourceStubs (owned)', (r) => r.resourceStubs({ ownerId: 7 }, 5, SCOPED)],
    ['resourceStubs (related)', (r) => r.resourceStubs({ relatedTo: 7 }, 5, SCOPED)],
    ['noteStubs (owned)', (r) => r.noteStubs({ ownerId: 7 }, 50, SCOPED)],
    ['noteStubs (related)', (r) => r.noteStubs({ relatedTo: 7 }, 50, SCOPED)],
  ]),
  sqlCases(GroupCopyRepository, [
    ['copyLinks', (r) => r.copyLinks(7, 12)],
    ['copyRelations', (r) => r.copyRelations(7, 12, '2024-06-01T12:00:00.000Z')],
    ['moveRelationships', (r) => r.moveRelationships(7, [8, 9])],
  ]),
];
