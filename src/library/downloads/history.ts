// The durable download history (companion §7.3): one row per download job that reached a
// terminal state, keyed by job id; a retry of the same job updates its row (attempts + 1,
// the newer outcome wins). Lists are filtered, sorted and paged in SQL by the repository.
import type { Transactor } from '../../core/db/repository.js';
import { parseJson } from '../../core/db/values.js';
import type { JobSnapshot } from '../../core/jobs/queue.js';
import { pageOf } from '../common/list.js';
import type { Database } from '../schema/database.js';
import type { HistoryFilter, HistoryRepository, HistoryRow } from './repository.js';
import { downloadName, type DownloadPayload } from './payload.js';

export type { HistoryFilter, HistoryRow };

/** Over-long values are truncated, never rejected. */
const cut = (text: string | undefined, max: number) => (text ?? '').slice(0, max);

export function historyRecord(row: HistoryRow) {
  const out: Record<string, unknown> = {
    id: row.id,
    jobId: row.job_id,
    url: row.url,
    name: row.name,
    status: row.status,
    totalSize: Number(row.total_size),
    progress: Number(row.progress),
    attempts: row.attempts,
    createdAt: row.created_at,
  };
  if (row.error) out.error = row.error;
  if (row.resource_id !== null) out.resourceId = row.resource_id;
  if (row.started_at) out.startedAt = row.started_at;
  if (row.completed_at) out.completedAt = row.completed_at;
  if (row.created_by_user_id !== null) out.createdByUserId = row.created_by_user_id;
  if (row.last_retry_job_id) out.lastRetryJobId = row.last_retry_job_id;
  if (row.last_retry_at) out.lastRetryAt = row.last_retry_at;
  return out;
}

export class DownloadHistory {
  constructor(
    private readonly repo: HistoryRepository,
    private readonly transactor: Transactor<Database>,
  ) {}

  /** Records a terminal download; an older outcome never overwrites a newer one. */
  async record(job: JobSnapshot, ownerId: number | null, payload: DownloadPayload): Promise<void> {
    const outcome = {
      url: cut(job.url, 2048),
      name: cut(downloadName(payload), 1000),
      status: job.status,
      error: cut(job.error, 2000),
      resource_id: job.resourceId ?? null,
      total_size: job.totalSize,
      progress: job.progress,
      started_at: job.startedAt ?? null,
      completed_at: job.completedAt ?? null,
    };
    await this.transactor.run(async (tx) => {
      const repo = this.repo.in(tx);
      const existing = await repo.byJob(job.id);
      if (!existing) {
        await repo.insert({ ...outcome, job_id: job.id, attempts: 1, created_at: job.createdAt, created_by_user_id: ownerId, payload: JSON.stringify(payload), last_retry_job_id: '' });
        return;
      }
      if (existing.completed_at && outcome.completed_at && existing.completed_at > outcome.completed_at) return;
      await repo.recordAttempt(existing.id, outcome);
    });
  }

  /** One page; `ownerId` null lists every row (administrators). */
  async list(f: HistoryFilter, ownerId: number | null) {
    const { page, perPage, offset } = pageOf(f.page);
    const [rows, count] = await Promise.all([this.repo.page(f, ownerId, perPage, offset), this.repo.count(f, ownerId)]);
    return { downloads: rows.map(historyRecord), count, page, pageSize: perPage };
  }

  byIds(ids: number[]): Promise<HistoryRow[]> {
    return this.repo.byIds(ids);
  }

  markRetried(id: number, jobId: string, at: string): Promise<void> {
    return this.repo.markRetried(id, jobId, at);
  }

  delete(id: number): Promise<void> {
    return this.repo.remove([id]);
  }

  payloadOf(row: HistoryRow): DownloadPayload | null {
    return parseJson<DownloadPayload | null>(row.payload, null);
  }

  /**
   * Retention: failed and cancelled rows older than `failedMs`, completed ones older than
   * `completedMs`, by finish time; a row retried within the window stays. Bounded batches.
   */
  async sweep(failedMs: number, completedMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const [statuses, keepMs] of [
      [['failed', 'cancelled'], failedMs],
      [['completed'], completedMs],
    ] as const) {
      const cutoff = new Date(now - keepMs).toISOString();
      for (let batch = 0; batch < 20; batch++) {
        const ids = await this.repo.expired(statuses, cutoff, 1000);
        if (ids.length === 0) break;
        await this.repo.remove(ids);
        removed += ids.length;
      }
    }
    return removed;
  }
}
