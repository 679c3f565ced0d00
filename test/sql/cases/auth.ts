// Representative calls of every session and API-token statement (see ../snapshots.test.ts).
import { ApiTokenRepository, SessionRepository } from '../../../src/library/auth/credentials.repository.js';
import { VisibilityRepository } from '../../../src/library/auth/visibility.repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';
const minuteAgo = '2024-06-01T11:59:00.000Z';
const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export default [
  sqlCases(SessionRepository, [
    ['insert', (r) => r.insert({ created_at: now, updated_at: now, user_id: 7, token_hash: hash, csrf_token: 'csrf', expires_at: '2024-07-01T12:00:00.000Z', last_seen_at: now, user_agent: 'test', ip: '127.0.0.1' })],
    ['findByHash', (r) => r.findByHash(hash)],
    ['touch', (r) => r.touch(5, now, minuteAgo)],
    ['remove', (r) => r.remove(5)],
    ['removeForUser (all)', (r) => r.removeForUser(7)],
    ['removeForUser (keep the current one)', (r) => r.removeForUser(7, 5)],
    ['removeExpired', (r) => r.removeExpired(now)],
  ]),
  sqlCases(ApiTokenRepository, [
    ['insert', (r) => r.insert({ created_at: now, updated_at: now, user_id: 7, name: 'cli', token_hash: hash, prefix: 'AbCdEfGh', expires_at: null, last_used_at: null, disabled: false })],
    ['findByHash', (r) => r.findByHash(hash)],
    ['listForUser', (r) => r.listForUser(7)],
    ['countForUser', (r) => r.countForUser(7)],
    ['touch', (r) => r.touch(3, now, minuteAgo)],
    ['removeOwned', (r) => r.removeOwned(3, 7)],
    ['removeForUser', (r) => r.removeForUser(7)],
  ]),  sqlCases(VisibilityRepository, [
    ['visibleIds (resources, confined)', (r) => r.visibleIds({ kind: 'subtree', rootId: 3 }, 'resource', [1, 2])],
    ['visibleIds (groups, confined)', (r) => r.visibleIds({ kind: 'subtree', rootId: 3 }, 'group', [4])],
    ['visibleIds (notes, no scope group: nothing)', (r) => r.visibleIds({ kind: 'subtree', rootId: null }, 'note', [5])],
    ['visibleIds (everything)', (r) => r.visibleIds({ kind: 'all' }, 'note', [5])],
  ]),
];
