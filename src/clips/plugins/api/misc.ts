// The small Lua modules (companion §8.6): `storage`, `log`, `json`, `base64`, `utils`, `toast`,
// `task`, `modal`. The headless service logs toasts, tasks and modals and keeps the recent ones
// in memory; a modal raised during a synchronous UI action travels back in its response.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { PluginStorage } from '../storage.js';
import { decodeBase64 } from './clips.js';
import { bytesArg, guard, PluginApiError, reason, textArg, withinRate, type PluginInstance } from './common.js';

const TOASTS_PER_MINUTE = 5;
const KEPT_TOASTS = 50;
const TASK_MEMORY_MS = 5 * 60_000;

export interface Toast {
  plugin: string;
  type: 'info' | 'success' | 'error';
  message: string;
  at: number;
}

export interface TaskInfo {
  id: number;
  plugin_id: number;
  name: string;
  total: number;
  current: number;
  status: 'running' | 'completed' | 'failed';
  message?: string;
  finishedAt?: number;
}

/** What a running UI action collects (its modal). */
export interface ActionScope {
  modal: Record<string, unknown> | null;
}
export const actionScope = new AsyncLocalStorage<ActionScope>();

/** Toasts and tasks of every plugin, for the life of the process. */
export class PluginActivity {
  readonly toasts: Toast[] = [];
  readonly tasks = new Map<number, TaskInfo>();
  private nextTask = 1;

  addToast(t: Toast): void {
    this.toasts.push(t);
    if (this.toasts.length > KEPT_TOASTS) this.toasts.splice(0, this.toasts.length - KEPT_TOASTS);
  }

  startTask(pluginId: number, name: string, total: number): TaskInfo {
    this.forgetFinished();
    const task: TaskInfo = { id: this.nextTask++, plugin_id: pluginId, name, total, current: 0, status: 'running' };
    this.tasks.set(task.id, task);
    return task;
  }

  forgetFinished(now = Date.now()): void {
    for (const [id, t] of this.tasks) if (t.finishedAt !== undefined && now - t.finishedAt >= TASK_MEMORY_MS) this.tasks.delete(id);
  }

  /** Tasks still running or finished recently, for the status page. */
  list(): TaskInfo[] {
    this.forgetFinished();
    return [...this.tasks.values()];
  }
}

export interface MiscDeps {
  storage: PluginStorage;
  activity: PluginActivity;
  clock: Clock;
  clipboardWrite: (text: string) => Promise<void>;
}

