// One plugin's Lua VM, seen from the main thread (library-plugins.md §9, clip-behaviour.md §8.4).
// The Lua state lives in a worker thread, so plugin code never blocks the server and a VM that
// defeats its instruction hook can be killed. Every entry point takes the VM lock, runs under a
// wall-clock budget, and talks to the host through host functions that may be async: the
// worker blocks while the main thread awaits them.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { LuaError, formatDuration, type LuaErrorKind } from './errors.js';
import { FifoLock, LockWaitFailed, type LockRelease } from './lock.js';
import { CANCEL_SLOT, SIGNAL_SLOT, type CallOptions, type LoadOptions, type LockOptions, type Operation, type OperationResult, type ReadMode, type SyncMessage, type WorkerMessage, type WorkerSetup } from './protocol.js';

export type { CallOptions, LoadOptions, LockOptions };
import { fromTransport, toTransport, type TransportContext } from './transport.js';
import { LuaFunctionRef, LuaMultiple, type HostFunction } from './values.js';
import { workerSource } from './worker-source.js';

// ---- which plugin VMs are running on the current logical call stack. Host functions run inside
// the caller's async context (so the host's own AsyncLocalStorage, e.g. the acting user, is
// visible in them) with this frame on top.
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
  /** The host function was called from inside a coroutine the Lua code made. */
  readonly inCoroutine: boolean;
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

const MiB = 1024 * 1024;
const MAX_BUDGET_MS = 24 * 60 * 60 * 1000;
/** Budget of the host's own small operations (reading or setting a global). */
const HOUSEKEEPING_BUDGET_MS = 5000;

export type LuaLogLevel = 'info' | 'warn';

export interface LuaVmOptions {
  /** The plugin's name: in errors and log lines. */
  name: string;
  /** Cap on the Lua state's allocations (default 256 MiB, library-plugins.md §9.6). */
  memoryLimitBytes?: number;
  /** Open the coroutine library (default true; the clip sandbox has none). */
  coroutines?: boolean;
  /** Further globals removed after the sandbox is built (the clip sandbox drops rawget & co). */
  hiddenGlobals?: readonly string[];
  /** Where print, warn and conversion warnings go (default: the process log). */
  log?: (level: LuaLogLevel, message: string) => void;
  /**
   * How long past its deadline a call may go on running before its worker is killed. The
   * instruction hook stops ordinary code within microseconds; this catches code the hook
   * cannot reach (a pathological pattern inside string.find, a loop in a finalizer).
   */
  killGraceMs?: number;
  /** Called once when the VM dies unexpectedly (killed, out of memory, wasm trap). */
  onCrash?: (error: LuaError) => void;
  /** Budget for starting the worker (default 30 s). */
  startTimeoutMs?: number;
}


export type LuaVmState = 'open' | 'revoked' | 'closed' | 'crashed';

/** Operations on a VM whose lock the caller already holds (see LuaVm.exclusive). */
export interface LuaSession {
  load(source: string | Uint8Array, options: Omit<LoadOptions, keyof LockOptions> & { signal?: AbortSignal }): Promise<unknown[]>;
  call(target: string | LuaFunctionRef, args: readonly unknown[], options: Omit<CallOptions, keyof LockOptions> & { signal?: AbortSignal }): Promise<unknown[]>;
  getGlobal(name: string, mode?: ReadMode): Promise<unknown>;
  setGlobal(name: string, value: unknown): Promise<void>;
  globalType(name: string): Promise<string>;
}

interface ActiveOp {
  seq: number;
  entry: string;
  budgetMs: number;
  deadline: number;
  /** The top-level operation this one runs inside (itself at top level). */
  root: ActiveOp;
  /** Host functions handed to Lua during this top-level operation (dropped when it ends). */
  scoped: number[];
  signal: AbortSignal | undefined;
  /** The async context of whoever started the operation: host functions run in it. */
  resource: AsyncResource;
  chain: readonly LuaVm[];
  /** The worker is blocked in one of this operation's host functions. */
  inHost: boolean;
  /** Nested operations started from this one's host functions run one after another. */
  nestedTail: Promise<unknown>;
  settle(result: OperationResult): void;
  fail(error: LuaError): void;
}

interface OpSpec {
  entry: string;
  budgetMs: number;
  signal?: AbortSignal;
  /** Host functions in the operation's values outlive the call (globals the host installs). */
  persistent?: boolean;
  build: (ctx: TransportContext) => Operation;
}

