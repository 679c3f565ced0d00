// One plugin's Lua state, inside its worker: the sandbox, the instruction hook that enforces the
// deadline, host functions (blocking calls to the main thread), and the operations the main
// thread runs (load a chunk, call a function, read or set a global). Everything here runs
// synchronously on the worker thread.
import { LuaWasm } from 'wasmoon';
import { bindCApi, captureWasmExports, isLongjmp, LUA_MASKCOUNT, LUA_MULTRET, LUA_REGISTRYINDEX, Status, T, upvalueIndex, type CApi, type WasmModule } from './capi.js';
import { Converter, formatLuaFloat } from './convert.js';
import { installSandbox, pushGlobals } from './sandbox.js';
import { CANCEL_SLOT, type LuaFailureKind, type Operation, type OperationResult, type WorkerSetup } from '../protocol.js';

/** The hook runs every this many VM instructions (library-plugins.md §9.4: at most 1,000). */
export const HOOK_INTERVAL = 1000;
const MAX_MESSAGE = 16 * 1024;
const TRACEBACK_LINES = 12;
const TYPE_NAMES = ['nil', 'boolean', 'userdata', 'number', 'string', 'table', 'function', 'userdata', 'thread'];

export type HostReply = { ok: true; values: unknown[]; refs: boolean } | { ok: false; message: string; rethrow?: { value?: unknown } };

export interface EngineHost {
  /** Blocks until the main thread answered (running any nested operation it asks for). */
  /** `coroutine`: the call comes from a coroutine, not from the thread the operation runs on. */
  callHost(fn: number, args: unknown[], refs: boolean, coroutine: boolean): HostReply;
  log(level: 'info' | 'warn', message: string): void;
}

type Expiry = 'timeout' | 'cancelled' | null;

export class Engine {
  private readonly api: CApi;
  private readonly conv: Converter;
  private readonly L: number;
  private readonly control: Int32Array;
  private readonly hook: number;
  private readonly stub: number;
  private readonly trampoline: number;
  private readonly msgh: number;
  private readonly cstrings = new Map<string, number>();
  private allocated = 0;
  /** How often the hook ran during the current top-level operation (a diagnostic). */
  hookChecks = 0;

  // The top-level operation in progress.
  private seq = 0;
  private deadline = Infinity;
  private expired: Expiry = null;
  // The thread each running operation started on, innermost last: a host call from any other
  // thread comes from a coroutine the plugin made.
  private readonly opThreads: number[] = [];
  // The innermost host function waiting for the main thread, where nested operations run.
  private hostL = 0;
  private hostDepth = 0;
  // Hand-over between run() and the protected trampoline (and the message handler).
  private pendingOp: Operation | undefined;
  private opValues: unknown[] = [];
  private opRefs = false;
  private opFailure: LuaFailureKind | null = null;
  private lastError: { message: string; value?: unknown } | undefined;
  private lastTraceback = '';

  static async create(setup: WorkerSetup, host: EngineHost): Promise<Engine> {
    const { value: lua, exports } = await captureWasmExports(() => LuaWasm.initialize(setup.wasmPath));
    return new Engine(lua.module as unknown as WasmModule, exports, setup, host);
  }

  private constructor(
    private readonly mod: WasmModule,
    exports: WebAssembly.Exports | undefined,
    private readonly setup: WorkerSetup,
    private readonly host: EngineHost,
  ) {
    this.api = bindCApi(mod, exports);
    this.L = this.api.newstate(mod.addFunction((_ud: number, ptr: number, oldSize: number, newSize: number) => this.allocate(ptr, oldSize, newSize), 'iiiii'), 0);
    if (!this.L) throw new Error('could not create a Lua state');
    this.control = new Int32Array(setup.control);
    this.hook = mod.addFunction((L1: number) => this.onHook(L1), 'vii');
    this.stub = mod.addFunction((L1: number) => this.callHostFunction(L1), 'ii');
    this.trampoline = mod.addFunction((L1: number) => this.runPending(L1), 'ii');
    this.msgh = mod.addFunction((L1: number) => this.onError(L1), 'ii');
    const pushHostFunction = (L1: number, id: number, mapArgs: number) => {
      this.api.pushinteger(L1, BigInt(id));
      this.api.pushinteger(L1, BigInt(mapArgs));
      this.api.pushcclosure(L1, this.stub, 2);
    };
    this.conv = new Converter(this.api, mod, setup.placeholderKey, (m) => host.log('warn', m), pushHostFunction, setup.memoryLimitBytes);
    installSandbox(
      {
        api: this.api,
        mod,
        conv: this.conv,
        L: this.L,
        log: host.log,
        cfunction: (fn) => mod.addFunction((L1: number) => this.guard(L1, () => fn(L1)), 'ii'),
        raise: (L1, message) => this.raise(L1, message),
        typeName: (L1, idx) => this.typeName(L1, idx),
        cstring: (text) => this.cstring(text),
      },
      setup,
    );
    this.api.sethook(this.L, this.hook, LUA_MASKCOUNT, HOOK_INTERVAL);
  }

