// Main-thread half of value conversion: host values become plain, structured-cloneable data
// (functions and Lua function references become placeholders the worker turns into Lua
// functions), and placeholders coming back become LuaFunctionRef objects.
import { LuaFunctionRef, LuaMultiple, mapArgMask, type HostFunction } from './values.js';
import type { Placeholder } from './protocol.js';

const MAX_DEPTH = 256;

export interface TransportContext {
  readonly placeholderKey: string;
  /** Registers a host function for Lua to call and returns its id. */
  register(fn: HostFunction): number;
  /** Checks that a Lua function reference belongs to this VM and is live. */
  refId(ref: LuaFunctionRef): number;
  /** Wraps a Lua registry reference. */
  revive(id: number): LuaFunctionRef;
}

export interface Outbound {
  value: unknown;
  refs: boolean;
}

/** Host value → transport value (§9.5 host → Lua; the worker makes integers and tables). */
export function toTransport(ctx: TransportContext, value: unknown): Outbound {
  let refs = false;
  const path = new Set<object>();
  const walk = (v: unknown, depth: number): unknown => {
    switch (typeof v) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'bigint':
        return v;
      case 'function': {
        refs = true;
        const fn = v as HostFunction;
        const placeholder: Placeholder = { [ctx.placeholderKey]: ctx.register(fn) };
        const mask = mapArgMask(fn);
        if (mask) placeholder.mapArgs = mask;
        return placeholder;
      }
      case 'object':
        break;
      default:
        return undefined; // undefined, symbol
    }
    if (v === null) return null;
    if (v instanceof LuaFunctionRef) {
      refs = true;
      return { [ctx.placeholderKey]: -ctx.refId(v) };
    }
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (depth >= MAX_DEPTH || path.has(v)) return undefined; // too deep, or a cycle: left out
    path.add(v);
    let out: unknown;
    if (Array.isArray(v) || v instanceof LuaMultiple) {
      const items = v instanceof LuaMultiple ? v.values : v;
      out = items.map((item) => walk(item, depth + 1));
    } else {
      const obj: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        const item = walk((v as Record<string, unknown>)[key], depth + 1);
        if (item !== undefined && item !== null) obj[key] = item;
      }
      out = obj;
    }
    path.delete(v);
    return out;
  };
  const out = walk(value, 0);
  return { value: out === undefined ? null : out, refs };
}

/** Transport value from the worker → host value, with placeholders made LuaFunctionRefs. */
export function fromTransport(ctx: TransportContext, value: unknown): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i]);
      return v;
    }
    const marker = (v as Placeholder)[ctx.placeholderKey];
    if (typeof marker === 'number') return ctx.revive(-marker);
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const item = walk(obj[key]);
      // defineProperty: an own "__proto__" key (structured clone makes them) must stay data.
      if (item !== obj[key]) Object.defineProperty(obj, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    return obj;
  };
  return walk(value);
}