export class LuaVm {
  readonly name: string;
  private _state: LuaVmState = 'open';
  private readonly worker: Worker;
  private readonly syncPort: MessagePort;
  private readonly control: Int32Array;
  private readonly placeholderKey: string;
  private readonly lock = new FifoLock();
  private readonly killGraceMs: number;
  private readonly log: (level: LuaLogLevel, message: string) => void;
  private readonly onCrash: ((error: LuaError) => void) | undefined;
  private readonly started: Promise<void>;
  private readonly exited: Promise<void>;

  private readonly active: ActiveOp[] = [];
  private readonly hostTokens: number[] = [];
  private readonly functions = new Map<number, HostFunction>();
  private readonly liveRefs = new Set<number>();
  private readonly refFinalizer = new FinalizationRegistry<number>((id) => this.dropRef(id));
  private releaseQueue: number[] = [];
  private nextSeq = 0;
  private nextFunctionId = 0;
  private nextToken = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private _memoryUsed = 0;
  private _hookChecks = 0;

  /** Starts a VM: a worker with a fresh sandboxed Lua state, ready for load(). */
  static async create(options: LuaVmOptions): Promise<LuaVm> {
    const source = await workerSource();
    const vm = new LuaVm(options, source.code, source.wasmPath);
    await vm.started;
    return vm;
  }

  private constructor(options: LuaVmOptions, code: string, wasmPath: string) {
    this.name = options.name;
    this.killGraceMs = options.killGraceMs ?? 1000;
    this.onCrash = options.onCrash;
    this.log = options.log ?? ((level, message) => (level === 'warn' ? console.warn : console.log)(`[plugin:${this.name}] ${message}`));
    this.placeholderKey = `\u0000lua-function:${randomBytes(12).toString('hex')}`;
    const control = new SharedArrayBuffer(8);
    this.control = new Int32Array(control);
    const memoryLimitBytes = options.memoryLimitBytes ?? 256 * MiB;
    const setup: WorkerSetup = {
      wasmPath,
      memoryLimitBytes,
      placeholderKey: this.placeholderKey,
      coroutines: options.coroutines ?? true,
      hiddenGlobals: [...(options.hiddenGlobals ?? [])],
      control,
    };
    const { port1, port2 } = new MessageChannel();
    this.syncPort = port1;
    this.syncPort.unref();
    this.worker = new Worker(code, {
      eval: true,
      workerData: { setup, syncPort: port2 },
      transferList: [port2],
      // Values converted out of Lua live in the worker's heap for a moment: room for the
      // largest string the Lua state can hold, so a big value fails in Lua, not the worker.
      // With limits set, V8 picks a young generation so small that converting a table of
      // a thousand records spends most of its time collecting garbage; 32 MiB avoids that.
      resourceLimits: { maxOldGenerationSizeMb: Math.ceil(memoryLimitBytes / MiB) + 64, maxYoungGenerationSizeMb: 32 },
    });
    let ready: () => void;
    let startFailed: (e: Error) => void;
    this.started = new Promise<void>((resolve, reject) => {
      ready = resolve;
      startFailed = reject;
    });
    const startTimer = setTimeout(() => {
      startFailed(new Error(`Lua VM for "${this.name}" did not start within ${formatDuration(options.startTimeoutMs ?? 30_000)}`));
      void this.worker.terminate();
    }, options.startTimeoutMs ?? 30_000);
    this.exited = new Promise<void>((resolve) => {
      this.worker.once('exit', (code) => {
        clearTimeout(startTimer);
        startFailed(new Error(`Lua VM for "${this.name}" exited during start (code ${code})`));
        this.crash(`its worker exited (code ${code})`);
        resolve();
      });
    });
    this.worker.on('error', (e) => this.crash(`its worker failed: ${e.message}`));
    this.worker.on('message', (msg: WorkerMessage) => {
      switch (msg.t) {
        case 'ready':
          clearTimeout(startTimer);
          this.worker.unref();
          ready();
          return;
        case 'fatal':
          startFailed(new Error(`Lua VM for "${this.name}" failed: ${msg.message}`));
          this.crash(`the Lua engine failed: ${msg.message}`);
          return;
        case 'log':
          this.log(msg.level, msg.message);
          return;
        case 'host':
          this.onHostCall(msg.fn, msg.args, msg.refs, msg.coroutine);
          return;
        case 'done':
          this._memoryUsed = msg.memoryUsed;
          this._hookChecks = msg.hookChecks;
          this.onDone(msg.seq, msg.result);
          return;
      }
    });
  }

