// Representative calls of every carrier repository statement (see ../snapshots.test.ts). The
// three carrier kinds share the statements over their own tables; resource categories also
// move their resources.
import { CarrierRepository } from '../../../src/library/categories/repository.js';
import { CATEGORY, NOTE_TYPE, RESOURCE_CATEGORY, type CarrierKind } from '../../../src/library/categories/kinds.js';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../../src/core/db/dialect/index.js';
import { sqlCases } from '../capture.js';

const STAMP = { created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', created_by_user_id: 1, guid: '00000000-0000-4000-8000-000000000000' };

/** The same (instrumented) repository over another carrier kind's table. */
function as(r: CarrierRepository, kind: CarrierKind): CarrierRepository {
  return Object.assign(Object.create(Object.getPrototypeOf(r) as object) as CarrierRepository, r, { kind, table: kind.table });
}

export default [
  sqlCases(
    // Built with its kind (below), so the two-argument constructor the helper expects is a cast.
    CarrierRepository as unknown as new (db: Kysely<never>, dialect: Dialect) => CarrierRepository,
    [
      ['find', (r) => r.find(7)],
      ['findByName', (r) => r.findByName('Person')],
      ['findMany', (r) => r.findMany([1, 2])],
      ['page', (r) => r.page({ Name: 'per', SortBy: ['name asc'] }, 50, 0)],
      ['count', (r) => r.count({})],
      ['timeline', (r) => r.timeline({ Name: 'per' }, [{ start: '2024-01-01T00:00:00.000Z', end: '2025-01-01T00:00:00.000Z' }])],
      ['insert', (r) => r.insert({ ...STAMP, name: 'Person', description: '', meta_schema: '', section_config: '{}', custom_header: '<b>h</b>' })],
      ['update', (r) => r.update(7, { name: 'People', meta_schema: '{"type":"object"}' })],
      ['remove', (r) => r.remove([7])],
      ['options', (r) => r.options()],
      ['schemaOf', (r) => r.schemaOf(7)],
      ['members (categories type groups)', (r) => r.members(7, 20)],
      ['memberCount', (r) => r.memberCount(7)],
      ['find (note types)', (r) => as(r, NOTE_TYPE).find(5)],
      ['members (note types type notes)', (r) => as(r, NOTE_TYPE).members(5, 20)],
      ['members (resource categories type resources)', (r) => as(r, RESOURCE_CATEGORY).members(3, 20)],
      ['memberCount (resources)', (r) => as(r, RESOURCE_CATEGORY).memberCount(3)],
      ['reassignResources', (r) => as(r, RESOURCE_CATEGORY).reassignResources(3, 1, '2024-06-01T12:00:00.000Z')],
    ],
    (db, dialect) => new CarrierRepository(db as never, dialect, CATEGORY),
  ),
];
