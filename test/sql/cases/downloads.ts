// Representative calls of every download history statement (see ../snapshots.test.ts).
import { HistoryRepository } from '../../../src/library/downloads/repository.js';
import { sqlCases } from '../capture.js';

const T = '2024-01-01T00:00:00.000Z';

export default [
  sqlCases(HistoryRepository, [
    ['byJob', (r) => r.byJob('job-1')],
    [
      'insert',
      (r) =>
        r.insert({
          job_id: 'job-1',
          url: 'https://example.org/a.jpg',
          name: 'a.jpg',
          status: 'failed',
          error: 'HTTP 404',
          resource_id: null,
          total_size: 0,
          progress: 0,
          attempts: 1,
          created_at: T,
          started_at: T,
          completed_at: T,
          created_by_user_id: 1,
          payload: '{}',
          last_retry_job_id: '',
        }),
    ],
    ['recordAttempt', (r) => r.recordAttempt(4, { status: 'completed', error: '', resource_id: 9, completed_at: T })],
    ['page (everyone, no filter)', (r) => r.page({}, null, 50, 0)],
    [
      'page (owner, statuses, text, retried, dates, error, sorted)',
      (r) =>
        r.page(
          { Status: ['failed', ''], URL: 'example', Retried: 'yes', CreatedAfter: '2024-01-01', CompletedBefore: '2024-02-01', Error: 'timeout', SortBy: ['completed_at desc'] },
          1,
          50,
          50,
        ),
    ],
    ['page (reason http, not retried)', (r) => r.page({ Reason: 'http', Retried: 'no' }, null, 50, 0)],
    ['page (reason timeout)', (r) => r.page({ Reason: 'timeout' }, null, 50, 0)],
    ['count (reason other)', (r) => r.count({ Reason: 'other' }, 1)],
    ['byIds', (r) => r.byIds([1, 2])],
    ['markRetried', (r) => r.markRetried(4, 'job-2', T)],
    ['remove', (r) => r.remove([4, 5])],
    ['expired', (r) => r.expired(['failed', 'cancelled'], T, 1000)],
  ]),
];