  get state(): LuaVmState {
    return this._state;
  }

  /** True once the VM was revoked, closed or crashed: host functions should refuse work then. */
  get revoked(): boolean {
    return this._state !== 'open';
  }

  /** True while an entry point holds the VM lock. */
  get busy(): boolean {
    return this.lock.isHeld;
  }

  /** Bytes held by the Lua state after the last operation. */
  get memoryUsed(): number {
    return this._memoryUsed;
  }

  /**
   * How many times the instruction hook ran during the last top-level operation: about one
   * per 1,000 VM instructions (a diagnostic; tests use it to see the hook interval).
   */
  get hookChecks(): number {
    return this._hookChecks;
  }

  // ---- entry points ----------------------------------------------------------------------------

  /** Runs a chunk (the plugin's top-level code) and returns its results. */
  load(source: string | Uint8Array, options: LoadOptions): Promise<unknown[]> {
    return this.exclusive((s) => s.load(source, options), options);
  }

  /** Calls a global function by name, or a Lua function the plugin handed over. */
  call(target: string | LuaFunctionRef, args: readonly unknown[], options: CallOptions): Promise<unknown[]> {
    return this.exclusive((s) => s.call(target, args, options), options);
  }

  /** Reads a global raw (metatables never run) and converts it; functions read as null. */
  getGlobal(name: string, options: LockOptions & { mode?: ReadMode } = {}): Promise<unknown> {
    return this.exclusive((s) => s.getGlobal(name, options.mode), { ...options, entry: `read global ${name}` });
  }

  /** Sets a global raw. JS functions in the value become host functions for the VM's life. */
  setGlobal(name: string, value: unknown, options: LockOptions = {}): Promise<void> {
    return this.exclusive((s) => s.setGlobal(name, value), { ...options, entry: `set global ${name}` });
  }

  /** Lua's type() of a global, read raw: "nil", "function", "table" … */
  globalType(name: string, options: LockOptions = {}): Promise<string> {
    return this.exclusive((s) => s.globalType(name), { ...options, entry: `read global ${name}` });
  }

