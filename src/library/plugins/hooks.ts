// Hook dispatch (library-plugins.md §16): every entity change the services emit goes through
// the event bus; before-hooks may rewrite name/description/meta or veto with mah.abort, after-
// hooks see what was committed. A plugin already running on the call chain is skipped (§16.5).
import type { ChangeEvent, EventBus } from '../../core/events/bus.js';
import { HttpError } from '../../core/http/errors.js';
import { currentLuaChain, LuaError } from '../../core/lua/index.js';
import type { AuditLog } from '../audit/service.js';
import type { Principal } from '../auth/principal.js';
import { actorFor, invocations } from './invocation.js';
import { deferUntilCommit } from './db-tx.js';
import { abortReason } from './mah.js';
import type { LoadedPlugin, PluginManager } from './manager.js';

export const HOOK_BUDGET_MS = 5000;
const HOOKED_ENTITIES = new Set(['resource', 'note', 'group', 'tag', 'category']);
const TEXT_FIELDS: Record<string, string[]> = { tag: ['name', 'description'], category: ['name', 'description'] };

/**
 * The entities an event fires hooks for: each id of a bulk delete, each item of a bulk update,
 * or the one entity of the event (undefined).
 */
function targetsOf(e: ChangeEvent<Principal>): (number | Record<string, unknown> | undefined)[] {
  if (e.action === 'delete' && e.ids) return e.ids;
  if (e.action !== 'delete' && e.items) return e.items;
  return [undefined];
}

/** The payload of §16.3 for one entity of the event. */
function payloadOf(e: ChangeEvent<Principal>, phase: 'before' | 'after', target: number | Record<string, unknown> | undefined): Record<string, unknown> {
  const id = typeof target === 'number' ? target : undefined;
  const data = (typeof target === 'object' ? target : e.data) ?? {};
  if (e.action === 'delete') {
    const out: Record<string, unknown> = { id: id ?? data.id ?? e.id ?? 0 };
    if (phase === 'after' && e.ids === undefined) out.name = data.name ?? e.name ?? '';
    return out;
  }
  const fields = TEXT_FIELDS[e.entityType] ?? ['name', 'description', 'meta'];
  const out: Record<string, unknown> = { id: phase === 'before' && e.action === 'create' ? 0 : (data.id ?? e.id ?? 0) };
  for (const f of fields) out[f] = typeof data[f] === 'string' ? data[f] : '';
  return out;
}

export class HookDispatcher {
  constructor(
    private readonly manager: PluginManager,
    private readonly audit: AuditLog,
    private readonly log: (m: string) => void,
  ) {}

  subscribe(bus: EventBus<Principal>): void {
    bus.onBefore((e) => this.before(e));
    bus.onAfter((e) => this.after(e));
  }

  private handlers(event: string): { plugin: LoadedPlugin; index: number }[] {
    const out: { plugin: LoadedPlugin; index: number }[] = [];
    for (const plugin of this.manager.active()) {
      const list = plugin.registry.hooks.get(event) ?? [];
      for (let i = 0; i < list.length; i++) out.push({ plugin, index: i });
    }
    return out;
  }

  private async skipReentrant(plugin: LoadedPlugin, event: string): Promise<boolean> {
    const chain = currentLuaChain();
    if (!plugin.vm || !chain.includes(plugin.vm)) return false;
    await this.audit.note({
      level: 'warning',
      action: 'plugin',
      entityType: 'plugin',
      entityName: plugin.name,
      message: `skipped "${event}" hook: it is already running on this call chain (${chain.map((v) => v.name).join(' → ')})`,
    });
    return true;
  }

  async before(e: ChangeEvent<Principal>): Promise<void> {
    if (!HOOKED_ENTITIES.has(e.entityType)) return;
    const event = `before_${e.entityType}_${e.action}`;
    const handlers = this.handlers(event);
    if (handlers.length === 0) return;
    const nested = currentLuaChain().length > 0;
    for (const target of targetsOf(e)) {
      for (const { plugin, index } of handlers) {
        const ref = plugin.registry.hooks.get(event)?.[index];
        if (!ref || plugin.revoked) continue;
        if (await this.skipReentrant(plugin, event)) continue;
        const payload = payloadOf(e, 'before', target);
        try {
          const [result] = await invocations.run({ actor: actorFor(e.principal), origin: e.origin }, () =>
            ref.call([payload], { entry: `hook ${event}`, budgetMs: HOOK_BUDGET_MS, result: 'map', lockTimeoutMs: nested ? HOOK_BUDGET_MS : undefined }),
          );
          // A returned table is the data for later hooks and the operation (§16.4): the one
          // entity's data, or this item's of a bulk update (the services write what changed).
          const data = typeof target === 'object' ? target : e.data;
          if (result && typeof result === 'object' && data && e.action !== 'delete') {
            for (const f of TEXT_FIELDS[e.entityType] ?? ['name', 'description', 'meta']) {
              const v = (result as Record<string, unknown>)[f];
              if (typeof v === 'string') data[f] = v;
            }
          }
        } catch (err) {
          if (!(err instanceof LuaError)) throw err;
          const reason = abortReason(err.luaMessage);
          if (reason !== null && err.kind === 'runtime') throw new HttpError(400, `plugin aborted: ${reason}`);
          if (err.kind === 'busy') throw new HttpError(503, `plugin hook could not run: its VM was busy (${plugin.name})`);
          if (err.kind === 'abandoned') throw new HttpError(503, 'plugin was busy and the request was abandoned');
          if (err.kind === 'unavailable') continue;
          this.log(`plugins: ${err.message}`);
        }
      }
    }
  }

  async after(e: ChangeEvent<Principal>): Promise<void> {
    if (!HOOKED_ENTITIES.has(e.entityType)) return;
    const event = `after_${e.entityType}_${e.action}`;
    const handlers = this.handlers(event);
    if (handlers.length === 0) return;
    // Inside a plugin's mah.db.transaction the change is not committed yet (§11.10).
    if (deferUntilCommit(() => this.after(e))) return;
    const nested = currentLuaChain().length > 0;
    const budgetEnds = Date.now() + HOOK_BUDGET_MS;
    for (const target of targetsOf(e)) {
      for (const { plugin, index } of handlers) {
        const ref = plugin.registry.hooks.get(event)?.[index];
        if (!ref || plugin.revoked) continue;
        if (await this.skipReentrant(plugin, event)) continue;
        try {
          await invocations.run({ actor: actorFor(e.principal), origin: e.origin }, () =>
            ref.call([payloadOf(e, 'after', target)], {
              entry: `hook ${event}`,
              budgetMs: HOOK_BUDGET_MS,
              lockTimeoutMs: nested ? Math.max(0, budgetEnds - Date.now()) : undefined,
            }),
          );
        } catch (err) {
          if (!(err instanceof LuaError)) throw err;
          if (err.kind === 'unavailable') continue;
          if (err.kind === 'busy') {
            await this.audit.note({ level: 'warning', action: 'plugin', entityType: 'plugin', entityName: plugin.name, message: `skipped "${event}" hook: its VM was busy` });
            continue;
          }
          this.log(`plugins: ${err.message}`);
        }
      }
    }
  }
}
