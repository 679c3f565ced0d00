// Representative calls of the meta key statement (see ../snapshots.test.ts).
import { MetaKeyRepository } from '../../../src/library/metaKeys/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(MetaKeyRepository, [
    ['keys (groups)', (r) => r.keys('groups')],
    ['keys (resources)', (r) => r.keys('resources')],
  ]),
];
