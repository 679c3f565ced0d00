// Durable schedule rows (companion §2.6 plugin_schedules, library-plugins.md §19.2–§19.6): one
// per (plugin, schedule id), never deleted; a claim token taken in one conditional update makes
// every due tick run once even when several processes share the database.
import { Repository } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import { noLiveClaim } from '../common/claims.repository.js';
import type { Database } from '../schema/database.js';

export interface ScheduleRow {
  id: number;
  plugin_name: string;
  schedule_id: string;
  every_seconds: number;
  overlap: string;
  next_due_at: string;
  claim_token: string | null;
  claimed_at: string | null;
  last_run_at: string | null;
  last_status: string;
  last_error: string;
  runs: number;
  created_by_user_id: number | null;
}

/** The owner account a run acts as (null when the row has none or the account is gone). */
export interface ScheduleOwner {
  id: number;
  username: string;
  role: string;
  scope_group_id: number | null;
  disabled: unknown;
}

export interface RunRecord {
  lastRunAt: string;
  lastStatus: string;
  lastError: string;
}

const COLUMNS = ['id', 'plugin_name', 'schedule_id', 'every_seconds', 'overlap', 'next_due_at', 'claim_token', 'claimed_at', 'last_run_at', 'last_status', 'last_error', 'runs', 'created_by_user_id'] as const;

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

function normalise(r: Record<string, unknown>): ScheduleRow {
  return {
    ...(r as unknown as ScheduleRow),
    id: Number(r.id),
    every_seconds: Number(r.every_seconds),
    runs: Number(r.runs),
    next_due_at: iso(r.next_due_at),
    claimed_at: r.claimed_at === null ? null : iso(r.claimed_at),
    last_run_at: r.last_run_at === null ? null : iso(r.last_run_at),
    created_by_user_id: r.created_by_user_id === null ? null : Number(r.created_by_user_id),
  };
}

export class PluginScheduleRepository extends Repository<Database> {
  async list(plugin: string): Promise<ScheduleRow[]> {
    const rows = await this.db.selectFrom('plugin_schedules').select(COLUMNS).where('plugin_name', '=', plugin).orderBy('schedule_id').execute();
    return rows.map((r) => normalise(r as Record<string, unknown>));
  }

  async find(plugin: string, scheduleId: string): Promise<ScheduleRow | undefined> {
    const r = await this.db.selectFrom('plugin_schedules').select(COLUMNS).where('plugin_name', '=', plugin).where('schedule_id', '=', scheduleId).executeTakeFirst();
    return r ? normalise(r as Record<string, unknown>) : undefined;
  }

  /**
   * Records a declaration: a new row is due one interval from now; an existing row takes the
   * declared interval and overlap, and `owner` only when `transferOwner` is set.
   */
  async declare(plugin: string, scheduleId: string, everySeconds: number, overlap: string, owner: number | null, transferOwner: boolean, nextDueAt: string): Promise<void> {
    const now = nowIso();
    const update: Record<string, unknown> = { every_seconds: everySeconds, overlap, updated_at: now };
    if (transferOwner) update.created_by_user_id = owner;
    await this.db
      .insertInto('plugin_schedules')
      .values({
        plugin_name: plugin,
        schedule_id: scheduleId,
        every_seconds: everySeconds,
        overlap,
        next_due_at: nextDueAt,
        created_by_user_id: owner,
        created_at: now,
        updated_at: now,
      } as never)
      .onConflict((oc) => oc.columns(['plugin_name', 'schedule_id']).doUpdateSet(update as never))
      .execute();
  }

  /** Due rows with an owner and no live claim, oldest due first. */
  async due(now: string, claimCutoff: string, limit: number): Promise<ScheduleRow[]> {
    const rows = await this.db
      .selectFrom('plugin_schedules')
      .select(COLUMNS)
      .where('next_due_at', '<=', now)
      .where('created_by_user_id', 'is not', null)
      .where(noLiveClaim(claimCutoff))
      .orderBy('next_due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => normalise(r as Record<string, unknown>));
  }

  /** Takes the claim when no live claim holds the row; true when this caller got it. */
  async claim(id: number, token: string, now: string, claimCutoff: string): Promise<boolean> {
    const res = await this.db
      .updateTable('plugin_schedules')
      .set({ claim_token: token, claimed_at: now } as never)
      .where('id', '=', id)
      .where(noLiveClaim(claimCutoff))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async release(id: number, token: string): Promise<void> {
    await this.db.updateTable('plugin_schedules').set({ claim_token: null, claimed_at: null } as never).where('id', '=', id).where('claim_token', '=', token).execute();
  }

  /** Moves the next due time and releases the claim in one update (overlap "allow"). */
  async advance(id: number, token: string, nextDueAt: string): Promise<void> {
    await this.db
      .updateTable('plugin_schedules')
      .set({ next_due_at: nextDueAt, claim_token: null, claimed_at: null, updated_at: nowIso() } as never)
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /**
   * Records a finished run: always the outcome and the run count; with `nextDueAt` also the
   * next due time; with `token` the claim is released in the same update.
   */
  async record(id: number, run: RunRecord, opts: { nextDueAt?: string; token?: string }): Promise<void> {
    const set: Record<string, unknown> = { last_run_at: run.lastRunAt, last_status: run.lastStatus, last_error: run.lastError, updated_at: nowIso() };
    if (opts.nextDueAt !== undefined) set.next_due_at = opts.nextDueAt;
    if (opts.token !== undefined) {
      set.claim_token = null;
      set.claimed_at = null;
    }
    let q = this.db
      .updateTable('plugin_schedules')
      .set((eb) => ({ ...set, runs: eb('runs', '+', 1) }) as never)
      .where('id', '=', id);
    if (opts.token !== undefined) q = q.where('claim_token', '=', opts.token);
    await q.execute();
  }

  async owner(userId: number): Promise<ScheduleOwner | undefined> {
    const r = await this.db.selectFrom('users').select(['id', 'username', 'role', 'scope_group_id', 'disabled']).where('id', '=', userId).executeTakeFirst();
    return r ? { ...r, id: Number(r.id), scope_group_id: r.scope_group_id === null ? null : Number(r.scope_group_id) } : undefined;
  }
}
