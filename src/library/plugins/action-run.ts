// Running an action (library-plugins.md §17.4): the checks in the order the spec lists them,
// then one handler call per entity (sync) or one action job per entity (async).
import { HttpError, badRequest, forbidden, notFound } from '../../core/http/errors.js';
import { LuaError } from '../../core/lua/index.js';
import { isScoped, type Principal } from '../auth/principal.js';
import type { ScopedAccess } from '../auth/scoped-access.js';
import { visibilityOf } from '../auth/visibility.js';
import type { RequestOrigin } from '../../core/events/bus.js';
import type { ActionJobStore } from './action-jobs.js';
import { entityRefs, stripHidden, validateParams, type FieldError } from './action-params.js';
import type { ActionTargetsRepository } from './action-targets.repository.js';
import { actionsOf, filtersMatch, hasFilters, runnableActions, type ActionDef } from './actions.js';
import { actorFor, currentInvocation, invocations } from './invocation.js';
import { detached, failureText, ownerOf, runInSlot } from './jobs.js';
import { abortReason } from './mah.js';
import type { LoadedPlugin, PluginManager } from './manager.js';

export const SYNC_ACTION_BUDGET_MS = 5000;

/** 400 with `{errors: [...]}` (parameter, entity_ref and filter failures). */
export class ActionInvalid extends HttpError {
  constructor(readonly errors: FieldError[]) {
    super(400, errors.map((e) => e.message).join('; '), { errors });
  }
}

export interface RunRequest {
  plugin: string;
  action: string;
  entityIds: number[];
  params: Record<string, unknown>;
}

export type RunReply = { status: number; body: unknown };

export class ActionRunner {
  constructor(
    private readonly manager: PluginManager,
    private readonly store: ActionJobStore,
    private readonly targets: ActionTargetsRepository,
    private readonly scoped: ScopedAccess,
    private readonly maxEntities: number,
  ) {}

  /** Actions of loaded plugins for one entity kind, in plugin-name then registration order. */
  list(principal: Principal, entity: string, values: { contentType?: string; categoryId?: number; noteTypeId?: number } | null): ActionDef[] {
    return runnableActions(this.manager, principal, entity).filter((a) => values === null || filtersMatch(a.filters, values));
  }

  private lookup(pluginName: string, actionId: string): { plugin: LoadedPlugin; action: ActionDef } {
    const plugin = this.manager.get(pluginName);
    if (!plugin) throw notFound(`no plugin "${pluginName}" registered`);
    const action = actionsOf(plugin).find((a) => a.id === actionId);
    if (!action) throw notFound(`no action "${actionId}" registered for plugin "${pluginName}"`);
    return { plugin, action };
  }

  async run(principal: Principal, origin: RequestOrigin | undefined, req: RunRequest, signal: AbortSignal): Promise<RunReply> {
    if (!req.plugin || !req.action) throw badRequest('plugin and action fields are required');
    if (req.entityIds.length === 0) throw badRequest('entity_ids must contain at least one ID');
    const { plugin, action } = this.lookup(req.plugin, req.action);
    const n = req.entityIds.length;
    if (action.bulkMax > 0 && n > action.bulkMax) throw badRequest(`action allows at most ${action.bulkMax} entities per request, got ${n}`);
    if (n > this.maxEntities) throw badRequest(`at most ${this.maxEntities} entities may be submitted in one action run, got ${n}`);
    if (isScoped(principal)) {
      if (!this.manager.openToScoped(plugin.name)) throw forbidden('this plugin is not available to group-limited accounts');
      const seen = new Set(await this.scoped.restrict(principal, action.entity, req.entityIds));
      if (req.entityIds.some((id) => !seen.has(id))) throw forbidden('one or more target entities are outside your scope');
    }
    const params = stripHidden(action, req.params);
    const errors = validateParams(action, params);
    if (errors.length) throw new ActionInvalid(errors);
    await this.checkRefs(principal, action, params);
    await this.checkFilters(principal, action, req.entityIds);
    const again = this.lookup(req.plugin, req.action);
    if (again.action !== action && JSON.stringify(again.action.filters) !== JSON.stringify(action.filters)) {
      throw new HttpError(500, 'the action was reloaded between validation and execution; nothing was run');
    }
    const actor = actorFor(principal);
    if (action.async) return this.runAsync(again.plugin, again.action, req.entityIds, params, actor);
    return invocations.run({ actor, origin }, () => this.runSync(again.plugin, again.action, req.entityIds, params, signal));
  }

