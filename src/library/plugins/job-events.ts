// after_job_completed / after_job_failed / after_job_cancelled (library-plugins.md §16.3, §16.6):
// when a download-queue job reaches a terminal state its record goes on a bounded queue (256)
// that one dispatcher drains in order, calling each plugin's hooks as the job's owner. Action
// jobs never enter the download queue, so they never emit these events.
import { TERMINAL, type JobQueue, type JobSnapshot, type JobStatus } from '../../core/jobs/queue.js';
import { LuaError } from '../../core/lua/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Principal } from '../auth/principal.js';
import { invocations } from './invocation.js';
import { detached } from './jobs.js';
import type { PluginManager } from './manager.js';

export const JOB_EVENT_QUEUE = 256;
const HOOK_BUDGET_MS = 5000;

interface JobRecord {
  event: string;
  payload: Record<string, unknown>;
  ownerId: number | null;
}

export class JobEventDispatcher {
  private readonly pending: JobRecord[] = [];
  private readonly lastStatus = new Map<string, JobStatus>();
  private draining: Promise<void> | null = null;
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly manager: PluginManager,
    private readonly audit: AuditLog,
    private readonly log: (m: string) => void,
    /** The owner account as a principal (null: none, or gone: actor 0). */
    private readonly principalOf: (userId: number) => Promise<Principal | null> = async () => null,
  ) {}

  watch(queue: JobQueue): void {
    this.unsubscribe = queue.subscribe((e) => {
      const id = e.job.id;
      if (e.type === 'removed') {
        this.lastStatus.delete(id);
        return;
      }
      const before = this.lastStatus.get(id);
      this.lastStatus.set(id, e.job.status);
      if (TERMINAL.has(e.job.status) && (before === undefined || !TERMINAL.has(before))) {
        this.offer(e.job, e.ownerId, queue.payloadOf(id));
      }
    });
  }

  private offer(job: JobSnapshot, ownerId: number | null, payload: unknown): void {
    if (this.closed) return;
    const event = `after_job_${job.status}`;
    if (!this.manager.active().some((p) => (p.registry.hooks.get(event) ?? []).length > 0)) return;
    if (this.pending.length >= JOB_EVENT_QUEUE) {
      this.log(`plugins: job event queue is full; dropped ${event} for job ${job.id}`);
      return;
    }
    const name = payload !== null && typeof payload === 'object' && typeof (payload as { Name?: unknown }).Name === 'string' ? (payload as { Name: string }).Name : '';
    const record: Record<string, unknown> = {
      job_id: job.id,
      source: job.source,
      status: job.status,
      name,
      url: job.source === 'download' ? job.url : '',
      error: job.error ?? '',
    };
    if (job.resourceId) record.resource_id = job.resourceId;
    if (job.totalSize > 0) record.total_size = job.totalSize;
    this.pending.push({ event, payload: record, ownerId });
    this.draining ??= new Promise<void>((resolve) => detached(() => this.drain().finally(resolve)));
  }

  private async drain(): Promise<void> {
    try {
      for (let next = this.pending.shift(); next; next = this.pending.shift()) await this.deliver(next);
    } finally {
      this.draining = null;
    }
  }

  private async deliver(r: JobRecord): Promise<void> {
    const actor = r.ownerId === null ? null : await this.principalOf(r.ownerId).catch(() => null);
    for (const plugin of this.manager.active()) {
      for (const ref of [...(plugin.registry.hooks.get(r.event) ?? [])]) {
        if (plugin.revoked) break;
        try {
          await invocations.run({ actor }, () => ref.call([{ ...r.payload }], { entry: `hook ${r.event}`, budgetMs: HOOK_BUDGET_MS }));
        } catch (e) {
          if (!(e instanceof LuaError)) throw e;
          if (e.kind === 'unavailable') continue;
          this.log(`plugins: ${e.message}`);
          await this.audit.note({ level: 'warning', action: 'plugin', entityType: 'plugin', entityName: plugin.name, message: `"${r.event}" hook failed: ${e.luaMessage}` }).catch(() => undefined);
        }
      }
    }
  }

  /** Stops taking records and waits up to 5 s for the dispatcher (§8.8). */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    if (this.draining) await Promise.race([this.draining, new Promise((r) => setTimeout(r, 5000).unref())]);
  }
}