  /** Bytes the Lua state holds. */
  memoryUsed(): number {
    return this.allocated;
  }

  /**
   * Lua's allocator (lua_Alloc): every allocation of the state passes here, so refusing one
   * that would cross the limit makes Lua raise "not enough memory" in the code that asked.
   */
  private allocate(ptr: number, oldSize: number, newSize: number): number {
    // When ptr is NULL, oldSize encodes the kind of object, not a size.
    const old = ptr ? oldSize : 0;
    if (newSize === 0) {
      if (ptr) {
        this.allocated -= old;
        this.api.free(ptr);
      }
      return 0;
    }
    if (newSize > old && this.allocated + newSize - old > this.setup.memoryLimitBytes) return 0;
    const next = this.api.realloc(ptr, newSize);
    if (next) this.allocated += newSize - old;
    return next;
  }

  private pushGlobals(L: number): void {
    pushGlobals(this.api, L);
  }

  /** A NUL-terminated copy of s in wasm memory, kept for the life of the VM (constant names only). */
  private cstring(s: string): number {
    let ptr = this.cstrings.get(s);
    if (ptr === undefined) {
      const bytes = new TextEncoder().encode(s);
      ptr = this.api.malloc(bytes.length + 1);
      this.mod.HEAPU8.set(bytes, ptr);
      this.mod.HEAPU8[ptr + bytes.length] = 0;
      this.cstrings.set(s, ptr);
    }
    return ptr;
  }

  private typeName(L: number, idx: number): string {
    const t = this.api.type(L, idx);
    return t === T.None ? 'no value' : (TYPE_NAMES[t] ?? '?');
  }

  // ---- errors raised into Lua ----------------------------------------------------------------

  /** Raises a Lua error "<where>message" (where = the calling Lua line, as luaL_error does). */
  private raise(L: number, message: string, where = true): number {
    if (where) this.api.where(L, 1);
    this.conv.pushString(L, message);
    if (where) this.api.concat(L, 2);
    return this.api.error(L);
  }

  /** Runs JS called from Lua, turning JS exceptions into Lua errors and letting longjmps pass. */
  private guard(L: number, fn: () => number): number {
    let failure: string;
    try {
      return fn();
    } catch (e) {
      if (isLongjmp(e)) throw e;
      failure = e instanceof Error ? e.message : String(e);
    }
    return this.raise(L, failure);
  }

  private expiredMessage(): string {
    return this.expired === 'cancelled' ? 'plugin call cancelled' : 'plugin call timed out';
  }

  private checkExpiry(): boolean {
    if (this.expired) return true;
    if (Date.now() > this.deadline) this.expired = 'timeout';
    else if (Atomics.load(this.control, CANCEL_SLOT) === this.seq) this.expired = 'cancelled';
    return this.expired !== null;
  }

  /**
   * The count hook. Once the deadline passed it raises on every later instruction of the
   * thread (count 1), so a plugin that catches the error with pcall fails again at its very
   * next instruction and cannot keep running.
   */
  private onHook(L: number): void {
    this.hookChecks++;
    if (!this.checkExpiry()) {
      if (this.api.gethookcount(L) !== HOOK_INTERVAL) this.api.sethook(L, this.hook, LUA_MASKCOUNT, HOOK_INTERVAL);
      return;
    }
    this.api.sethook(L, this.hook, LUA_MASKCOUNT, 1);
    this.raise(L, this.expiredMessage(), false);
  }

  // ---- host functions --------------------------------------------------------------------------

