// Representative calls of every duplicate-group statement (see ../snapshots.test.ts).
import { DedupRepository } from '../../../src/clips/dedup/repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';

export default [
  sqlCases(DedupRepository, [
    ['groups', (r) => r.groups(now)],
    ['duplicatesOf', (r) => r.duplicatesOf({ id: 7, content_hash: 'ab'.repeat(32) }, now)],
  ]),
];
