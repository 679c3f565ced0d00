// The clip plugin host (companion §8.4, §8.5, §8.10, §8.11): one Lua VM per loaded plugin on
// the shared runtime, the host modules installed before the plugin's top-level chunk runs,
// events queued per plugin after their change committed (the request never waits), schedules,
// UI actions, error counting with auto-disable after three failures in a row, and the
// shutdown that lets every `on_shutdown` finish before the store closes.
import { AsyncResource } from 'node:async_hooks';
import { join } from 'node:path';
import { currentLuaChain, LuaError, LuaVm } from '../../core/lua/index.js';
import type { AddressPolicy } from '../../core/net/addresses.js';
import type { MetadataService } from '../clips/metadata.js';
import type { ClipService } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import type { TagService } from '../tags/service.js';
import { ClipApi } from './api/clips.js';
import type { PluginInstance } from './api/common.js';
import { fsModule } from './api/fs.js';
import { httpModules } from './api/http.js';
import { imageModule } from './api/image.js';
import { actionScope, miscModules, PluginActivity, type ActionScope } from './api/misc.js';
import { tagModule } from './api/tags.js';
import { handlerName, type Manifest, type UiAction } from './manifest.js';
import type { PluginRepository, PluginRow } from './repository.js';
import type { PluginStorage } from './storage.js';

export const PLUGIN_MEMORY_BYTES = 50 * 1024 * 1024;
export const AUTO_DISABLE_AFTER = 3;
/** Events waiting for one plugin beyond this are dropped (logged): a stuck plugin must not hoard memory. */
const MAX_QUEUE = 10_000;
const HIDDEN = ['rawequal', 'rawget', 'rawset', 'getmetatable', 'setmetatable', 'collectgarbage'];

export interface HostDeps {
  ctx: ClipContext;
  repo: PluginRepository;
  storage: PluginStorage;
  clips: ClipService;
  tags: TagService;
  metadata: MetadataService;
  clipboardWrite: (text: string) => Promise<void>;
  policy: AddressPolicy;
  handlerTimeoutMs: number;
  actionTimeoutMs: number;
  log: (msg: string) => void;
}

interface QueuedEvent {
  event: string;
  payload: unknown;
}

interface Loaded extends PluginInstance {
  vm: LuaVm;
  filename: string;
  /** Handler functions the chunk defined, by event. */
  handlers: Set<string>;
  queue: QueuedEvent[];
  pumping: boolean;
  idleWaiters: (() => void)[];
  timers: NodeJS.Timeout[];
  runningSchedules: Set<string>;
  errorCount: number;
  unloaded: boolean;
}

export interface ActionResult {
  success: boolean;
  error?: string;
  result_clip_id?: number;
  modal?: Record<string, unknown>;
}

export class PluginHost {
  readonly activity = new PluginActivity();
  private readonly loaded = new Map<number, Loaded>();
  /** Pumps and timers run outside any request's or plugin call's async context. */
  private readonly root = new AsyncResource('clip-plugin-host');
  private shuttingDown = false;
  private readonly clipApi: ClipApi;

  constructor(private readonly deps: HostDeps) {
    this.clipApi = new ClipApi({ ctx: deps.ctx, clips: deps.clips, metadata: deps.metadata });
    deps.ctx.events.subscribe((name, payload) => this.dispatch(name, payload));
  }

  get pluginDir(): string {
    return join(this.deps.ctx.config.dataDir, 'plugins');
  }

  privateDir(id: number): string {
    return join(this.deps.ctx.config.dataDir, 'plugin-data', String(id));
  }

  isLoaded(id: number): boolean {
    return this.loaded.has(id);
  }

  loadedManifests(): { id: number; manifest: Manifest }[] {
    return [...this.loaded.values()].sort((a, b) => a.id - b.id).map((p) => ({ id: p.id, manifest: p.manifest }));
  }

