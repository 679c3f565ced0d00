// Host-side helpers for values crossing into and out of Lua: references to Lua functions,
// multiple return values, host functions that read some arguments as maps, and binary strings.
import type { CallOptions } from './protocol.js';

/** What a function reference needs of the VM that owns it (LuaVm implements it). */
export interface FunctionOwner {
  readonly name: string;
  call(target: LuaFunctionRef, args: readonly unknown[], options: CallOptions): Promise<unknown[]>;
  releaseFunction(ref: LuaFunctionRef): void;
}

/** A host function callable from Lua. Arguments arrive converted per §9.5 (never trusted). */
export type HostFunction = (...args: unknown[]) => unknown;

/**
 * A Lua function the plugin handed to the host (a hook handler, a callback). Calling it enters
 * the plugin's VM like any entry point; inside a host function of the same VM it runs nested,
 * under the running entry point's lock and deadline. Released when garbage-collected, or
 * explicitly with release().
 */
export class LuaFunctionRef {
  /** @internal */
  constructor(
    readonly vm: FunctionOwner,
    readonly id: number,
  ) {}

  call(args: readonly unknown[], options: CallOptions): Promise<unknown[]> {
    return this.vm.call(this, args, options);
  }

  /** Lets the VM forget the function; later calls fail. */
  release(): void {
    this.vm.releaseFunction(this);
  }

  /** Functions are null in JSON (§9.5). */
  toJSON(): null {
    return null;
  }
}

/** Several Lua return values (`return nil, "not found"`). */
export class LuaMultiple {
  constructor(readonly values: readonly unknown[]) {}
}

/**
 * Returns exactly these values to Lua. A host function returning `undefined` or `null` gives
 * Lua one `nil` (library-plugins.md §31.6); `multi()` gives none.
 */
export function multi(...values: unknown[]): LuaMultiple {
  return new LuaMultiple(values);
}

const mapArgMasks = new WeakMap<HostFunction, number>();

/**
 * Marks arguments (1-based) that the function reads as maps: such a table keeps only its
 * string keys at the top level (library-plugins.md §9.5, options tables).
 */
export function hostFunction<F extends HostFunction>(fn: F, options: { mapArgs?: readonly number[] }): F {
  let mask = 0;
  for (const i of options.mapArgs ?? []) {
    if (!Number.isInteger(i) || i < 1 || i > 31) throw new Error(`mapArgs position out of range: ${i}`);
    mask |= 1 << (i - 1);
  }
  mapArgMasks.set(fn, mask);
  return fn;
}

/** @internal */
export function mapArgMask(fn: HostFunction): number {
  return mapArgMasks.get(fn) ?? 0;
}

const lossy = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A Lua string argument as bytes. Lua strings arrive as JS strings when they are valid UTF-8
 * and as Uint8Array otherwise; functions that hash, encode or store bytes read them with this.
 */
export function luaBytes(value: unknown): Buffer | undefined {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

/** A Lua string argument as text (bytes that are not UTF-8 become U+FFFD). */
export function luaText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return lossy.decode(value);
  return undefined;
}
