// Representative calls of every sharing repository statement (see ../snapshots.test.ts).
import { ShareRepository } from '../../../src/library/sharing/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(ShareRepository, [
    ['note', (r) => r.note(7)],
    ['shareOnce', (r) => r.shareOnce(7, 'A'.repeat(32), '2024-01-01T00:00:00.000Z')],
    ['unshare', (r) => r.unshare([7, 8])],
    ['byToken', (r) => r.byToken('A'.repeat(32))],
    ['sharedPage', (r) => r.sharedPage(50, 0)],
    ['shareTemplate', (r) => r.shareTemplate(3)],
    ['resourcesWithHash', (r) => r.resourcesWithHash('a'.repeat(40))],
    ['attached', (r) => r.attached(7, [1, 2])],
    ['galleryContents', (r) => r.galleryContents(7)],
  ]),
];
