// Download rules: submitting URLs as queue jobs, and retrying or deleting history rows with a
// per-row outcome (companion §7.2, §7.3). Controls on jobs the caller may not see answer 404.
import type { AddressPolicy } from '../../core/net/addresses.js';
import { OUTSIDE_SCOPE, visibilityOf } from '../auth/visibility.js';
import type { VisibilityRepository } from '../auth/visibility.repository.js';
import { nowIso } from '../../core/db/values.js';
import { HttpError, forbidden, notFound } from '../../core/http/errors.js';
import { TERMINAL, type JobQueue, type JobSnapshot } from '../../core/jobs/queue.js';
import type { Principal } from '../auth/principal.js';
import type { DownloadHistory } from './history.js';
import type { PaceRuleLookup } from './pacing.js';
import { downloadPayloads, type DownloadPayload, type RemoteParams } from './payload.js';

export const DOWNLOAD = 'download';

/** Who sees which jobs: administrators every job, others their own (a job without owner only admins). */
export function jobVisibility(p: Principal): (ownerId: number | null) => boolean {
  const admin = p.superUser || p.role === 'admin';
  return (owner) => admin || (owner !== null && owner === p.userId);
}

export interface RowOutcome {
  id: number;
  ok: boolean;
  jobId?: string;
  reason?: string;
}

/** How a plugin's downloads may reach the network: its address policy and its host allowlist. */
export interface PluginEgress {
  policy: AddressPolicy;
  checkUrl: (url: URL) => void;
}

export class DownloadService {
  constructor(
    readonly queue: JobQueue,
    readonly history: DownloadHistory,
    private readonly visibility: VisibilityRepository,
  ) {}

  /**
   * The egress policy of a plugin's queued downloads, resolved by plugin name at every attempt
   * (library-plugins.md §15.1); null when the plugin is not enabled. The plugin host sets it.
   */
  pluginEgress: (plugin: string) => PluginEgress | null = () => null;

  /** The download_limits rule pacing a plugin's job for a URL, read at every look (§15.5); the plugin host sets it. */
  pacingRule: PaceRuleLookup = () => null;

  /** Queues one job per URL line; 503 when the queue cannot take them all. */
  async submit(principal: Principal, params: RemoteParams, plugin?: string): Promise<JobSnapshot[]> {
    const payloads = downloadPayloads(params).map((p) => (plugin ? { ...p, plugin } : p));
    await this.checkTargets(principal, params);
    return this.enqueue(principal, payloads);
  }

  /**
   * A group-limited caller names an owner inside its subtree and only groups and notes it can
   * see (403 otherwise). The job checks again whenever it starts (first run, resume, retry) with
   * the owner's current scope, so a later move or a narrowed scope is caught too.
   */
  async checkTargets(principal: Principal, params: RemoteParams): Promise<void> {
    const vis = visibilityOf(principal);
    if (vis.kind === 'all') return;
    const groupIds = [...(params.OwnerId ? [params.OwnerId] : []), ...(params.Groups ?? [])];
    if (!params.OwnerId || params.GroupName) throw forbidden(`download target group is ${OUTSIDE_SCOPE}`);
    const groups = new Set(await this.visibility.visibleIds(vis, 'group', groupIds));
    if (groupIds.some((g) => !groups.has(g))) throw forbidden(`download target group is ${OUTSIDE_SCOPE}`);
    const noteIds = params.Notes ?? [];
    const notes = new Set(await this.visibility.visibleIds(vis, 'note', noteIds));
    if (noteIds.some((n) => !notes.has(n))) throw forbidden(`download target note is ${OUTSIDE_SCOPE}`);
  }

  private enqueue(principal: Principal, payloads: DownloadPayload[]): JobSnapshot[] {
    if (!this.queue.canAccept(payloads.length)) {
      throw new HttpError(503, `download queue is full (max ${this.queue.capacityLimit} jobs) - all jobs are active or paused`);
    }
    return payloads.map((payload) => this.queue.submit(DOWNLOAD, { url: payload.url, ownerId: principal.userId, payload }));
  }

