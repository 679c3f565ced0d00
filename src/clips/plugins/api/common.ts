// Shared pieces of the Lua modules: what a module sees of its plugin, and the failure rule of
// companion §8.6 (functions answer `nil, reason` or `false, reason` instead of raising).
import { luaBytes, luaText, multi } from '../../../core/lua/index.js';
import type { Manifest } from '../manifest.js';

/** A loaded plugin as the Lua modules see it. */
export interface PluginInstance {
  id: number;
  name: string;
  manifest: Manifest;
  /** `<data>/plugin-data/<id>`, always granted. */
  privateDir: string;
  /** Task ids this load started (task.progress & co. refuse others). */
  tasks: Set<number>;
  /** Start times of recent rate-limited calls, per kind. */
  rates: Map<string, number[]>;
  log(message: string): void;
}

/** A failure whose message is the plugin's answer. */
export class PluginApiError extends Error {}

export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Runs a host function; a thrown error becomes `failValue, message`. */
export function guard<A extends unknown[]>(fn: (...args: A) => unknown, failValue: null | false = null): (...args: A) => Promise<unknown> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      return multi(failValue, reason(e));
    }
  };
}

/** An options table; anything else (nil, a list, a scalar) reads as no options. */
export function optionsTable(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A positive integer id argument. */
export function idArg(value: unknown, what = 'id'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new PluginApiError(`invalid ${what}`);
  return value;
}

/** A sliding one-minute window: false when `limit` calls of `kind` were made in the last minute. */
export function withinRate(plugin: PluginInstance, kind: string, limit: number, now = Date.now()): boolean {
  const recent = (plugin.rates.get(kind) ?? []).filter((t) => now - t < 60_000);
  if (recent.length >= limit) {
    plugin.rates.set(kind, recent);
    return false;
  }
  recent.push(now);
  plugin.rates.set(kind, recent);
  return true;
}

/** A string argument (numbers are written as Lua would); anything else is refused. */
export function textArg(value: unknown, what: string): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  const t = luaText(value);
  if (t === undefined) throw new PluginApiError(`${what} must be a string`);
  return t;
}

/** A string argument's exact bytes. */
export function bytesArg(value: unknown, what: string): Buffer {
  if (typeof value === 'number') return Buffer.from(String(value));
  const b = luaBytes(value);
  if (b === undefined) throw new PluginApiError(`${what} must be a string`);
  return b;
}