export function miscModules(plugin: PluginInstance, deps: MiscDeps) {
  const { storage, activity } = deps;
  const percent = (t: TaskInfo) => (t.total <= 0 ? 0 : Math.max(0, Math.min(100, Math.floor((100 * t.current) / t.total))));
  const ownTask = (id: unknown): TaskInfo => {
    const task = typeof id === 'number' && plugin.tasks.has(id) ? activity.tasks.get(id) : undefined;
    if (!task) throw new PluginApiError('task not found');
    return task;
  };
  const finish = (task: TaskInfo, status: 'completed' | 'failed', message?: string) => {
    task.status = status;
    task.finishedAt = Date.now();
    if (message !== undefined) task.message = message;
  };

  return {
    storage: {
      get: guard(async (key: unknown) => (await storage.get(plugin.id, textArg(key, 'key'))) ?? null),
      set: guard(async (key: unknown, value: unknown) => {
        await storage.set(plugin.id, textArg(key, 'key'), textArg(value, 'value'));
        return true;
      }, false),
      delete: guard(async (key: unknown) => {
        await storage.delete(plugin.id, textArg(key, 'key'));
        return true;
      }, false),
      list: guard(async () => storage.keys(plugin.id)),
    },
    log: (message: unknown) => {
      plugin.log(typeof message === 'string' ? message : String(textArg(message ?? 'nil', 'message')));
    },
    json: {
      encode: guard((value: unknown) => JSON.stringify(value ?? null)),
      decode: guard((text: unknown) => {
        try {
          return JSON.parse(textArg(text, 'text')) as unknown;
        } catch (e) {
          throw new PluginApiError(`invalid JSON: ${reason(e)}`);
        }
      }),
    },
    base64: {
      encode: guard((data: unknown) => bytesArg(data, 'data').toString('base64')),
      decode: guard((text: unknown) => decodeBase64(textArg(text, 'text'))),
    },
    utils: {
      time: () => Math.floor(deps.clock.now().getTime() / 1000),
      sha256: guard((data: unknown) => createHash('sha256').update(bytesArg(data, 'data')).digest('hex')),
      hmac_sha256: guard((key: unknown, data: unknown) => createHmac('sha256', bytesArg(key, 'key')).update(bytesArg(data, 'data')).digest('hex')),
      url_encode: guard((s: unknown) => encodeURIComponent(textArg(s, 'text')).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)),
      url_decode: guard((s: unknown) => {
        try {
          return decodeURIComponent(textArg(s, 'text').replace(/\+/g, ' '));
        } catch {
          throw new PluginApiError('invalid URL escape');
        }
      }),
      clipboard_write: guard(async (text: unknown) => {
        if (!plugin.manifest.clipboard) throw new PluginApiError('clipboard access not declared in the manifest');
        await deps.clipboardWrite(textArg(text, 'text'));
        return true;
      }, false),
    },
    toast: {
      show: (message: unknown, type: unknown) => {
        if (!withinRate(plugin, 'toast', TOASTS_PER_MINUTE)) return false;
        let text = typeof message === 'string' ? message : (textArg(message ?? '', 'message') ?? '');
        if ([...text].length > 200) text = `${[...text].slice(0, 197).join('')}...`;
        const kind = type === 'success' || type === 'error' ? type : 'info';
        activity.addToast({ plugin: plugin.name, type: kind, message: text, at: Date.now() });
        plugin.log(`toast ${kind}: ${text}`);
        return true;
      },
    },
    task: {
      start: guard((name: unknown, total: unknown) => {
        const task = activity.startTask(plugin.id, textArg(name ?? 'Task', 'name'), typeof total === 'number' && Number.isFinite(total) ? total : 1);
        plugin.tasks.add(task.id);
        plugin.log(`task ${task.name} started (${task.total} items)`);
        return task.id;
      }),
      progress: guard((id: unknown, current: unknown) => {
        const task = ownTask(id);
        if (typeof current === 'number' && Number.isFinite(current)) task.current = current;
        plugin.log(`task ${task.name}: ${task.current}/${task.total} (${percent(task)}%)`);
        return true;
      }, false),
      complete: guard((id: unknown) => {
        const task = ownTask(id);
        task.current = task.total;
        finish(task, 'completed');
        plugin.log(`task ${task.name} completed`);
        return true;
      }, false),
      fail: guard((id: unknown, message: unknown) => {
        const task = ownTask(id);
        const text = message === undefined || message === null ? 'Unknown error' : textArg(message, 'message');
        finish(task, 'failed', text);
        plugin.log(`task ${task.name} failed: ${text}`);
        return true;
      }, false),
    },
    modal: {
      show: guard((spec: unknown) => {
        const s = spec && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>) : {};
        const title = textArg(s.title ?? '', 'title');
        const content = textArg(s.content ?? '', 'content');
        if ([...title].length > 200) throw new PluginApiError('modal title exceeds 200 characters');
        if (Buffer.byteLength(content) > 1024 * 1024) throw new PluginApiError('modal content exceeds 1 MiB');
        const format = s.format === 'text' || s.format === 'image' ? s.format : 'markdown';
        const modal: Record<string, unknown> = { title, content, format };
        for (const k of ['copy_data', 'paste_data', 'paste_data_base64', 'paste_name', 'paste_content_type']) {
          if (s[k] !== undefined && s[k] !== null) modal[k] = textArg(s[k], k);
        }
        const scope = actionScope.getStore();
        if (scope && scope.modal === null) scope.modal = modal;
        plugin.log(`modal: ${title}`);
        return true;
      }, false),
    },
  };
}
