// Representative calls of every accounts repository statement (see ../snapshots.test.ts).
import { UserRepository } from '../../../src/library/accounts/repository.js';
import { UserSettingRepository } from '../../../src/library/accounts/settings.repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';

export default [
  sqlCases(UserRepository, [
    ['find', (r) => r.find(7)],
    ['findByUsername', (r) => r.findByUsername('ada')],
    ['list (a page)', (r) => r.list(50, 50)],
    ['list (limit 0: all)', (r) => r.list(0, 0)],
    ['insert', (r) => r.insert({ created_at: now, updated_at: now, guid: '00000000-0000-4000-8000-000000000000', username: 'ada', display_name: 'Ada', password_hash: '$2b$10$x', role: 'user', scope_group_id: 3, disabled: false, password_auto_generated: false })],
    ['update', (r) => r.update(7, { role: 'editor', scope_group_id: null, disabled: true, updated_at: now })],
    ['remove', (r) => r.remove(7)],
    ['countEnabledAdmins (except one)', (r) => r.countEnabledAdmins(7)],
    ['countEnabledAdmins (all)', (r) => r.countEnabledAdmins(null)],
    ['countAdminsWithKnownPassword', (r) => r.countAdminsWithKnownPassword()],
    ['oldestEnabledAdmin', (r) => r.oldestEnabledAdmin()],
    ['takenUsernames', (r) => r.takenUsernames(['root', 'root2', 'root3'])],
    ['scopeGroupExists', (r) => r.scopeGroupExists(3)],
    ['scopeGroupNames', (r) => r.scopeGroupNames([3, 4, 3])],
    ['clearAuthorship', (r) => r.clearAuthorship(7)],
  ]),
  sqlCases(UserSettingRepository, [
    ['all', (r) => r.all(7)],
    ['count', (r) => r.count(7)],
    ['exists', (r) => r.exists(7, 'showDescriptions')],
    ['upsert', (r) => r.upsert(7, 'showDescriptions', 'true', now)],
    ['remove', (r) => r.remove(7, 'showDescriptions')],
  ]),
];