  /**
   * Starts a plugin: a fresh VM, every host module installed, then the top-level chunk under the
   * handler limit. Throws the LuaError of a failed load (the VM is gone then).
   */
  async start(row: PluginRow, source: string, manifest: Manifest): Promise<void> {
    await this.unload(row.id);
    const { deps } = this;
    const name = manifest.name;
    const logLine = (message: string) => deps.log(`[plugin:${name}] ${message}`);
    let crashed = false;
    const vm = await LuaVm.create({
      name,
      memoryLimitBytes: PLUGIN_MEMORY_BYTES,
      coroutines: false,
      hiddenGlobals: HIDDEN,
      log: (_level, message) => logLine(message),
      onCrash: () => {
        crashed = true;
      },
    });
    const p: Loaded = {
      id: row.id,
      name,
      manifest,
      filename: row.filename,
      privateDir: this.privateDir(row.id),
      tasks: new Set(),
      rates: new Map(),
      log: logLine,
      vm,
      handlers: new Set(),
      queue: [],
      pumping: false,
      idleWaiters: [],
      timers: [],
      runningSchedules: new Set(),
      errorCount: row.error_count,
      unloaded: false,
    };
    try {
      const net = httpModules(p, { policy: deps.policy, clipApi: this.clipApi });
      const misc = miscModules(p, { storage: deps.storage, activity: this.activity, clock: deps.ctx.clock, clipboardWrite: deps.clipboardWrite });
      const globals: Record<string, unknown> = {
        clips: { ...this.clipApi.module(), create_from_url: net.createFromUrl },
        tags: tagModule(deps.ctx, deps.tags, deps.clips),
        metadata: this.clipApi.metadataModule(),
        http: net.http,
        fs: fsModule(p, () => deps.repo.effectiveGrants(row.id)),
        image: imageModule(this.clipApi),
        ...misc,
      };
      await vm.exclusive(async (session) => {
        for (const [key, value] of Object.entries(globals)) await session.setGlobal(key, value);
        await session.load(source, { chunkName: row.filename, entry: 'top-level code', budgetMs: deps.handlerTimeoutMs });
        for (const event of manifest.events) {
          if ((await session.globalType(handlerName(event))) === 'function') p.handlers.add(event);
        }
      });
    } catch (e) {
      await vm.terminate();
      throw e;
    }
    if (crashed) throw new Error('the plugin crashed while loading');
    this.loaded.set(row.id, p);
    this.startSchedules(p);
  }

  /** Stops a plugin: timers off, queue dropped, VM ended (a running call fails, uncounted). */
  async unload(id: number): Promise<void> {
    const p = this.loaded.get(id);
    if (!p) return;
    this.loaded.delete(id);
    p.unloaded = true;
    for (const t of p.timers) clearInterval(t);
    p.queue.length = 0;
    for (const t of p.tasks) this.activity.tasks.delete(t);
    await p.vm.terminate();
    this.settleIdle(p);
  }

  async unloadAll(): Promise<void> {
    await Promise.all([...this.loaded.keys()].map((id) => this.unload(id)));
  }

  // Events.

  private dispatch(event: string, payload: unknown): void {
    if (this.loaded.size === 0) return;
    if (this.shuttingDown) return;
    // Loop protection: a plugin does not hear about its own changes.
    const chain = currentLuaChain();
    for (const p of this.loaded.values()) {
      if (!p.manifest.events.includes(event) || chain.includes(p.vm)) continue;
      this.enqueue(p, event, payload);
    }
  }

  /** Broadcasts a host event (app:startup) to every loaded subscriber. */
  broadcast(event: 'app:startup' | 'app:shutdown'): void {
    for (const p of this.loaded.values()) if (p.manifest.events.includes(event)) this.enqueue(p, event, undefined);
  }

  private enqueue(p: Loaded, event: string, payload: unknown): void {
    if (p.queue.length >= MAX_QUEUE) {
      p.log(`event queue full, ${event} dropped`);
      return;
    }
    p.queue.push({ event, payload });
    if (!p.pumping) {
      p.pumping = true;
      this.root.runInAsyncScope(() => void this.pump(p));
    }
  }

  private async pump(p: Loaded): Promise<void> {
    try {
      while (!p.unloaded && p.queue.length > 0) {
        const { event, payload } = p.queue.shift()!;
        if (!p.handlers.has(event)) continue;
        try {
          await p.vm.call(handlerName(event), payload === undefined ? [] : [payload], { entry: `event ${event}`, budgetMs: this.deps.handlerTimeoutMs });
          await this.succeeded(p);
        } catch (e) {
          await this.failed(p, e, `event ${event}`);
        }
      }
    } finally {
      p.pumping = false;
      this.settleIdle(p);
    }
  }

  private settleIdle(p: Loaded): void {
    if (p.pumping && !p.unloaded) return;
    for (const w of p.idleWaiters.splice(0)) w();
  }

  /** Resolves once every queued event of every plugin has been handled (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(
      [...this.loaded.values()].map((p) => (p.pumping ? new Promise<void>((r) => p.idleWaiters.push(r)) : undefined)),
    );
  }

  private async succeeded(p: Loaded): Promise<void> {
    if (p.errorCount === 0 || p.unloaded) return;
    p.errorCount = 0;
    await this.deps.repo.setErrors(p.id, 0, null);
  }

  /** A counted failure: three in a row disable the plugin with status error. */
  private async failed(p: Loaded, e: unknown, what: string): Promise<void> {
    if (p.unloaded) return;
    const message = e instanceof LuaError ? e.luaMessage : (e as Error).message;
    p.log(`${what} failed: ${message}`);
    p.errorCount++;
    if (p.errorCount >= AUTO_DISABLE_AFTER) {
      p.log(`disabled after ${p.errorCount} consecutive errors`);
      // The state is written before the unload: unloading releases idle() waiters, and anyone
      // released must already read the plugin as disabled.
      await this.deps.repo.setState(p.id, { enabled: false, status: 'error', error_count: p.errorCount, last_error: message, now: this.deps.clips.now() });
      await this.unload(p.id);
      return;
    }
    await this.deps.repo.setErrors(p.id, p.errorCount, message);
    if (p.vm.state === 'crashed') await this.restartCrashed(p);
  }