  private async checkRefs(principal: Principal, action: ActionDef, params: Record<string, unknown>): Promise<void> {
    const errors: FieldError[] = [];
    for (const { param, ids } of entityRefs(action, params)) {
      const found = await this.targets.describe(visibilityOf(principal), param.entity!, ids);
      const filters = param.filters ?? action.filters;
      for (const id of ids) {
        const values = found.get(id);
        if (!values || !filtersMatch(filters, values)) errors.push({ field: param.name, message: `${param.label}: ID ${id} not found or does not match filter` });
      }
    }
    if (errors.length) throw new ActionInvalid(errors);
  }

  /** One mismatch (or a missing or invisible id) vetoes the whole batch. */
  private async checkFilters(principal: Principal, action: ActionDef, ids: number[]): Promise<void> {
    if (!hasFilters(action.filters)) return;
    const found = await this.targets.describe(visibilityOf(principal), action.entity, ids);
    const errors: FieldError[] = [];
    for (const id of ids) {
      const values = found.get(id);
      if (!values || !filtersMatch(action.filters, values)) errors.push({ field: 'entity_ids', message: `${action.label}: ${action.entity} ${id} does not match this action's filters` });
    }
    if (errors.length) throw new ActionInvalid(errors);
  }

  private async runSync(plugin: LoadedPlugin, action: ActionDef, ids: number[], params: Record<string, unknown>, signal: AbortSignal): Promise<RunReply> {
    const results: Record<string, unknown>[] = [];
    for (const id of ids) {
      if (signal.aborted) return { status: 408, body: { error: 'the client went away; the remaining entities were not run' } };
      try {
        // Each entity is an entry point of its own, with a fresh MRQL cache (§17.4).
        const [returned] = await invocations.run({ ...currentInvocation(), mrql: undefined }, () =>
          action.handler.call([{ entity_id: id, params, settings: plugin.settings ?? {} }], {
            entry: `action ${action.id}`,
            budgetMs: SYNC_ACTION_BUDGET_MS,
            result: 'map',
            signal,
          }),
        );
        results.push(resultOf(returned));
      } catch (e) {
        if (!(e instanceof LuaError)) throw e;
        const reason = abortReason(e.luaMessage);
        if (reason !== null && e.kind === 'runtime') {
          results.push({ success: false, message: reason });
          continue;
        }
        if (ids.length === 1) throw new HttpError(500, `action failed for entity ${id}: action handler error: ${failureText(e)}`);
        results.push({ success: false, message: failureText(e) });
      }
    }
    return ids.length === 1 ? { status: 200, body: results[0] } : { status: 200, body: { results } };
  }

  private runAsync(plugin: LoadedPlugin, action: ActionDef, ids: number[], params: Record<string, unknown>, actor: Principal | null): RunReply {
    const jobIds: string[] = [];
    for (const id of ids) {
      const job = this.store.create({ pluginName: plugin.name, actionId: action.id, label: action.label, entityId: id, entityType: action.entity, ownerId: ownerOf(actor) });
      jobIds.push(job.id);
      const ctx = { entity_id: id, job_id: job.id, params, settings: plugin.settings ?? {} };
      detached(() => runInSlot({ store: this.store, jobId: job.id, plugin, fn: action.handler, args: [ctx], actor, entry: `action ${action.id}`, useResult: true }));
    }
    return ids.length === 1 ? { status: 202, body: { job_id: jobIds[0] } } : { status: 202, body: { job_ids: jobIds } };
  }
}

/** The result object of a sync handler's returned table (§17.4). */
function resultOf(v: unknown): Record<string, unknown> {
  const t = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const out: Record<string, unknown> = { success: t.success === true };
  for (const k of ['message', 'redirect', 'job_id'] as const) if (typeof t[k] === 'string') out[k] = t[k];
  if (t.data !== null && typeof t.data === 'object' && !Array.isArray(t.data)) out.data = t.data;
  return out;
}
