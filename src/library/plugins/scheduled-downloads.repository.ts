// Deferred plugin downloads (companion §2.6 plugin_scheduled_downloads, library-plugins.md
// §15.3): one row per mah.download.submit with a delay or start_at, fired by scheduler ticks
// under a claim, with at most three attempts.
import { Repository } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import { noLiveClaim } from '../common/claims.repository.js';
import type { Database } from '../schema/database.js';

export interface ScheduledDownloadRow {
  id: number;
  plugin_name: string;
  url: string;
  payload: string;
  due_at: string;
  status: string;
  job_id: string;
  last_error: string;
  attempts: number;
  claim_token: string | null;
  claimed_at: string | null;
  created_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export const MAX_ATTEMPTS = 3;

const COLUMNS = ['id', 'plugin_name', 'url', 'payload', 'due_at', 'status', 'job_id', 'last_error', 'attempts', 'claim_token', 'claimed_at', 'created_by_user_id', 'created_at', 'updated_at'] as const;

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

function normalise(r: Record<string, unknown>): ScheduledDownloadRow {
  return {
    ...(r as unknown as ScheduledDownloadRow),
    id: Number(r.id),
    attempts: Number(r.attempts),
    due_at: iso(r.due_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    claimed_at: r.claimed_at === null ? null : iso(r.claimed_at),
    created_by_user_id: r.created_by_user_id === null ? null : Number(r.created_by_user_id),
  };
}

export class ScheduledDownloadRepository extends Repository<Database> {
  async insert(plugin: string, url: string, payload: string, dueAt: string, owner: number): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('plugin_scheduled_downloads')
      .values({ plugin_name: plugin, url, payload, due_at: dueAt, created_by_user_id: owner, created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async list(plugin: string): Promise<ScheduledDownloadRow[]> {
    const rows = await this.db.selectFrom('plugin_scheduled_downloads').select(COLUMNS).where('plugin_name', '=', plugin).orderBy('due_at').orderBy('id').execute();
    return rows.map((r) => normalise(r as Record<string, unknown>));
  }

  async find(id: number): Promise<ScheduledDownloadRow | undefined> {
    const r = await this.db.selectFrom('plugin_scheduled_downloads').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return r ? normalise(r as Record<string, unknown>) : undefined;
  }

  /** Pending due rows with an owner, attempts left and no live claim, oldest due first. */
  async due(now: string, claimCutoff: string, limit: number): Promise<ScheduledDownloadRow[]> {
    const rows = await this.db
      .selectFrom('plugin_scheduled_downloads')
      .select(COLUMNS)
      .where('status', '=', 'pending')
      .where('due_at', '<=', now)
      .where('created_by_user_id', 'is not', null)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where(noLiveClaim(claimCutoff))
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => normalise(r as Record<string, unknown>));
  }

  async claim(id: number, token: string, now: string, claimCutoff: string): Promise<boolean> {
    const res = await this.db
      .updateTable('plugin_scheduled_downloads')
      .set({ claim_token: token, claimed_at: now } as never)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where(noLiveClaim(claimCutoff))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async release(id: number, token: string): Promise<void> {
    await this.db.updateTable('plugin_scheduled_downloads').set({ claim_token: null, claimed_at: null } as never).where('id', '=', id).where('claim_token', '=', token).execute();
  }

  /** A failed attempt: counted, its error kept; the third one ends the row as failed. */
  async failAttempt(id: number, token: string, error: string): Promise<void> {
    await this.db
      .updateTable('plugin_scheduled_downloads')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        status: eb.case().when('attempts', '>=', MAX_ATTEMPTS - 1).then('failed').else('pending').end(),
        last_error: error.slice(0, 2000),
        claim_token: null,
        claimed_at: null,
        updated_at: nowIso(),
      }) as never)
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async submitted(id: number, token: string, jobId: string): Promise<void> {
    await this.db
      .updateTable('plugin_scheduled_downloads')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), status: 'submitted', job_id: jobId, last_error: '', claim_token: null, claimed_at: null, updated_at: nowIso() }) as never)
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /** Cancels a pending row nobody holds a claim on; true when it did. */
  async cancelPending(id: number, claimCutoff: string): Promise<boolean> {
    const res = await this.db
      .updateTable('plugin_scheduled_downloads')
      .set({ status: 'cancelled', claim_token: null, claimed_at: null, updated_at: nowIso() } as never)
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where(noLiveClaim(claimCutoff))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
