// Representative calls of every version repository statement (see ../snapshots.test.ts).
import { VersionRepository } from '../../../src/library/versions/repository.js';
import { sqlCases } from '../capture.js';

const T = '2024-01-01T00:00:00.000Z';

export default [
  sqlCases(VersionRepository, [
    ['find', (r) => r.find(3)],
    ['listFor', (r) => r.listFor(7)],
    ['allFor', (r) => r.allFor([7, 8])],
    ['numbered', (r) => r.numbered(7, 2)],
    ['hasAny', (r) => r.hasAny(7)],
    ['count', (r) => r.count(7)],
    ['lastNumber', (r) => r.lastNumber(7)],
    [
      'insert',
      (r) =>
        r.insert({
          created_at: T,
          updated_at: T,
          created_by_user_id: 1,
          resource_id: 7,
          version_number: 2,
          hash: 'b'.repeat(40),
          hash_type: 'SHA1',
          file_size: 100,
          content_type: 'image/png',
          width: 10,
          height: 10,
          location: '/resources/bb.png',
          storage_location: null,
          comment: 'Rotated 90 degrees',
        }),
    ],
    ['patch', (r) => r.patch(3, { resource_id: 9, version_number: 4, comment: 'Merged from resource #7' })],
    ['remove', (r) => r.remove([3, 4])],
    ['filesOf', (r) => r.filesOf([7])],
    ['usesFile (main filesystem)', (r) => r.usesFile({ location: '/resources/bb.png', storage: null })],
    ['usesFile (alternative filesystem)', (r) => r.usesFile({ location: '/resources/bb.png', storage: 'archive' })],
    ['withOlderVersions (every owner)', (r) => r.withOlderVersions(0, undefined, 500)],
    ['withOlderVersions (one owner)', (r) => r.withOlderVersions(500, 3, 500)],
  ]),
];
