// Running plugin code as an action job (library-plugins.md §17.6, §18): async action handlers,
// mah.start_job functions and schedule runs share the outcome rules here; mah.start_job and the
// reporters mah.job_progress / job_complete / job_fail are installed from here too.
import { LuaError, LuaFunctionRef, luaText } from '../../core/lua/index.js';
import { frames } from '../../core/lua/vm.js';
import type { Principal } from '../auth/principal.js';
import type { ActionJobStore } from './action-jobs.js';
import { currentInvocation, invocations } from './invocation.js';
import { abortReason, type MahPlugin } from './mah.js';

export const JOB_BUDGET_MS = 5 * 60 * 1000;

/** What a run needs of its plugin: the VM to lock, and whether it is still live. */
export interface JobPlugin extends MahPlugin {
  readonly vm?: { exclusive: import('../../core/lua/index.js').LuaVm['exclusive'] };
}

export interface JobRun {
  store: ActionJobStore;
  jobId: string;
  plugin: JobPlugin;
  fn: LuaFunctionRef;
  args: unknown[];
  actor: Principal | null;
  entry: string;
  /** Async actions use a returned table as the result; start_job and schedules ignore it. */
  useResult: boolean;
  /** Give up waiting for the VM lock after this long (schedules); default: wait. */
  lockTimeoutMs?: number;
}

/** The message a failed Lua call leaves on its job: the abort reason, or the Lua error. */
export function failureText(e: unknown): string {
  if (e instanceof LuaError) return abortReason(e.luaMessage) ?? e.luaMessage;
  return (e as Error).message || String(e);
}

/**
 * Runs the job's function under the plugin's VM lock (the caller holds a job slot) and records
 * the outcome. Answers false when the VM lock was not obtained within `lockTimeoutMs`: the
 * job never started and is left pending for the caller to remove.
 */
export async function executeJob(run: JobRun): Promise<boolean> {
  const { store, jobId } = run;
  const vm = run.plugin.vm;
  try {
    if (!vm || run.plugin.revoked) throw new Error('plugin has been disabled');
    const [returned] = await invocations.run({ actor: run.actor }, () =>
      vm.exclusive(
        async (session) => {
          store.start(jobId);
          return session.call(run.fn, run.args, { entry: run.entry, budgetMs: JOB_BUDGET_MS, result: 'map' });
        },
        { entry: run.entry, lockTimeoutMs: run.lockTimeoutMs },
      ),
    );
    const status = store.statusOf(jobId);
    if (run.useResult && returned !== null && typeof returned === 'object' && !Array.isArray(returned) && status !== 'failed') {
      store.complete(jobId, returned as Record<string, unknown>);
    } else if (!store.finished(jobId)) {
      store.complete(jobId);
    }
  } catch (e) {
    if (e instanceof LuaError && e.kind === 'busy' && store.statusOf(jobId) === 'pending') return false;
    if (!store.finished(jobId)) store.fail(jobId, failureText(e));
  }
  return true;
}

/** Takes a slot (waiting as long as needed), runs, and frees the slot. */
export async function runInSlot(run: JobRun): Promise<void> {
  await run.store.acquireSlot();
  try {
    await executeJob(run);
  } finally {
    run.store.releaseSlot();
  }
}

/**
 * Starts work outside the current call chain: a job started from inside a plugin's handler
 * is a new entry point, not a nested call of the handler that started it.
 */
export function detached(work: () => Promise<unknown>): void {
  frames.exit(() => invocations.exit(() => setImmediate(() => void work().catch(() => undefined))));
}

/** The owner a job records: none for the super-user and with authentication off. */
export function ownerOf(actor: Principal | null): number | null {
  return actor === null || actor.superUser ? null : actor.userId;
}

function clampPercent(v: unknown): number {
  const n = typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
  return Math.max(0, Math.min(100, n));
}

/** Only the string keys of a returned or reported table (§9.5 "map"). */
function mapOf(v: unknown): Record<string, unknown> | undefined {
  if (v === null || typeof v !== 'object' || v instanceof LuaFunctionRef) return undefined;
  if (Array.isArray(v)) return {};
  return { ...(v as Record<string, unknown>) };
}

/** Installs mah.start_job (capability jobs) and the reporters (actions or jobs). */
export function installJobs(plugin: JobPlugin, mah: Record<string, unknown>, store: ActionJobStore): void {
  const has = (c: string) => (plugin.capabilities as readonly string[]).includes(c);
  const own = (id: unknown, fn: string): string => {
    const text = luaText(id) ?? '';
    if (store.pluginOf(text) !== plugin.name) throw new Error(`bad argument #1 to '${fn}' (unknown job_id)`);
    return text;
  };
  if (has('jobs')) {
    mah.start_job = (label: unknown, fn: unknown) => {
      if (plugin.revoked) throw new Error('plugin has been disabled');
      if (!(fn instanceof LuaFunctionRef)) throw new Error("bad argument #2 to 'start_job' (function expected)");
      const actor = currentInvocation().actor;
      const job = store.create({ pluginName: plugin.name, actionId: 'start_job', label: luaText(label) ?? '', entityId: 0, entityType: 'custom', ownerId: ownerOf(actor) });
      // Its own entry point, later: the caller holds the VM lock until it returns.
      detached(() => runInSlot({ store, jobId: job.id, plugin, fn, args: [job.id], actor, entry: `job ${job.id}`, useResult: false }));
      return job.id;
    };
  }
  if (has('jobs') || has('actions')) {
    mah.job_progress = (id: unknown, percent: unknown, message: unknown) => {
      const jobId = own(id, 'job_progress');
      const text = luaText(message);
      if (text === undefined) throw new Error("bad argument #3 to 'job_progress' (string expected)");
      store.progress(jobId, clampPercent(percent), text);
    };
    mah.job_complete = (id: unknown, result: unknown) => {
      store.complete(own(id, 'job_complete'), mapOf(result));
    };
    mah.job_fail = (id: unknown, message: unknown) => {
      store.fail(own(id, 'job_fail'), luaText(message) ?? '');
    };
  }
}
