// Schedules (library-plugins.md §19): mah.schedule registrations live with the plugin; their
// rows are durable. The scheduler ticks, claims due rows and runs each as an action job owned by
// the row's owner; "run now" claims a row on request. A tick also fires due scheduled downloads.
import { randomBytes } from 'node:crypto';
import { conflict, notFound, badRequest } from '../../core/http/errors.js';
import { LuaFunctionRef, luaText } from '../../core/lua/index.js';
import { bool } from '../../core/db/values.js';
import type { Principal, Role } from '../auth/principal.js';
import type { ActionJobStore } from './action-jobs.js';
import { DurationError, parseDuration } from './duration.js';
import { detached, executeJob, ownerOf, type JobPlugin } from './jobs.js';
import type { MahPlugin } from './mah.js';
import type { LoadedPlugin, PluginManager } from './manager.js';
import type { PluginScheduleRepository, ScheduleOwner, ScheduleRow } from './schedules.repository.js';

export interface ScheduleDef {
  id: string;
  everySeconds: number;
  overlap: 'skip' | 'allow';
  handler: LuaFunctionRef;
}

const registered = new WeakMap<MahPlugin, ScheduleDef[]>();

export function schedulesOf(plugin: MahPlugin): ScheduleDef[] {
  return registered.get(plugin) ?? [];
}

const MIN_EVERY_MS = 30_000;
const MAX_EVERY_MS = 8760 * 3_600_000;
const SCHEDULE_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A claim older than this is abandoned: 10 s wait + 5 min run + 2 min slack. */
export const CLAIM_TTL_MS = 10_000 + 5 * 60_000 + 2 * 60_000;
const START_WAIT_MS = 10_000;
const DUE_PER_TICK = 100;
const MAX_ERROR = 1900;

function luaType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (v instanceof LuaFunctionRef) return 'function';
  if (typeof v === 'object') return v instanceof Uint8Array ? 'string' : 'table';
  return typeof v;
}

/** Reads a mah.schedule table, or raises what is wrong with it (§19.1). */
export function parseSchedule(raw: unknown, existing: readonly ScheduleDef[]): ScheduleDef {
  const t = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const id = luaText(t.id);
  if (id === undefined) throw new Error('mah.schedule: id must be a string naming this schedule');
  if (!SCHEDULE_ID.test(id)) throw new Error(`mah.schedule: id "${id}" must be 1-100 characters of letters, digits, underscore or hyphen`);
  if (existing.some((s) => s.id === id)) throw new Error(`mah.schedule: schedule "${id}" is already registered; each schedule id may be used once per plugin`);
  const every = luaText(t.every);
  if (every === undefined) throw new Error(`mah.schedule "${id}": every must be a duration string such as "15m", got ${luaType(t.every)}`);
  let ms: number;
  try {
    ms = parseDuration(every);
  } catch (e) {
    if (e instanceof DurationError) throw new Error(`mah.schedule "${id}": every "${every}" is not a duration: ${e.message}`, { cause: e });
    throw e;
  }
  if (ms < MIN_EVERY_MS) throw new Error(`mah.schedule "${id}": every "${every}" is below the 30s minimum; schedules run at most every 30 seconds`);
  if (ms > MAX_EVERY_MS) throw new Error(`mah.schedule "${id}": every "${every}" is above the 8760h (365 days) maximum`);
  let overlap: 'skip' | 'allow' = 'skip';
  if (t.overlap !== undefined && t.overlap !== null) {
    if (typeof t.overlap !== 'string') throw new Error(`mah.schedule "${id}": overlap must be a string, got ${luaType(t.overlap)}`);
    if (t.overlap !== 'skip' && t.overlap !== 'allow') throw new Error(`mah.schedule "${id}": overlap "${t.overlap}" must be "skip" or "allow"`);
    overlap = t.overlap;
  }
  if (!(t.handler instanceof LuaFunctionRef)) throw new Error(`mah.schedule "${id}": handler must be a function, got ${luaType(t.handler)}`);
  return { id, everySeconds: Math.floor(ms / 1000), overlap, handler: t.handler };
}

export function installSchedules(plugin: MahPlugin, mah: Record<string, unknown>): void {
  if (!plugin.capabilities.includes('schedule')) return;
  mah.schedule = (raw: unknown) => {
    const def = parseSchedule(raw, schedulesOf(plugin));
    if (plugin.revoked) return;
    const list = registered.get(plugin) ?? [];
    list.push(def);
    registered.set(plugin, list);
  };
}

