// mah.download (library-plugins.md §15): hands a URL to the application's download queue as
// the acting user, now or later. Deferred submissions become scheduled-download rows that the
// scheduler's ticks submit (at most three attempts), list and cancel.
import { HttpError, badRequest, conflict, notFound } from '../../core/http/errors.js';
import { TERMINAL, type JobQueue } from '../../core/jobs/queue.js';
import { luaText, multi } from '../../core/lua/index.js';
import { parseJson } from '../../core/db/values.js';
import { can, type Principal } from '../auth/principal.js';
import { DOWNLOAD, type DownloadService } from '../downloads/service.js';
import type { RemoteParams } from '../downloads/payload.js';
import { inPluginTransaction, refusedInTransaction } from './db-tx.js';
import { DurationError, parseDuration } from './duration.js';
import { currentInvocation } from './invocation.js';
import type { MahPlugin } from './mah.js';
import type { PluginManager } from './manager.js';
import type { PluginHeader } from './manifest.js';
import { ruleMatchesHost } from './network.js';
import type { ScheduleOwner } from './schedules.repository.js';
import { principalFromOwner } from './schedules.js';
import type { ScheduledDownloadRepository, ScheduledDownloadRow } from './scheduled-downloads.repository.js';

const MAX_DELAY_MS = 720 * 3_600_000;
/** 10000-01-01T00:00:00Z in Unix seconds. */
const YEAR_10000 = 253_402_300_800;
const CLAIM_TTL_MS = 60_000;
const DUE_PER_TICK = 100;

export interface DownloadDeps {
  downloads: DownloadService;
  queue: JobQueue;
  rows: ScheduledDownloadRepository;
  manager: PluginManager;
  root: () => Principal;
  /** The account a row's owner id names (null: gone). */
  owner: (userId: number) => Promise<ScheduleOwner | undefined>;
  log: (message: string) => void;
}

type Opts = Record<string, unknown>;

function luaType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'object') return v instanceof Uint8Array ? 'string' : 'table';
  return typeof v;
}

function ids(v: unknown): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0);
}

/** The queue's remote-download parameters for one URL and the submit options. */
function paramsOf(url: string, o: Opts): RemoteParams {
  const p: RemoteParams = { URL: url };
  const name = luaText(o.name);
  if (name) {
    p.Name = name;
    p.FileName = name;
  }
  const description = luaText(o.description);
  if (description !== undefined) p.Description = description;
  if (typeof o.owner_id === 'number' && Number.isInteger(o.owner_id) && o.owner_id > 0) p.OwnerId = o.owner_id;
  const tags = ids(o.tags);
  if (tags) p.Tags = tags;
  const groups = ids(o.groups);
  if (groups) p.Groups = groups;
  const notes = ids(o.notes);
  if (notes) p.Notes = notes;
  if (typeof o.meta === 'string') p.Meta = o.meta;
  else if (o.meta !== null && typeof o.meta === 'object') p.Meta = JSON.stringify(o.meta);
  return p;
}

/** The allowlist layer (a) of §13.5 on the URL's host. */
export function allowlistRefusal(header: PluginHeader, host: string): string | null {
  const rules = header.manifest?.network ?? null;
  if (rules === null || rules.some((r) => ruleMatchesHost(r, host))) return null;
  return `blocked request to ${host}: the plugin's manifest does not list this host in \`network\``;
}

/** The due time of a deferred submission in ms, null when immediate; throws the option error. */
function dueTime(o: Opts): number | null {
  const hasDelay = o.delay !== undefined && o.delay !== null;
  const hasStart = o.start_at !== undefined && o.start_at !== null;
  if (hasDelay && hasStart) throw new Error('start_at and delay are mutually exclusive');
  if (hasDelay) {
    const text = luaText(o.delay);
    if (text === undefined) throw new Error(`delay must be a duration string such as "2h", got ${luaType(o.delay)}`);
    let ms: number;
    try {
      ms = parseDuration(text);
    } catch (e) {
      if (e instanceof DurationError) throw new Error(`delay "${text}" is not a duration: ${e.message}`, { cause: e });
      throw e;
    }
    if (ms < 0) throw new Error(`delay must not be negative, got "${text}"`);
    if (ms > MAX_DELAY_MS) throw new Error(`delay "${text}" exceeds the 30 days maximum`);
    return Date.now() + ms;
  }
  if (hasStart) {
    const s = o.start_at;
    if (typeof s !== 'number') throw new Error(`start_at must be a unix seconds number, got ${luaType(s)}`);
    if (!Number.isFinite(s)) throw new Error('start_at must be a finite unix seconds number');
    if (s < 0) throw new Error('start_at must not be negative');
    if (s >= YEAR_10000) throw new Error('start_at is too large');
    if (s * 1000 < Date.now() - 1000) throw new Error('start_at must not be in the past');
    return s * 1000;
  }
  return null;
}

export function installDownload(plugin: MahPlugin & { header: PluginHeader }, mah: Record<string, unknown>, deps: DownloadDeps): void {
  if (!plugin.capabilities.includes('db:write')) return;
  mah.download = {
    submit: async (url: unknown, options: unknown) => {
      try {
        return await submit(plugin, deps, luaText(url) ?? '', options !== null && typeof options === 'object' ? (options as Opts) : {});
      } catch (e) {
        if (e instanceof HttpError || e instanceof Error) return multi(null, e.message);
        throw e;
      }
    },
  };
}

