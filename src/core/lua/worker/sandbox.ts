// The sandbox every plugin state gets before any plugin code runs (library-plugins.md §9.3,
// clip-behaviour.md §8.4): the safe libraries only, no way to load code or bytecode, print and
// warn to the host's log, setmetatable without __gc, xpcall rebuilt, the 5.1 shims.
import { LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS, Status, T, type CApi, type WasmModule } from './capi.js';
import type { Converter } from './convert.js';

const MAX_LOG_LINE = 64 * 1024;

export interface SandboxDeps {
  api: CApi;
  mod: WasmModule;
  conv: Converter;
  L: number;
  log(level: 'info' | 'warn', message: string): void;
  /** Makes a Lua C function of JS (JS exceptions become Lua errors). */
  cfunction(fn: (L: number) => number): number;
  /** Raises a Lua error with the calling line, as luaL_error does. */
  raise(L: number, message: string): number;
  typeName(L: number, idx: number): string;
  /** A C string kept for the life of the state. */
  cstring(text: string): number;
}

export interface SandboxOptions {
  coroutines: boolean;
  hiddenGlobals: readonly string[];
}

export function pushGlobals(api: CApi, L: number): void {
  api.rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
}

// xpcall is rebuilt on pcall: a real xpcall runs its message handler before the stack unwinds,
// and when the error came from the instruction hook (a timeout) that handler would run with
// hooks switched off, free to loop forever. This one calls the handler after pcall returned,
// under the hook like any other code. Plugins cannot tell the difference: without the debug
// library a handler has nothing to inspect on the unwound stack.
const SANDBOX_PRELUDE = String.raw`
local pcall, type, error = pcall, type, error

local function finish(handler, ok, ...)
  if ok then return true, ... end
  local handled, result = pcall(handler, (...))
  if handled then return false, result end
  return false, "error in error handling"
end

function xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return finish(handler, pcall(f, ...))
end

-- Lua 5.1 names that plugins written for the original host use.
unpack = table.unpack
math.pow = function(a, b) return a ^ b end
table.getn = function(t) return #t end
`;

export function installSandbox(deps: SandboxDeps, options: SandboxOptions): void {
  new Sandbox(deps, options).install();
}

class Sandbox {
  constructor(
    private readonly d: SandboxDeps,
    private readonly options: SandboxOptions,
  ) {}

  install(): void {
    const { api, L } = this.d;
    api.openBase(L);
    api.settop(L, 0);
    const libs: [string, (L: number) => number][] = [
      ['table', api.openTable],
      ['string', api.openString],
      ['math', api.openMath],
    ];
    if (this.options.coroutines) libs.push(['coroutine', api.openCoroutine]);
    for (const [name, open] of libs) {
      open(L);
      this.setGlobalFromTop(name);
    }
    this.registerLoaded(['_G', ...libs.map(([name]) => name)]);
    for (const name of ['dofile', 'loadfile', 'load', 'loadstring', 'require', 'module']) this.clearGlobal(name);
    this.setField('string', 'dump', null); // bytecode is useless without load, and never needed
    this.setCFunction('print', (L1) => this.print(L1, 'info', '\t'));
    this.setCFunction('warn', (L1) => this.print(L1, 'warn', ''));
    this.setCFunction('setmetatable', (L1) => this.setmetatable(L1));
    this.runPrelude();
    for (const name of this.options.hiddenGlobals) this.clearGlobal(name);
    api.settop(L, 0);
  }

  /**
   * Records the libraries in the registry's _LOADED table, as luaL_openlibs would: tracebacks
   * and argument errors find function names there ("in function 'handler'").
   */
  private registerLoaded(names: string[]): void {
    const { api, L } = this.d;
    api.pushvalue(L, LUA_REGISTRYINDEX);
    this.d.conv.pushString(L, '_LOADED');
    if (api.rawget(L, -2) !== T.Table) {
      api.settop(L, -2);
      api.createtable(L, 0, names.length);
      this.d.conv.pushString(L, '_LOADED');
      api.pushvalue(L, -2);
      api.rawset(L, -4);
    }
    for (const name of names) {
      this.d.conv.pushString(L, name);
      pushGlobals(api, L);
      if (name !== '_G') {
        this.d.conv.pushString(L, name);
        api.rawget(L, -2);
        api.copy(L, -1, -2);
        api.settop(L, -2);
      }
      api.rawset(L, -3);
    }
    api.settop(L, -3);
  }

