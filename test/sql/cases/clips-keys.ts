// Representative calls of every API key statement (see ../snapshots.test.ts).
import { KeyRepository } from '../../../src/clips/keys/repository.js';
import { sqlCases } from '../capture.js';

const at = '2024-06-01 12:00:00';

export default [
  sqlCases(KeyRepository, [
    ['insert', (r) => r.insert({ name: 'ci', key_hash: 'ab'.repeat(32), key_prefix: 'clip_ab12', role: 'editor', scoped_tag_id: 5, created_at: at })],
    ['find', (r) => r.find(4)],
    ['list', (r) => r.list()],
    ['findActiveByHash', (r) => r.findActiveByHash('ab'.repeat(32))],
    ['touch', (r) => r.touch(4, at)],
    ['revoke', (r) => r.revoke(4, at)],
    ['revokeScopedTo', (r) => r.revokeScopedTo(5, at)],
    ['purgeRevoked', (r) => r.purgeRevoked(at)],
    ['count', (r) => r.count()],
  ]),
];