  /** Runs a queue control on a job the caller can see; state refusals are 409. */
  control(principal: Principal, id: string | undefined, action: 'cancel' | 'pause' | 'resume' | 'retry'): void {
    if (!id || !this.queue.get(id, jobVisibility(principal))) throw notFound(`job ${id ?? ''} not found`);
    this.queue[action](id);
  }

  private activeUrls(): Set<string> {
    return new Set(this.queue.list().filter((j) => j.source === DOWNLOAD && !TERMINAL.has(j.status)).map((j) => j.url));
  }

  async retry(principal: Principal, ids: number[]): Promise<{ retried: number; results: RowOutcome[] }> {
    const visible = jobVisibility(principal);
    const rows = new Map((await this.history.byIds(ids)).map((r) => [r.id, r]));
    const results: RowOutcome[] = [];
    const claimed = new Map<string, number>();
    for (const id of ids) {
      const row = rows.get(id);
      if (!row || !visible(row.created_by_user_id)) {
        results.push({ id, ok: false, reason: 'not found' });
        continue;
      }
      const refuse = (reason: string) => results.push({ id, ok: false, reason });
      if (claimed.has(row.url)) {
        refuse(`the same download is already being retried as row ${claimed.get(row.url)} in this request`);
        continue;
      }
      if (row.status === 'completed') {
        refuse('a completed download cannot be retried');
        continue;
      }
      const previous = row.last_retry_job_id ? this.queue.get(row.last_retry_job_id) : undefined;
      if (previous && !TERMINAL.has(previous.status)) {
        refuse('a retry of this download is already queued or running');
        continue;
      }
      if (this.activeUrls().has(row.url)) {
        refuse('this URL is already being downloaded');
        continue;
      }
      const payload = this.history.payloadOf(row);
      if (!payload) {
        refuse('the original request of this download was not kept');
        continue;
      }
      let jobId: string;
      const inQueue = this.queue.get(row.job_id);
      try {
        if (inQueue && TERMINAL.has(inQueue.status)) {
          this.queue.retry(row.job_id);
          jobId = row.job_id;
        } else {
          jobId = this.enqueue(principal, [payload])[0].id;
        }
      } catch (e) {
        refuse((e as Error).message);
        continue;
      }
      claimed.set(row.url, id);
      await this.history.markRetried(id, jobId, nowIso());
      results.push({ id, ok: true, jobId });
    }
    const retried = results.filter((r) => r.ok).length;
    if (retried === 0) throw new HttpError(409, results.length === 1 ? results[0].reason! : 'no downloads could be retried', { retried, results });
    return { retried, results };
  }

  async delete(principal: Principal, ids: number[]): Promise<{ deleted: number; results: RowOutcome[] }> {
    const visible = jobVisibility(principal);
    const rows = new Map((await this.history.byIds(ids)).map((r) => [r.id, r]));
    const results: RowOutcome[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row || !visible(row.created_by_user_id)) {
        results.push({ id, ok: false, reason: 'not found' });
        continue;
      }
      const job = this.queue.get(row.job_id);
      const retry = row.last_retry_job_id ? this.queue.get(row.last_retry_job_id) : undefined;
      if (job && !TERMINAL.has(job.status)) {
        results.push({ id, ok: false, reason: 'this download is still running; cancel it first' });
        continue;
      }
      if (retry && !TERMINAL.has(retry.status)) {
        results.push({ id, ok: false, reason: 'a retry of this download is still running' });
        continue;
      }
      await this.history.delete(id);
      this.queue.removeFinished(row.job_id);
      results.push({ id, ok: true });
    }
    const deleted = results.filter((r) => r.ok).length;
    if (deleted === 0) throw new HttpError(409, results.length === 1 ? results[0].reason! : 'no downloads could be deleted', { deleted, results });
    return { deleted, results };
  }
}
