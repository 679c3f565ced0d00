// Representative calls of every start-up user statement (see ../snapshots.test.ts).
import { RootAdminRepository } from '../../../src/library/auth/root.repository.js';
import { sqlCases } from '../capture.js';

const T = '2024-01-01T00:00:00.000Z';

export default [
  sqlCases(RootAdminRepository, [
    ['oldestAdmin', (r) => r.oldestAdmin()],
    ['usernameTaken', (r) => r.usernameTaken('root')],
    [
      'insert',
      (r) =>
        r.insert({
          created_at: T,
          updated_at: T,
          guid: '00000000-0000-4000-8000-000000000000',
          username: 'root',
          display_name: 'Administrator',
          password_hash: '$2b$10$hash',
          role: 'admin',
          disabled: false,
          password_auto_generated: true,
        }),
    ],
  ]),
];