  private callHostFunction(L: number): number {
    return this.guard(L, () => {
      const { api } = this;
      if (this.checkExpiry()) return this.raiseExpired(L);
      const id = Number(api.tointegerx(L, upvalueIndex(1), 0));
      const mapArgs = Number(api.tointegerx(L, upvalueIndex(2), 0));
      const n = api.gettop(L);
      const args: unknown[] = [];
      let refs = false;
      for (let i = 1; i <= n; i++) {
        const r = this.conv.read(L, i, 'ref', i <= 31 && (mapArgs & (1 << (i - 1))) !== 0);
        args.push(r.value);
        refs ||= r.refs;
      }
      const outerL = this.hostL;
      this.hostL = L;
      this.hostDepth++;
      let reply: HostReply;
      try {
        reply = this.host.callHost(id, args, refs, L !== this.opThreads.at(-1));
      } finally {
        this.hostL = outerL;
        this.hostDepth--;
      }
      // Time spent in the host counts: an expired call fails as soon as Lua resumes.
      if (this.checkExpiry()) return this.raiseExpired(L);
      if (!reply.ok) {
        if (reply.rethrow?.value !== undefined) {
          this.conv.push(L, reply.rethrow.value);
          return api.error(L);
        }
        return this.raise(L, reply.message, !reply.rethrow);
      }
      if (!api.checkstack(L, reply.values.length + 4)) return this.raise(L, 'stack overflow');
      for (const v of reply.values) this.conv.push(L, v);
      return reply.values.length;
    });
  }

  private raiseExpired(L: number): number {
    this.api.sethook(L, this.hook, LUA_MASKCOUNT, 1);
    return this.raise(L, this.expiredMessage(), false);
  }

  // ---- operations ------------------------------------------------------------------------------

  /** Runs an operation: at top level when idle, or nested inside the waiting host function. */
  run(seq: number, deadline: number, operation: Operation): OperationResult {
    const { api } = this;
    const nested = this.hostDepth > 0;
    const L = nested ? this.hostL : this.L;
    this.opThreads.push(L);
    const outerDeadline = this.deadline;
    if (nested) {
      this.deadline = Math.min(this.deadline, deadline);
    } else {
      this.seq = seq;
      this.deadline = deadline;
      this.expired = null;
      this.hookChecks = 0;
    }
    const base = api.gettop(L);
    try {
      if (!api.checkstack(L, 4)) return failure('runtime', 'stack overflow');
      api.pushcclosure(L, this.msgh, 0);
      api.pushcclosure(L, this.trampoline, 0);
      this.pendingOp = operation;
      this.opValues = [];
      this.opRefs = false;
      this.opFailure = null;
      this.lastError = undefined;
      this.lastTraceback = '';
      const status = api.pcallk(L, 0, 0, base + 1, 0, 0);
      if (this.expired) return failure(this.expired, this.expiredMessage(), this.lastTraceback);
      if (status === Status.Ok) return { ok: true, values: this.opValues, refs: this.opRefs };
      return this.describeFailure(L, status);
    } finally {
      this.opThreads.pop();
      api.settop(L, base);
      if (nested) this.deadline = outerDeadline;
      else {
        this.deadline = Infinity;
        api.sethook(L, this.hook, LUA_MASKCOUNT, HOOK_INTERVAL);
      }
    }
  }

  private describeFailure(L: number, status: number): OperationResult {
    const { api } = this;
    let message: string;
    let value: unknown;
    if (this.lastError) ({ message, value } = this.lastError);
    else if (api.type(L, -1) === T.String) message = this.conv.readText(L, -1);
    else message = `(error object is a ${this.typeName(L, -1)} value)`;
    let kind: LuaFailureKind = this.opFailure ?? 'runtime';
    if (status === Status.ErrMem || message === 'not enough memory') kind = 'memory';
    return failure(kind, message, this.lastTraceback, value);
  }

  /** The message handler of every operation: keeps the error text, its value and a traceback. */
  private onError(L: number): number {
    try {
      const { api } = this;
      const t = api.type(L, 1);
      if (t === T.String) this.lastError = { message: this.conv.readText(L, 1) };
      else if (t === T.Number) this.lastError = { message: api.isinteger(L, 1) ? String(api.tointegerx(L, 1, 0)) : formatLuaFloat(api.tonumberx(L, 1, 0)) };
      else this.lastError = { message: `(error object is a ${this.typeName(L, 1)} value)`, value: this.conv.read(L, 1, 'null').value };
      api.traceback(L, L, 0, 1);
      this.lastTraceback = trimTraceback(this.conv.readText(L, -1));
      api.settop(L, 1);
    } catch (e) {
      if (isLongjmp(e)) throw e;
    }
    return 1;
  }