  /**
   * Holds the VM lock across several operations (e.g. a plugin load: run the chunk, read its
   * manifest, install the host API, call init). Inside a host function of this VM, the
   * operations run nested in the current entry point instead.
   */
  async exclusive<T>(fn: (session: LuaSession) => Promise<T>, options: LockOptions & { entry?: string } = {}): Promise<T> {
    const entry = options.entry ?? 'call';
    const parent = this.nestedParent();
    if (parent) return fn(this.session(parent));
    this.assertUsable(entry);
    if (currentLuaChain().includes(this)) throw this.error('busy', entry, 'the plugin is already running on this call chain');
    let release: LockRelease;
    try {
      release = await this.lock.acquire({ signal: options.signal, timeoutMs: options.lockTimeoutMs });
    } catch (e) {
      throw this.lockError(e, entry);
    }
    const session = this.session(undefined);
    try {
      this.assertUsable(entry); // it may have been revoked while we waited
      return await fn(session);
    } finally {
      session.end();
      release();
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Refuses new entry points from now on (waiters fail with 'unavailable'). The running entry
   * point goes on; host functions see `revoked` and refuse their work (§9.8).
   */
  revoke(): void {
    if (this._state !== 'open') return;
    this._state = 'revoked';
    this.lock.failWaiters();
  }

  /**
   * Revokes, waits for the running entry point (bounded by its budget), then ends the worker.
   * Called from inside one of this VM's own host functions it cannot wait for the entry point
   * that is waiting for it: it revokes and resolves at once, and the VM closes when that entry
   * point ends.
   */
  async close(): Promise<void> {
    this.revoke();
    if (currentLuaChain().includes(this)) {
      this.closeWhenIdle().catch((e: Error) => this.log('warn', `closing failed: ${e.message}`));
      return;
    }
    await this.closeWhenIdle();
  }

  private async closeWhenIdle(): Promise<void> {
    if (this._state === 'revoked') {
      const release = await this.lock.acquire().catch(() => undefined);
      if (this._state === 'revoked') this._state = 'closed';
      release?.();
    }
    clearTimeout(this.watchdog);
    await this.worker.terminate();
    await this.exited;
  }

  /** Ends the worker now: the running entry point fails with 'unavailable'. */
  async terminate(): Promise<void> {
    if (this._state !== 'crashed') this._state = 'closed';
    this.lock.failWaiters();
    this.failActive((op) => this.error('unavailable', op.entry, 'the plugin was disabled'));
    clearTimeout(this.watchdog);
    await this.worker.terminate();
    await this.exited;
  }

  /** @internal Forgets a Lua function reference (LuaFunctionRef.release). */
  releaseFunction(ref: LuaFunctionRef): void {
    if (ref.vm !== this || !this.liveRefs.has(ref.id)) return;
    this.refFinalizer.unregister(ref);
    this.dropRef(ref.id);
  }

  // ---- internals -------------------------------------------------------------------------------

  private session(parent: ActiveOp | undefined): LuaSession & { end(): void } {
    let open = true;
    // The worker runs one operation at a time: operations started together queue here.
    let tail: Promise<unknown> = Promise.resolve();
    const run = (spec: OpSpec) => {
      if (!open) return Promise.reject(new Error('LuaSession used after its exclusive() block ended'));
      const next = tail.then(() => this.perform(spec, parent));
      tail = next.catch(() => undefined);
      return next;
    };
    return {
      end: () => {
        open = false;
      },
      load: (source, o) =>
        run({
          entry: o.entry,
          budgetMs: o.budgetMs,
          signal: o.signal,
          build: () => ({ op: 'load', source: typeof source === 'string' ? Buffer.from(source, 'utf8') : source, chunkName: o.chunkName }),
        }),
      call: (target, args, o) =>
        run({
          entry: o.entry,
          budgetMs: o.budgetMs,
          signal: o.signal,
          build: (ctx) => {
            const out = toTransport(ctx, [...args]);
            return {
              op: 'call',
              target: typeof target === 'string' ? { global: target } : { ref: ctx.refId(target) },
              args: out.value as unknown[],
              refs: out.refs,
              resultMode: o.result ?? 'value',
            };
          },
        }),
      getGlobal: async (name, mode = 'value') => {
        const [value] = await run({ entry: `read global ${name}`, budgetMs: HOUSEKEEPING_BUDGET_MS, build: () => ({ op: 'getGlobal', name, mode }) });
        return value;
      },
      setGlobal: async (name, value) => {
        await run({
          entry: `set global ${name}`,
          budgetMs: HOUSEKEEPING_BUDGET_MS,
          persistent: true,
          build: (ctx) => {
            const out = toTransport(ctx, value);
            return { op: 'setGlobal', name, value: out.value, refs: out.refs };
          },
        });
      },
      globalType: async (name) => {
        const [type] = await run({ entry: `read global ${name}`, budgetMs: HOUSEKEEPING_BUDGET_MS, build: () => ({ op: 'typeOf', name }) });
        return type as string;
      },
    };
  }

  /** Runs one operation in the worker: at top level (lock held), or nested in `parent`. */
  private async perform(spec: OpSpec, parent: ActiveOp | undefined): Promise<unknown[]> {
    if (parent) {
      // One nested operation at a time per host call: the worker runs them in order.
      const previous = parent.nestedTail;
      let done!: () => void;
      parent.nestedTail = new Promise<void>((r) => (done = r));
      await previous;
      try {
        return await this.start(spec, parent);
      } finally {
        done();
      }
    }
    return this.start(spec, undefined);
  }

  private start(spec: OpSpec, parent: ActiveOp | undefined): Promise<unknown[]> {
    if (this._state === 'crashed' || this._state === 'closed') return Promise.reject(this.error(this._state === 'crashed' ? 'crashed' : 'unavailable', spec.entry, 'the plugin is no longer available'));
    const budgetMs = clampBudget(spec.budgetMs);
    const now = Date.now();
    return new Promise<unknown[]>((resolve, reject) => {
      const op: ActiveOp = {
        seq: ++this.nextSeq,
        entry: spec.entry,
        budgetMs,
        deadline: parent ? Math.min(parent.deadline, now + budgetMs) : now + budgetMs,
        root: undefined as unknown as ActiveOp,
        scoped: [],
        signal: parent ? parent.root.signal : spec.signal,
        // A nested call's context is the host function's that made it (e.g. with the open
        // transaction in the host's AsyncLocalStorage), not the top-level caller's.
        resource: new AsyncResource('LuaCall'),
        chain: parent ? parent.chain : [...currentLuaChain(), this],
        inHost: false,
        nestedTail: Promise.resolve(),
        settle: (result) => {
          cleanup();
          if (result.ok) resolve(result.refs ? (fromTransport(this.transport(op.root), result.values) as unknown[]) : result.values);
          else reject(this.failure(op, result));
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      };
      op.root = parent ? parent.root : op;
      const onAbort = () => Atomics.store(this.control, CANCEL_SLOT, op.root.seq);
      const cleanup = () => {
        if (!parent) spec.signal?.removeEventListener('abort', onAbort);
      };
      let operation: Operation;
      try {
        operation = spec.build(this.transport(op.root, spec.persistent));
      } catch (e) {
        reject(e);
        return;
      }
      this.active.push(op);
      if (parent) {
        this.sendSync({ t: 'run', seq: op.seq, deadline: op.deadline, operation });
      } else {
        if (spec.signal?.aborted) onAbort();
        else spec.signal?.addEventListener('abort', onAbort, { once: true });
        this.worker.ref();
        this.worker.postMessage({ t: 'run', seq: op.seq, deadline: op.deadline, operation });
      }
      this.armWatchdog();
    });
  }

  private onDone(seq: number, result: OperationResult): void {
    const op = this.active.at(-1);
    if (!op || op.seq !== seq) {
      this.crash(`protocol error: operation ${seq} finished out of order`);
      return;
    }
    this.active.pop();
    if (op.root === op) {
      for (const id of op.scoped) this.functions.delete(id);
      this.worker.unref();
    }
    this.armWatchdog();
    op.settle(result);
  }

  private onHostCall(fn: number, args: unknown[], refs: boolean, coroutine: boolean): void {
    const op = this.active.at(-1);
    if (!op) {
      this.crash('protocol error: a host call arrived outside any operation');
      return;
    }
    op.inHost = true;
    this.armWatchdog();
    void this.serveHostCall(op, fn, args, refs, coroutine);
  }

  private async serveHostCall(op: ActiveOp, fnId: number, rawArgs: unknown[], refs: boolean, coroutine: boolean): Promise<void> {
    const token = ++this.nextToken;
    this.hostTokens.push(token);
    let reply: SyncMessage;
    try {
      const fn = this.functions.get(fnId);
      if (!fn) throw new Error('this host function is no longer available');
      const args = refs ? (fromTransport(this.transport(op.root), rawArgs) as unknown[]) : rawArgs;
      const info: LuaCallInfo = { vm: this, entry: op.root.entry, deadline: op.deadline, signal: op.root.signal, chain: op.chain, inCoroutine: coroutine };
      const result = await op.resource.runInAsyncScope(() => frames.run({ info, token }, () => fn(...args)));
      const values = result instanceof LuaMultiple ? [...result.values] : [result ?? null];
      const out = toTransport(this.transport(op.root), values);
      reply = { t: 'reply', ok: true, values: out.value as unknown[], refs: out.refs };
    } catch (e) {
      if (e instanceof LuaError && e.plugin === this.name && (e.kind === 'runtime' || e.kind === 'memory' || e.kind === 'timeout' || e.kind === 'cancelled')) {
        // An error out of a nested call of this plugin goes back into Lua as it was raised.
        reply = { t: 'reply', ok: false, message: e.luaMessage, rethrow: e.value === undefined ? {} : { value: e.value } };
      } else {
        reply = { t: 'reply', ok: false, message: e instanceof Error ? e.message : String(e) };
      }
    } finally {
      const i = this.hostTokens.lastIndexOf(token);
      if (i >= 0) this.hostTokens.splice(i, 1);
    }
    if (this._state === 'crashed' || !this.active.includes(op)) return;
    op.inHost = false;
    this.sendSync(reply);
    this.armWatchdog();
  }

  private sendSync(message: SyncMessage): void {
    this.syncPort.postMessage(message);
    Atomics.store(this.control, SIGNAL_SLOT, 1);
    Atomics.notify(this.control, SIGNAL_SLOT);
  }

  /** The running operation whose host function is calling, when the caller is inside one. */
  private nestedParent(): ActiveOp | undefined {
    const frame = frames.getStore();
    if (frame && frame.info.vm === this && frame.token === this.hostTokens.at(-1)) return this.active.at(-1);
    return undefined;
  }

  /**
   * Conversion context for values of an operation. Host functions installed with setGlobal
   * live as long as the VM; the others (a ctx's callbacks, functions in a host function's
   * result) as long as the top-level call.
   */
  private transport(root: ActiveOp, persistent = false): TransportContext {
    return {
      placeholderKey: this.placeholderKey,
      register: (fn) => {
        const id = ++this.nextFunctionId;
        this.functions.set(id, fn);
        if (!persistent) root.scoped.push(id);
        return id;
      },
      refId: (ref) => {
        if (ref.vm !== this) throw new Error(`a function of plugin "${ref.vm.name}" cannot be passed to plugin "${this.name}"`);
        if (!this.liveRefs.has(ref.id)) throw new Error('the plugin function was released');
        return ref.id;
      },
      revive: (id) => {
        const ref = new LuaFunctionRef(this, id);
        this.liveRefs.add(id);
        this.refFinalizer.register(ref, id, ref);
        return ref;
      },
    };
  }

  private dropRef(id: number): void {
    if (!this.liveRefs.delete(id)) return;
    this.releaseQueue.push(id);
    if (this.releaseQueue.length === 1) {
      setImmediate(() => {
        const refs = this.releaseQueue;
        this.releaseQueue = [];
        if (this._state !== 'crashed' && this._state !== 'closed' && refs.length) this.worker.postMessage({ t: 'release', refs });
      });
    }
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    this.watchdog = undefined;
    const top = this.active.at(-1);
    if (!top || top.inHost || this._state === 'crashed') return;
    const at = Math.max(top.deadline, Date.now()) + this.killGraceMs;
    this.watchdog = setTimeout(() => {
      if (this.active.at(-1) === top && !top.inHost) {
        this.crash(`it kept running ${formatDuration(Date.now() - top.deadline)} past the end of its ${formatDuration(top.budgetMs)} budget in "${top.entry}" and was stopped`);
      }
    }, at - Date.now());
    this.watchdog.unref();
  }

  private crash(reason: string): void {
    if (this._state === 'crashed' || this._state === 'closed') return;
    this._state = 'crashed';
    clearTimeout(this.watchdog);
    const message = `the plugin's VM was terminated: ${reason}`;
    this.log('warn', message);
    this.failActive((op) => this.error('crashed', op.entry, message));
    this.lock.failWaiters();
    void this.worker.terminate();
    this.onCrash?.(this.error('crashed', 'vm', message));
  }

  private failActive(errorFor: (op: ActiveOp) => LuaError): void {
    const ops = this.active.splice(0).reverse();
    for (const op of ops) op.fail(errorFor(op));
  }

  private assertUsable(entry: string): void {
    if (this._state === 'crashed') throw this.error('crashed', entry, 'the plugin\'s VM was terminated');
    if (this._state !== 'open') throw this.error('unavailable', entry, 'the plugin is no longer enabled');
  }

  private lockError(e: unknown, entry: string): LuaError {
    if (!(e instanceof LockWaitFailed)) return this.error('runtime', entry, e instanceof Error ? e.message : String(e));
    if (e.reason === 'timeout') return this.error('busy', entry, 'the plugin was busy');
    if (e.reason === 'aborted') return this.error('abandoned', entry, 'the plugin was busy and the request was abandoned');
    return this._state === 'crashed' ? this.error('crashed', entry, 'the plugin\'s VM was terminated') : this.error('unavailable', entry, 'the plugin is no longer enabled');
  }

  private failure(op: ActiveOp, result: Extract<OperationResult, { ok: false }>): LuaError {
    let message = result.message;
    if (result.kind === 'timeout') message = `timed out after ${formatDuration(op.budgetMs)}`;
    else if (result.kind === 'cancelled') message = 'cancelled by the caller';
    return this.error(result.kind, op.entry, message, { traceback: result.traceback, value: result.value, budgetMs: op.budgetMs });
  }

  private error(kind: LuaErrorKind, entry: string, message: string, details?: ConstructorParameters<typeof LuaError>[4]): LuaError {
    return new LuaError(kind, this.name, entry, message, details);
  }
}

function clampBudget(ms: number): number {
  if (!Number.isFinite(ms)) return MAX_BUDGET_MS;
  return Math.min(Math.max(ms, 1), MAX_BUDGET_MS);
}
