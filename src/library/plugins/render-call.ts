// One render entry point (library-plugins.md §9.4: blocks, display types, shortcodes and
// injections have 5 s each), run as the request principal (§9.7) with the plugin's settings.
import { LuaError, type LuaFunctionRef } from '../../core/lua/index.js';
import type { RequestOrigin } from '../../core/events/bus.js';
import type { Principal } from '../auth/principal.js';
import type { CataloguedPlugin } from './catalogue.js';
import { actorFor, invocations } from './invocation.js';
import { settingForLua } from './settings.js';

export const RENDER_BUDGET_MS = 5000;

export interface RenderCall {
  entry: string;
  principal: Principal | undefined;
  origin?: RequestOrigin;
  signal?: AbortSignal;
}

/** The plugin's settings as Lua sees them (§6.4). */
export function settingsTable(plugin: CataloguedPlugin): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plugin.settings ?? {})) {
    const lua = settingForLua(v);
    if (lua !== null) out[k] = lua;
  }
  return out;
}

/** Calls the function with ctx and returns its first result. Throws LuaError on failure. */
export async function callRender(fn: LuaFunctionRef, ctx: Record<string, unknown>, call: RenderCall): Promise<unknown> {
  const [result] = await invocations.run({ actor: actorFor(call.principal), origin: call.origin, render: true }, () =>
    fn.call([ctx], { entry: call.entry, budgetMs: RENDER_BUDGET_MS, signal: call.signal }),
  );
  return result;
}

/** The error text a render failure shows (timeouts name the budget). */
export function renderErrorText(e: LuaError): string {
  if (e.kind === 'timeout') return `timed out after ${RENDER_BUDGET_MS / 1000}s`;
  if (e.kind === 'unavailable') return 'the plugin is no longer enabled';
  if (e.kind === 'abandoned' || e.kind === 'cancelled') return 'the request was cancelled';
  return e.luaMessage;
}

/** Lua's name for a value's type, for "must return a string, got <type>". */
export function luaTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'object') return v instanceof Uint8Array ? 'string' : 'table';
  return 'function';
}

export { LuaError };