  /** The protected body of run(): everything that may raise happens in here. */
  private runPending(L: number): number {
    const op = this.pendingOp;
    this.pendingOp = undefined;
    if (!op) return 0;
    return this.guard(L, () => {
      switch (op.op) {
        case 'load':
          return this.load(L, op.source, op.chunkName);
        case 'call':
          return this.call(L, op);
        case 'getGlobal':
          this.getGlobal(L, op.name);
          this.opValues = [this.conv.read(L, -1, 'null', op.mode === 'map').value];
          return 0;
        case 'setGlobal':
          this.pushGlobals(L);
          this.conv.pushString(L, op.name);
          this.conv.push(L, op.value);
          this.api.rawset(L, -3);
          return 0;
        case 'typeOf':
          this.getGlobal(L, op.name);
          this.opValues = [this.typeName(L, -1)];
          return 0;
      }
    });
  }

  /** Pushes the global name, read raw (a metatable on _G never runs host-side). */
  private getGlobal(L: number, name: string): void {
    this.pushGlobals(L);
    this.conv.pushString(L, name);
    this.api.rawget(L, -2);
    this.api.copy(L, -1, -2);
    this.api.settop(L, -2);
  }

  private load(L: number, source: Uint8Array, chunkName: string): number {
    const { api } = this;
    const buf = api.malloc(Math.max(1, source.length));
    if (!buf) return this.raise(L, 'not enough memory', false);
    this.mod.HEAPU8.set(source, buf);
    const name = new TextEncoder().encode(`@${chunkName}\0`);
    const namePtr = api.malloc(name.length);
    this.mod.HEAPU8.set(name, namePtr);
    // Mode "t": a precompiled (binary) chunk is refused, so bytecode never reaches the VM.
    const status = api.loadbufferx(L, buf, source.length, namePtr, this.cstring('t'));
    api.free(namePtr);
    api.free(buf);
    if (status !== Status.Ok) {
      this.opFailure = status === Status.ErrSyntax ? 'syntax' : 'runtime';
      return api.error(L);
    }
    api.callk(L, 0, LUA_MULTRET, 0, 0);
    // Top-level code may have put a metatable on the globals; the host reads them raw and
    // without it (library-plugins.md §9.3).
    this.pushGlobals(L);
    api.pushnil(L);
    api.setmetatable(L, -2);
    api.settop(L, -2);
    this.collectResults(L, 'value');
    return 0;
  }

  private call(L: number, op: Extract<Operation, { op: 'call' }>): number {
    const { api } = this;
    if ('global' in op.target) {
      this.getGlobal(L, op.target.global);
      const t = api.type(L, -1);
      if (t !== T.Function) return this.raise(L, `attempt to call a ${TYPE_NAMES[t] ?? '?'} value (global '${op.target.global}')`, false);
    } else {
      api.rawgeti(L, LUA_REGISTRYINDEX, BigInt(op.target.ref));
      if (api.type(L, -1) !== T.Function) return this.raise(L, 'the plugin function is no longer available', false);
    }
    if (!api.checkstack(L, op.args.length + 4)) return this.raise(L, 'stack overflow', false);
    for (const arg of op.args) this.conv.push(L, arg);
    api.callk(L, op.args.length, LUA_MULTRET, 0, 0);
    this.collectResults(L, op.resultMode);
    return 0;
  }

  private collectResults(L: number, mode: 'value' | 'map'): void {
    const n = this.api.gettop(L);
    const values: unknown[] = [];
    for (let i = 1; i <= n; i++) values.push(this.conv.read(L, i, 'null', mode === 'map' && i === 1).value);
    this.opValues = values;
  }

  /** Drops Lua function references the main thread no longer holds. */
  release(refs: number[]): void {
    for (const ref of refs) this.api.unref(this.L, LUA_REGISTRYINDEX, ref);
  }
}

function failure(kind: LuaFailureKind, message: string, traceback = '', value?: unknown): OperationResult {
  return { ok: false, kind, message: clip(message, MAX_MESSAGE), traceback, ...(value === undefined ? {} : { value }) };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** luaL_traceback's text without its header and host frames, at most TRACEBACK_LINES lines. */
export function trimTraceback(text: string): string {
  const lines = text
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l && l !== '[C]: in ?');
  const kept = lines.slice(0, TRACEBACK_LINES);
  if (lines.length > kept.length) kept.push('…');
  return kept.join('\n');
}
