// Representative calls of every audit-log statement (see ../snapshots.test.ts).
import { LogRepository } from '../../../src/library/audit/repository.js';
import { sqlCases } from '../capture.js';

const T = '2024-01-01T00:00:00.000Z';

export default [
  sqlCases(LogRepository, [
    [
      'insert',
      (r) =>
        r.insert({ created_at: T, level: 'info', action: 'create', entity_type: 'tag', entity_id: 4, entity_name: 'holiday', message: 'Created tag "holiday"', details: '{"userId":1}', request_path: '/v1/tag', user_agent: '', ip_address: '' }),
    ],
    ['get', (r) => r.get(4)],
    ['list (no filter)', (r) => r.list({}, 50, 0)],
    [
      'list (every filter, sorted)',
      (r) =>
        r.list(
          { Level: 'warning', Action: 'update', EntityType: 'tag', EntityID: 4, Message: 'renamed', RequestPath: '/v1/tag', CreatedAfter: '2024-01-01', CreatedBefore: '2024-12-31', SortBy: ['level asc'] },
          20,
          40,
        ),
    ],
    ['deleteOlderThan', (r) => r.deleteOlderThan(T)],
  ]),
];