  private setGlobalFromTop(name: string): void {
    const { api, L } = this.d;
    pushGlobals(api, L);
    this.d.conv.pushString(L, name);
    api.pushvalue(L, -3);
    api.rawset(L, -3);
    api.settop(L, -3);
  }

  private clearGlobal(name: string): void {
    this.d.api.pushnil(this.d.L);
    this.setGlobalFromTop(name);
  }

  private setField(table: string, key: string, value: null): void {
    const { api, L } = this.d;
    pushGlobals(api, L);
    this.d.conv.pushString(L, table);
    api.rawget(L, -2);
    this.d.conv.pushString(L, key);
    this.d.conv.push(L, value);
    api.rawset(L, -3);
    api.settop(L, -3);
  }

  private setCFunction(name: string, fn: (L: number) => number): void {
    this.d.api.pushcclosure(this.d.L, this.d.cfunction(fn), 0);
    this.setGlobalFromTop(name);
  }

  private runPrelude(): void {
    const { api, L } = this.d;
    const src = new TextEncoder().encode(SANDBOX_PRELUDE);
    const buf = api.malloc(src.length);
    this.d.mod.HEAPU8.set(src, buf);
    const status = api.loadbufferx(L, buf, src.length, this.d.cstring('=sandbox'), this.d.cstring('t'));
    api.free(buf);
    if (status !== Status.Ok || api.pcallk(L, 0, 0, 0, 0, 0) !== Status.Ok) {
      throw new Error(`sandbox prelude failed: ${this.d.conv.readText(L, -1)}`);
    }
  }

  /** print and warn: the process log, through the main thread. */
  private print(L: number, level: 'info' | 'warn', separator: string): number {
    const { api } = this.d;
    const n = api.gettop(L);
    if (level === 'warn' && n === 1 && api.type(L, 1) === T.String && this.d.conv.readText(L, 1).startsWith('@')) return 0; // control message
    const parts: string[] = [];
    let size = 0;
    for (let i = 1; i <= n && size < MAX_LOG_LINE; i++) {
      this.tostring(L, i);
      const part = this.d.conv.readText(L, -1);
      api.settop(L, -2);
      parts.push(part);
      size += part.length;
    }
    const line = parts.join(separator);
    this.d.log(level, line.length > MAX_LOG_LINE ? `${line.slice(0, MAX_LOG_LINE)}…` : line);
    return 0;
  }

  /** luaL_tolstring (honours __tostring and __name); pushes the result. */
  private tostring(L: number, idx: number): void {
    this.d.api.tolstringMeta(L, idx, 0);
  }

  /** setmetatable as in the base library, except that __gc is refused: finalizers run with hooks off. */
  private setmetatable(L: number): number {
    const { api } = this.d;
    const t2 = api.type(L, 2);
    if (api.type(L, 1) !== T.Table) return this.d.raise(L, `bad argument #1 to 'setmetatable' (table expected, got ${this.d.typeName(L, 1)})`);
    if (t2 !== T.Nil && t2 !== T.Table) return this.d.raise(L, `bad argument #2 to 'setmetatable' (nil or table expected)`);
    if (t2 === T.Table) {
      this.d.conv.pushString(L, '__gc');
      const gc = api.rawget(L, 2);
      api.settop(L, -2);
      if (gc !== T.Nil) return this.d.raise(L, `setmetatable: __gc metamethods are not available to plugins`);
    }
    if (api.getmetatable(L, 1)) {
      this.d.conv.pushString(L, '__metatable');
      const protectedMt = api.rawget(L, -2);
      api.settop(L, -3);
      if (protectedMt !== T.Nil) return this.d.raise(L, 'cannot change a protected metatable');
    }
    api.settop(L, 2);
    api.setmetatable(L, 1);
    return 1;
  }
}
