// Representative calls of the reconciliation's reference lookup (see ../snapshots.test.ts).
import { FileReferenceRepository } from '../../../src/library/reconcile/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(FileReferenceRepository, [
    ['referenced (main filesystem)', (r) => r.referenced(null, ['/resources/aa/bb/cc/aabbcc.jpg', '/resources/dd/ee/ff/ddeeff.png'])],
    ['referenced (alternative filesystem)', (r) => r.referenced('archive', ['/resources/aa/bb/cc/aabbcc.jpg'])],
  ]),
];
