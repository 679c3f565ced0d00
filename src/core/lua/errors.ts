// The one error type of the Lua runtime. A host maps `kind` onto its own outcome (HTTP 504 for
// a timed-out endpoint, a skipped hook for a busy VM, a failed job …).

export type LuaErrorKind =
  /** The plugin raised an error (or a host function it called did). */
  | 'runtime'
  /** The chunk does not compile. */
  | 'syntax'
  /** The entry point ran past its time budget. */
  | 'timeout'
  /** The caller's AbortSignal fired while the entry point ran. */
  | 'cancelled'
  /** An allocation failed: the VM is at its memory cap. */
  | 'memory'
  /** The VM lock was not free within `lockTimeoutMs`, or the VM is already running on this call chain. */
  | 'busy'
  /** The caller's AbortSignal fired while it waited for the VM lock. */
  | 'abandoned'
  /** The VM was revoked or closed. */
  | 'unavailable'
  /** The VM's worker died or was killed; the VM is gone. */
  | 'crashed';

export interface LuaErrorDetails {
  /** Lua stack traceback at the error, trimmed; empty when there is none. */
  traceback?: string;
  /** A non-string error object (`error({code = 1})`), converted like any Lua value. */
  value?: unknown;
  /** The budget of the entry point, for timeouts. */
  budgetMs?: number;
}

export class LuaError extends Error {
  override readonly name = 'LuaError';
  readonly traceback: string;
  readonly value: unknown;
  readonly budgetMs: number | undefined;

  constructor(
    readonly kind: LuaErrorKind,
    /** The VM's name (the plugin's name). */
    readonly plugin: string,
    /** The entry point that failed, as the host named it ("init", "hook before_note_create" …). */
    readonly entry: string,
    /** The error as Lua reported it, e.g. `plugin.lua:3: attempt to index a nil value`. */
    readonly luaMessage: string,
    details: LuaErrorDetails = {},
  ) {
    super(`plugin "${plugin}" ${entry}: ${luaMessage}`);
    this.traceback = details.traceback ?? '';
    this.value = details.value;
    this.budgetMs = details.budgetMs;
  }
}

/** A duration the way Go prints it ("500ms", "1s", "1m30s", "2m0s"), as the plugin spec quotes budgets. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = Math.round((totalSeconds % 60) * 1000) / 1000;
  if (hours) return `${hours}h${minutes}m${seconds}s`;
  if (minutes) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