  /** A VM the watchdog killed comes back fresh (the top-level chunk runs again). */
  private async restartCrashed(p: Loaded): Promise<void> {
    const pending = p.queue.splice(0);
    const row = await this.deps.repo.find(p.id);
    if (!row) return;
    try {
      const { readFile } = await import('node:fs/promises');
      await this.start({ ...row, error_count: p.errorCount }, await readFile(join(this.pluginDir, p.filename), 'utf8'), p.manifest);
      const fresh = this.loaded.get(p.id);
      for (const q of pending) if (fresh) this.enqueue(fresh, q.event, q.payload);
    } catch (e) {
      p.log(`could not be restarted: ${(e as Error).message}`);
      await this.deps.repo.setState(p.id, { enabled: false, status: 'error', last_error: (e as Error).message, now: this.deps.clips.now() });
    }
  }

  // Schedules (companion §8.10): the global function named like the schedule, every interval.

  private startSchedules(p: Loaded): void {
    for (const s of p.manifest.schedules) {
      const timer = setInterval(() => this.root.runInAsyncScope(() => void this.tick(p, s.name)), Math.max(1, s.interval * 1000));
      timer.unref();
      p.timers.push(timer);
    }
  }

  private async tick(p: Loaded, name: string): Promise<void> {
    if (p.unloaded || p.runningSchedules.has(name) || this.shuttingDown) return;
    p.runningSchedules.add(name);
    try {
      if ((await p.vm.globalType(name)) !== 'function') return;
      await p.vm.call(name, [], { entry: `schedule ${name}`, budgetMs: this.deps.handlerTimeoutMs });
    } catch (e) {
      if (!p.unloaded) p.log(`schedule ${name} failed: ${e instanceof LuaError ? e.luaMessage : (e as Error).message}`);
    } finally {
      p.runningSchedules.delete(name);
    }
  }

  // UI actions (companion §8.11).

  findAction(id: number, actionId: string): UiAction | undefined {
    const p = this.loaded.get(id);
    if (!p) return undefined;
    const { ui } = p.manifest;
    return [...ui.lightbox_buttons, ...ui.card_actions, ...ui.global_actions].find((a) => a.id === actionId);
  }

  /** Runs `on_ui_action`; failures are reported in the result, never thrown. */
  async runAction(id: number, action: UiAction, clipIds: number[], options: Record<string, unknown>): Promise<ActionResult> {
    const p = this.loaded.get(id);
    if (!p) return { success: false, error: 'plugin is disabled' };
    const scope: ActionScope = { modal: null };
    try {
      const results = await this.root.runInAsyncScope(() =>
        actionScope.run(scope, () =>
          p.vm.call('on_ui_action', [action.id, clipIds, options], { entry: `action ${action.id}`, budgetMs: this.deps.actionTimeoutMs, result: 'map' }),
        ),
      );
      const r = (results[0] && typeof results[0] === 'object' ? results[0] : {}) as Record<string, unknown>;
      const out: ActionResult = { success: r.success !== false };
      if (typeof r.error === 'string') out.error = r.error;
      if (typeof r.result_clip_id === 'number') out.result_clip_id = r.result_clip_id;
      if (scope.modal) out.modal = scope.modal;
      else if (r.modal && typeof r.modal === 'object') out.modal = r.modal as Record<string, unknown>;
      // Only a Lua error or a timeout is a failure; a handler answering success = false is not.
      if (action.async) await this.succeeded(p);
      return out;
    } catch (e) {
      const message = e instanceof LuaError ? e.luaMessage : (e as Error).message;
      if (action.async) await this.failed(p, e, `action ${action.id}`);
      else {
        p.log(`action ${action.id} failed: ${message}`);
        if (p.vm.state === 'crashed') await this.restartCrashed(p);
      }
      return { success: false, error: message };
    }
  }

  // Start-up, shutdown and restore.

  /** Waits for every queued event, app:shutdown included, then ends every VM. */
  async shutdown(): Promise<void> {
    this.broadcast('app:shutdown');
    this.shuttingDown = true;
    await this.idle();
    await this.unloadAll();
  }
}
