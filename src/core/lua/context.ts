// Which plugin VMs are running on the current logical call stack. Host functions run inside
// the caller's async context (so the host's own AsyncLocalStorage, e.g. the acting user, is
// visible in them) with this frame on top.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LuaVm } from './vm.js';

export interface LuaCallInfo {
  /** The VM whose host function is running. */
  readonly vm: LuaVm;
  /** The entry point that is running (the host's label). */
  readonly entry: string;
  /** Wall-clock deadline of the entry point (ms since the epoch). */
  readonly deadline: number;
  /** The caller's cancellation signal, if it gave one. */
  readonly signal: AbortSignal | undefined;
  /** Every VM executing on this call stack, outermost first; ends with `vm`. */
  readonly chain: readonly LuaVm[];
}

export interface CallFrame {
  info: LuaCallInfo;
  /** Identifies the host call this frame belongs to (nested calls are allowed only inside it). */
  token: number;
}

export const frames = new AsyncLocalStorage<CallFrame>();

/** The plugin entry point whose host function is running here, if any. */
export function currentLuaCall(): LuaCallInfo | undefined {
  return frames.getStore()?.info;
}

/** The VMs executing on the current call chain, outermost first (library-plugins.md §9.7). */
export function currentLuaChain(): readonly LuaVm[] {
  return frames.getStore()?.info.chain ?? [];
}