async function submit(plugin: MahPlugin & { header: PluginHeader }, deps: DownloadDeps, url: string, o: Opts): Promise<unknown> {
  if (inPluginTransaction()) throw new Error(refusedInTransaction('mah.download.submit', 'the queued job would run whatever the transaction decides'));
  if (plugin.revoked || !deps.manager.get(plugin.name)) throw new Error('this plugin is no longer enabled');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('unsupported URL scheme (only http and https are allowed)');
  }
  const refusal = allowlistRefusal(plugin.header, parsed.hostname);
  if (refusal) throw new Error(refusal);
  const due = dueTime(o);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('unsupported URL scheme (only http and https are allowed)');
  if (/[\r\n]/.test(url)) throw new Error('submit one URL at a time');
  const actor = currentInvocation().actor ?? deps.root();
  const params = paramsOf(url, o);
  if (due === null) {
    const [job] = await deps.downloads.submit(actor, params, plugin.name);
    return { id: job.id, url, status: 'pending' };
  }
  await deps.downloads.checkTargets(actor, params);
  const id = await deps.rows.insert(plugin.name, url, JSON.stringify(params), new Date(due).toISOString(), actor.userId);
  return { scheduled: true, scheduled_id: id, start_at: Math.floor(due / 1000) };
}

/** The scheduled-download row JSON of §15.3. */
export function rowJson(r: ScheduledDownloadRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    pluginName: r.plugin_name,
    url: r.url,
    dueAt: r.due_at,
    status: r.status,
    jobId: r.job_id,
    lastError: r.last_error,
    attempts: r.attempts,
    owned: r.created_by_user_id !== null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.claimed_at) out.claimedAt = r.claimed_at;
  return out;
}

export class ScheduledDownloads {
  constructor(private readonly deps: DownloadDeps) {}

  async list(name: string | undefined): Promise<Record<string, unknown>[]> {
    if (!name) throw badRequest('missing plugin name');
    return (await this.deps.rows.list(name)).map(rowJson);
  }

  /** Cancels a pending row; waits briefly for a tick that holds its claim (§15.3). */
  async cancel(rawId: string | undefined): Promise<{ ok: true; id: number; status: 'cancelled' }> {
    if (!rawId || !/^\d+$/.test(rawId.trim()) || !Number.isSafeInteger(Number(rawId))) throw badRequest('id must be an unsigned integer');
    const id = Number(rawId);
    for (let i = 0; i < 100; i++) {
      if (await this.deps.rows.cancelPending(id, new Date(Date.now() - CLAIM_TTL_MS).toISOString())) return { ok: true, id, status: 'cancelled' };
      const row = await this.deps.rows.find(id);
      if (!row) throw notFound(`scheduled download ${id} not found`);
      if (row.status !== 'pending') throw conflict(`scheduled download ${id} is ${row.status}; only a pending download can be cancelled`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw conflict(`scheduled download ${id} is being submitted right now; try again`);
  }

  /** Submits the due rows (one scheduler tick's share, §15.3 Firing). */
  async fire(): Promise<void> {
    const now = new Date();
    const cutoff = () => new Date(Date.now() - CLAIM_TTL_MS).toISOString();
    const due = await this.deps.rows.due(now.toISOString(), cutoff(), DUE_PER_TICK);
    for (const row of due) {
      const token = `${process.pid}-${row.id}-${Date.now()}-${Math.random().toString(16).slice(2)}`;
      if (!(await this.deps.rows.claim(row.id, token, new Date().toISOString(), cutoff()))) continue;
      try {
        await this.fireOne(row, token);
      } catch (e) {
        await this.deps.rows.failAttempt(row.id, token, (e as Error).message);
      }
    }
  }

  private async fireOne(row: ScheduledDownloadRow, token: string): Promise<void> {
    const fail = (message: string) => this.deps.rows.failAttempt(row.id, token, message);
    if (!this.deps.manager.get(row.plugin_name)) {
      return fail(`refusing to submit scheduled download: plugin "${row.plugin_name}" is not enabled or its network policy is unavailable`);
    }
    const params = parseJson<RemoteParams | null>(row.payload, null);
    if (!params || typeof params !== 'object') return fail('the stored download payload is unreadable');
    const owner = row.created_by_user_id === null ? undefined : await this.principal(row.created_by_user_id);
    if (!owner) return fail('scheduled download has no owner');
    if (!can(owner, 'write')) return fail('your role does not have permission to perform this operation');
    const busy = this.deps.queue.list().some((j) => j.source === DOWNLOAD && !TERMINAL.has(j.status) && j.url === row.url);
    if (busy) return this.deps.rows.release(row.id, token);
    try {
      const [job] = await this.deps.downloads.submit(owner, { ...params, URL: row.url }, row.plugin_name);
      await this.deps.rows.submitted(row.id, token, job.id);
    } catch (e) {
      await fail((e as Error).message);
    }
  }

  private async principal(userId: number): Promise<Principal | undefined> {
    const root = this.deps.root();
    if (userId === root.userId) return root;
    const u = await this.deps.owner(userId);
    return u ? principalFromOwner(u) : undefined;
  }
}
