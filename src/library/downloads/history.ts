// The durable download history (companion §7.3): one row per download job that reached a
// terminal state, keyed by job id; a retry of the same job updates its row (attempts + 1,
// the newer outcome wins). Lists are filtered, sorted and paged in SQL.
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { parseJson } from '../../core/db/values.js';
import { containsText } from '../../core/db/fragments.js';
import type { JobSnapshot } from '../../core/jobs/queue.js';
import { applyDateBounds, applySort, pageOf, sortTerms } from '../common/list.js';
import type { DownloadHistoryTable, LibraryDb } from '../schema/database.js';
import { reasonCondition, type Reason } from './reasons.js';
import { downloadName, type DownloadPayload } from './payload.js';

export type HistoryRow = Selectable<DownloadHistoryTable>;

export interface HistoryFilter {
  page?: number;
  Status?: string[];
  URL?: string;
  Retried?: string;
  CreatedBefore?: string;
  CreatedAfter?: string;
  CompletedBefore?: string;
  CompletedAfter?: string;
  Reason?: string;
  Error?: string;
  SortBy?: string[];
}

const SORT = { columns: ['id', 'url', 'name', 'status', 'error', 'total_size', 'progress', 'attempts', 'created_at', 'started_at', 'completed_at'], meta: false };

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
    private readonly db: LibraryDb,
    private readonly dialect: Dialect,
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
    await this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('download_history_entries').select(['id', 'completed_at']).where('job_id', '=', job.id).executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto('download_history_entries')
          .values({ ...outcome, job_id: job.id, attempts: 1, created_at: job.createdAt, created_by_user_id: ownerId, payload: JSON.stringify(payload), last_retry_job_id: '' })
          .execute();
        return;
      }
      if (existing.completed_at && outcome.completed_at && existing.completed_at > outcome.completed_at) return;
      await trx
        .updateTable('download_history_entries')
        .set({ ...outcome, attempts: sql`attempts + 1` })
        .where('id', '=', existing.id)
        .execute();
    });
  }

  private filtered(f: HistoryFilter, ownerId: number | null) {
    let q = this.db.selectFrom('download_history_entries');
    if (ownerId !== null) q = q.where('created_by_user_id', '=', ownerId);
    const statuses = (f.Status ?? []).filter((s) => s !== '');
    if (statuses.length) q = q.where('status', 'in', statuses);
    if (f.URL) {
      const url = f.URL;
      q = q.where(sql<SqlBool>`(${containsText(this.dialect, 'download_history_entries.url', url)} OR ${containsText(this.dialect, 'download_history_entries.name', url)})`);
    }
    if (f.Retried === 'yes') q = q.where('last_retry_at', 'is not', null);
    if (f.Retried === 'no') q = q.where('last_retry_at', 'is', null);
    q = applyDateBounds(q, 'download_history_entries', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
    q = applyDateBounds(q, 'download_history_entries', 'completed_at', f.CompletedBefore, f.CompletedAfter, 'Completed');
    if (f.Reason) q = q.where(reasonCondition(this.dialect.kind, f.Reason as Reason));
    if (f.Error) q = q.where(containsText(this.dialect, 'download_history_entries.error', f.Error));
    return q;
  }

  /** One page; `ownerId` null lists every row (administrators). */
  async list(f: HistoryFilter, ownerId: number | null) {
    const { page, perPage, offset } = pageOf(f.page);
    const terms = sortTerms(this.dialect, 'download_history_entries', f.SortBy, SORT);
    const [rows, count] = await Promise.all([
      applySort(this.filtered(f, ownerId).selectAll(), terms).limit(perPage).offset(offset).execute(),
      this.filtered(f, ownerId).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { downloads: rows.map(historyRecord), count: Number(count.n), page, pageSize: perPage };
  }

  async byIds(ids: number[]): Promise<HistoryRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('download_history_entries').selectAll().where('id', 'in', ids).execute();
  }

  async markRetried(id: number, jobId: string, at: string): Promise<void> {
    await this.db.updateTable('download_history_entries').set({ last_retry_job_id: jobId, last_retry_at: at }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('download_history_entries').where('id', '=', id).execute();
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
        const ids = await this.db
          .selectFrom('download_history_entries')
          .select('id')
          .where('status', 'in', [...statuses])
          .where(sql<SqlBool>`coalesce(completed_at, created_at) < ${cutoff}`)
          .where((eb) => eb.or([eb('last_retry_at', 'is', null), eb('last_retry_at', '<', cutoff)]))
          .limit(1000)
          .execute();
        if (ids.length === 0) break;
        await this.db.deleteFrom('download_history_entries').where('id', 'in', ids.map((r) => r.id)).execute();
        removed += ids.length;
      }
    }
    return removed;
  }
}
