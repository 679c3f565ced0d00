// The statements every named table shares (NamedRepository), compiled once over a stand-in
// table: features' own cases cover them again through their subclasses.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../../src/core/db/dialect/index.js';
import { NamedRepository } from '../../../src/library/common/named.repository.js';
import type { Database } from '../../../src/library/schema/database.js';
import { sqlCases } from '../capture.js';

class SeriesLike extends NamedRepository<'series'> {
  protected readonly table = 'series';
  protected readonly sort = { columns: ['id', 'name', 'created_at'], meta: false };
}

const build = (db: Kysely<never>, dialect: Dialect) => new SeriesLike(db as unknown as Kysely<Database>, dialect);

export default [
  sqlCases(
    NamedRepository as unknown as typeof SeriesLike,
    [
      ['find', (r) => r.find(1)],
      ['findByName', (r) => r.findByName('a')],
      ['findMany', (r) => r.findMany([1, 2])],
      ['page (filters and sort)', (r) => r.page({ Name: 'x', Description: 'y', CreatedAfter: '2024-01-01', SortBy: ['name asc'] }, 50, 0)],
      ['count', (r) => r.count({})],
      ['timeline', (r) => r.timeline({}, [{ start: '2024-01-01T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z' }])],
      ['update', (r) => r.update(1, { name: 'b' })],
      ['remove', (r) => r.remove([1])],
    ],
    build,
  ),
];