/** An owner account as the principal its work runs as; a disabled account sees nothing. */
export function principalFromOwner(u: ScheduleOwner): Principal {
  if (bool(u.disabled)) return { userId: u.id, username: u.username, role: 'guest', scopeGroupId: null, superUser: false };
  return { userId: u.id, username: u.username, role: u.role as Role, scopeGroupId: u.scope_group_id, superUser: false };
}

/** The schedule row JSON of §19.2. */
export interface ScheduleJson {
  scheduleId: string;
  pluginName: string;
  everySeconds: number;
  overlap: string;
  nextDueAt: string;
  runs: number;
  lastStatus: string;
  lastError: string;
  lastRunAt?: string;
  owned: boolean;
  registered: boolean;
}

const isoAfter = (ms: number) => new Date(Date.now() + ms).toISOString();

function truncateError(text: string): string {
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR)}... (truncated)` : text;
}

export interface SchedulerDeps {
  manager: PluginManager;
  rows: PluginScheduleRepository;
  store: ActionJobStore;
  tickMs: number;
  /** Whether -auth is on (ownership of rows created at start-up). */
  authEnabled: boolean;
  /** The root administrator (owner while authentication is off). */
  root: () => Principal;
  log: (message: string) => void;
  /** Further work each tick (due scheduled downloads). */
  onTick?: () => Promise<void>;
}

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: SchedulerDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs);
    this.timer.unref();
  }

  /** Stops ticking and waits up to 10 s for runs in flight (§8.8). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const deadline = new Promise((r) => setTimeout(r, 10_000).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
  }

  /** Records the plugin's declared schedules after a load: owner = who enabled it (§19.4). */
  async declare(plugin: LoadedPlugin, by: Principal | undefined): Promise<void> {
    for (const s of schedulesOf(plugin)) {
      const next = isoAfter(s.everySeconds * 1000);
      if (by) await this.deps.rows.declare(plugin.name, s.id, s.everySeconds, s.overlap, by.userId, true, next);
      else await this.deps.rows.declare(plugin.name, s.id, s.everySeconds, s.overlap, this.deps.authEnabled ? null : this.deps.root().userId, false, next);
    }
  }

  async list(name: string | undefined): Promise<ScheduleJson[]> {
    if (!name) throw badRequest('missing plugin name');
    const plugin = this.deps.manager.get(name);
    const declared = new Set(plugin ? schedulesOf(plugin).map((s) => s.id) : []);
    return (await this.deps.rows.list(name)).map((r) => {
      const out: ScheduleJson = {
        scheduleId: r.schedule_id,
        pluginName: r.plugin_name,
        everySeconds: r.every_seconds,
        overlap: r.overlap,
        nextDueAt: r.next_due_at,
        runs: r.runs,
        lastStatus: r.last_status,
        lastError: r.last_error,
        owned: r.created_by_user_id !== null,
        registered: declared.has(r.schedule_id),
      };
      if (r.last_run_at) out.lastRunAt = r.last_run_at;
      return out;
    });
  }

  private declared(pluginName: string, scheduleId: string): { plugin: LoadedPlugin; def: ScheduleDef } | undefined {
    const plugin = this.deps.manager.get(pluginName);
    const def = plugin && schedulesOf(plugin).find((s) => s.id === scheduleId);
    return plugin && def ? { plugin, def } : undefined;
  }

  /** POST /v1/plugin/schedule/run (§19.6): claims the row and runs it in the background. */
  async runNow(name: string | undefined, scheduleId: string | undefined): Promise<void> {
    if (!name) throw badRequest('missing plugin name');
    if (!scheduleId) throw badRequest('missing schedule id');
    const row = await this.deps.rows.find(name, scheduleId);
    const what = `${name}/${scheduleId}`;
    if (!row) throw notFound(`no such plugin schedule: ${what}`);
    const found = this.declared(name, scheduleId);
    if (!found) throw conflict(`the plugin does not currently declare this schedule: ${what}`);
    if (row.created_by_user_id === null) throw conflict(`this schedule has stopped because it has no owner: ${what}`);
    const token = randomBytes(16).toString('hex');
    const now = new Date();
    if (!(await this.deps.rows.claim(row.id, token, now.toISOString(), new Date(now.getTime() - CLAIM_TTL_MS).toISOString()))) {
      throw conflict(`this schedule is already running: ${what}`);
    }
    this.track(async () => {
      const outcome = await this.execute(found.plugin, found.def, row, START_WAIT_MS, START_WAIT_MS);
      if (outcome) await this.deps.rows.record(row.id, outcome, { token });
      else {
        await this.deps.rows.release(row.id, token);
        this.deps.log(`plugins: schedule ${what} could not start within 10s (no job slot or the plugin was busy)`);
      }
    });
  }

  /** One tick: due schedules, then due scheduled downloads. Ticks never overlap. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = new Date();
      const due = await this.deps.rows.due(now.toISOString(), new Date(now.getTime() - CLAIM_TTL_MS).toISOString(), DUE_PER_TICK);
      for (const row of due) {
        const found = this.declared(row.plugin_name, row.schedule_id);
        if (!found) continue;
        const token = randomBytes(16).toString('hex');
        const at = new Date();
        if (!(await this.deps.rows.claim(row.id, token, at.toISOString(), new Date(at.getTime() - CLAIM_TTL_MS).toISOString()))) continue;
        this.track(() => this.dispatch(found.plugin, found.def, row, token));
      }
      await this.deps.onTick?.();
    } catch (e) {
      this.deps.log(`plugins: scheduler tick failed: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private async dispatch(plugin: LoadedPlugin, def: ScheduleDef, row: ScheduleRow, token: string): Promise<void> {
    const next = () => isoAfter(def.everySeconds * 1000);
    if (def.overlap === 'allow') {
      await this.deps.rows.advance(row.id, token, next());
      const outcome = await this.execute(plugin, def, row, START_WAIT_MS, undefined);
      if (outcome) await this.deps.rows.record(row.id, outcome, {});
      return;
    }
    const outcome = await this.execute(plugin, def, row, START_WAIT_MS, START_WAIT_MS);
    if (outcome) await this.deps.rows.record(row.id, outcome, { token, nextDueAt: next() });
    else await this.deps.rows.release(row.id, token);
  }

  /**
   * A run (§19.5): an action job owned by the row owner, the handler called as that owner.
   * Waits at most `slotWaitMs` for a job slot and, when `lockWaitMs` is set, at most that much
   * in total for the VM lock too. Answers the outcome, or null when the run never started.
   */
  private async execute(plugin: LoadedPlugin, def: ScheduleDef, row: ScheduleRow, slotWaitMs: number, lockWaitMs: number | undefined) {
    const actor = await this.ownerPrincipal(row.created_by_user_id);
    if (!actor) return null;
    const started = Date.now();
    const store = this.deps.store;
    const job = store.create({ pluginName: plugin.name, actionId: `schedule:${def.id}`, label: `${plugin.name}: ${def.id}`, entityId: 0, entityType: 'custom', ownerId: ownerOf(actor) });
    if (!(await store.acquireSlot(slotWaitMs))) {
      store.remove(job.id);
      return null;
    }
    try {
      const lockTimeoutMs = lockWaitMs === undefined ? undefined : Math.max(0, lockWaitMs - (Date.now() - started));
      const ran = await executeJob({ store, jobId: job.id, plugin: plugin as JobPlugin, fn: def.handler, args: [job.id], actor, entry: `schedule ${def.id}`, useResult: false, lockTimeoutMs });
      if (!ran) {
        store.remove(job.id);
        return null;
      }
    } finally {
      store.releaseSlot();
    }
    const finished = store.get(job.id);
    const failed = finished?.status === 'failed';
    return { lastRunAt: new Date().toISOString(), lastStatus: failed ? 'failed' : 'completed', lastError: failed ? truncateError(finished.message) : '' };
  }

  /** The owner as a principal; a disabled account runs with the deny-all scope (§19.4). */
  private async ownerPrincipal(userId: number | null): Promise<Principal | null> {
    if (userId === null) return null;
    const root = this.deps.root();
    if (!this.deps.authEnabled && userId === root.userId) return root;
    const u = await this.deps.rows.owner(userId);
    return u ? principalFromOwner(u) : null;
  }

  private track(work: () => Promise<void>): void {
    const p = new Promise<void>((resolve) => {
      detached(() =>
        work()
          .catch((e: unknown) => this.deps.log(`plugins: schedule run failed: ${(e as Error).message}`))
          .finally(resolve),
      );
    });
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
