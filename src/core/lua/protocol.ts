// Messages between a LuaVm (main thread) and its worker. Only types and constants: both sides
// import this file, and the worker bundle must stay free of main-thread code.

/** Slots of the Int32Array over the SharedArrayBuffer both sides hold. */
export const SIGNAL_SLOT = 0; // set to 1 by the main thread after it posted on the sync port
export const CANCEL_SLOT = 1; // holds the sequence number of the top-level call to cancel

/** What a failed Lua operation was, as the worker classifies it. */
export type LuaFailureKind = 'runtime' | 'syntax' | 'timeout' | 'cancelled' | 'memory';

/** How the first (or only) value read back from Lua is converted. */
export type ReadMode = 'value' | 'map';

export type Operation =
  | { op: 'load'; source: Uint8Array; chunkName: string }
  | { op: 'call'; target: CallTarget; args: unknown[]; refs: boolean; resultMode: ReadMode }
  | { op: 'getGlobal'; name: string; mode: ReadMode }
  | { op: 'setGlobal'; name: string; value: unknown; refs: boolean }
  | { op: 'typeOf'; name: string };

export type CallTarget = { global: string } | { ref: number };

export type OperationResult =
  | { ok: true; values: unknown[]; refs: boolean }
  | { ok: false; kind: LuaFailureKind; message: string; traceback: string; value?: unknown };

export interface WorkerSetup {
  wasmPath: string;
  memoryLimitBytes: number;
  /** Key of the placeholder objects that stand for functions in transported values. */
  placeholderKey: string;
  coroutines: boolean;
  hiddenGlobals: string[];
  control: SharedArrayBuffer;
}

/** main → worker on the worker's own port; only sent while the worker is idle. */
export type IdleMessage =
  | { t: 'run'; seq: number; deadline: number; operation: Operation }
  | { t: 'release'; refs: number[] };

/** main → worker on the sync port, while the worker waits inside a host function. */
export type SyncMessage =
  | { t: 'reply'; ok: true; values: unknown[]; refs: boolean }
  /**
   * A failed host function. `rethrow`: the failure is a Lua error coming back out of a nested
   * call, raised again as it was (its value when it had one, else its message, no new position).
   */
  | { t: 'reply'; ok: false; message: string; rethrow?: { value?: unknown } }
  | { t: 'run'; seq: number; deadline: number; operation: Operation };

export type WorkerMessage =
  | { t: 'ready' }
  | { t: 'fatal'; message: string }
  | { t: 'host'; fn: number; args: unknown[]; refs: boolean; coroutine: boolean }
  | { t: 'done'; seq: number; result: OperationResult; memoryUsed: number; hookChecks: number }
  | { t: 'log'; level: 'info' | 'warn'; message: string };

/**
 * A transported function: `{ [placeholderKey]: n, mapArgs?: mask }` where n > 0 is a host
 * function id (mapArgs: bit i set = argument i+1 is read as a map) and n < 0 a Lua registry
 * reference, negated. The key carries a random part per VM, so no value a plugin builds can
 * pass for one.
 */
export interface Placeholder {
  [key: string]: number | undefined;
  mapArgs?: number;
}

// Options of VM calls (vm.ts re-exports them).
export interface LockOptions {
  /** Aborting gives up waiting for the lock ('abandoned') or cancels the running call ('cancelled'). */
  signal?: AbortSignal;
  /** Give up waiting for the lock after this long ('busy'); 0 = only if free now. Default: wait. */
  lockTimeoutMs?: number;
}

export interface CallOptions extends LockOptions {
  /** The entry point's name, for errors ("init", "hook after_note_create" …). */
  entry: string;
  /** Wall-clock budget from the moment the lock is held (§9.4). */
  budgetMs: number;
  /** 'map': the first result keeps only its string keys (hook data, action results). */
  result?: ReadMode;
}

export interface LoadOptions extends CallOptions {
  /** Shown in Lua messages and tracebacks, e.g. "plugin.lua" → `plugin.lua:12: …`. */
  chunkName: string;
}
