// Download history rows (companion §7.3): one per download job that reached a terminal state,
// keyed by job id; the filtered, sorted, paged list; retention deletes in bounded batches.
import { sql, type Insertable, type RawBuilder, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import { Repository } from '../../core/db/repository.js';
import { fragment } from '../../core/db/sql-text.js';
import { escapeLike } from '../../core/db/values.js';
import { applyDateBounds, applySort, sortTerms } from '../common/list.repository.js';
import type { Database, DownloadHistoryTable } from '../schema/database.js';
import { HTTP_STATUS_GLOB, MATCHED_REASONS, NEEDLES, parseReason, type MatchedReason } from './reasons.js';

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

const ERROR = 'lower(download_history_entries.error)';

export class HistoryRepository extends Repository<Database> {
  async byJob(jobId: string): Promise<{ id: number; completed_at: string | null } | undefined> {
    return this.db.selectFrom('download_history_entries').select(['id', 'completed_at']).where('job_id', '=', jobId).executeTakeFirst();
  }

  async insert(row: Insertable<DownloadHistoryTable>): Promise<void> {
    await this.db.insertInto('download_history_entries').values(row).execute();
  }

  /** A newer outcome of a retried job: the row takes it and counts one more attempt. */
  async recordAttempt(id: number, outcome: Updateable<DownloadHistoryTable>): Promise<void> {
    await this.db
      .updateTable('download_history_entries')
      .set({ ...outcome, attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .execute();
  }

  /** Rows whose error falls into a reason bucket (see reasons.ts). */
  private reason(reason: MatchedReason): RawBuilder<SqlBool> {
    if (reason === 'http') return fragment<SqlBool>(this.dialect, (b) => this.dialect.matchesGlob(b, ERROR, HTTP_STATUS_GLOB));
    return sql<SqlBool>`(${sql.join(
      NEEDLES[reason].map((needle) => sql<SqlBool>`${sql.raw(ERROR)} LIKE ${`%${escapeLike(needle)}%`} ESCAPE '\\'`),
      sql` OR `,
    )})`;
  }

  private reasonCondition(text: string): RawBuilder<SqlBool> {
    const reason = parseReason(text);
    if (reason !== 'other') return this.reason(reason);
    const any = MATCHED_REASONS.map((r) => this.reason(r));
    return sql<SqlBool>`(download_history_entries.error <> '' AND NOT (${sql.join(any, sql` OR `)}))`;
  }

  private filtered(f: HistoryFilter, ownerId: number | null) {
    let q = this.db.selectFrom('download_history_entries');
    if (ownerId !== null) q = q.where('created_by_user_id', '=', ownerId);
    const statuses = (f.Status ?? []).filter((s) => s !== '');
    if (statuses.length) q = q.where('status', 'in', statuses);
    if (f.URL) {
      q = q.where(sql<SqlBool>`(${containsText(this.dialect, 'download_history_entries.url', f.URL)} OR ${containsText(this.dialect, 'download_history_entries.name', f.URL)})`);
    }
    if (f.Retried === 'yes') q = q.where('last_retry_at', 'is not', null);
    if (f.Retried === 'no') q = q.where('last_retry_at', 'is', null);
    q = applyDateBounds(q, 'download_history_entries', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
    q = applyDateBounds(q, 'download_history_entries', 'completed_at', f.CompletedBefore, f.CompletedAfter, 'Completed');
    if (f.Reason) q = q.where(this.reasonCondition(f.Reason));
    if (f.Error) q = q.where(containsText(this.dialect, 'download_history_entries.error', f.Error));
    return q;
  }

  /** One page in SortBy order; `ownerId` null lists every row. */
  async page(f: HistoryFilter, ownerId: number | null, limit: number, offset: number): Promise<HistoryRow[]> {
    const terms = sortTerms(this.dialect, 'download_history_entries', f.SortBy, SORT);
    return applySort(this.filtered(f, ownerId).selectAll(), terms).limit(limit).offset(offset).execute();
  }

  async count(f: HistoryFilter, ownerId: number | null): Promise<number> {
    const r = await this.filtered(f, ownerId).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async byIds(ids: readonly number[]): Promise<HistoryRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('download_history_entries').selectAll().where('id', 'in', [...ids]).execute();
  }

  async markRetried(id: number, jobId: string, at: string): Promise<void> {
    await this.db.updateTable('download_history_entries').set({ last_retry_job_id: jobId, last_retry_at: at }).where('id', '=', id).execute();
  }

  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('download_history_entries').where('id', 'in', [...ids]).execute();
  }

  /** Rows of these statuses finished (or created) before `cutoff` and not retried since, at most `limit`. */
  async expired(statuses: readonly string[], cutoff: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('download_history_entries')
      .select('id')
      .where('status', 'in', [...statuses])
      .where(sql<SqlBool>`coalesce(completed_at, created_at) < ${cutoff}`)
      .where((eb) => eb.or([eb('last_retry_at', 'is', null), eb('last_retry_at', '<', cutoff)]))
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}
