// The slice of the Lua 5.4 C API the worker uses, bound straight to wasmoon's exported wasm
// functions. wasmoon's own wrappers decode every string as UTF-8 (losing binary bytes) and go
// through ccall on each call; the raw exports take pointers and are several times faster.
// Lua integers are 64-bit: they cross as BigInt.

export const LUA_REGISTRYINDEX = -1001000;
export const LUA_RIDX_GLOBALS = 2n;
export const LUA_MULTRET = -1;
export const LUA_MASKCOUNT = 8;

/** Lua type tags (lua_type). */
export const T = { None: -1, Nil: 0, Boolean: 1, LightUserdata: 2, Number: 3, String: 4, Table: 5, Function: 6, Userdata: 7, Thread: 8 } as const;

/** Status codes of lua_pcall and luaL_loadbuffer. */
export const Status = { Ok: 0, Yield: 1, ErrRun: 2, ErrSyntax: 3, ErrMem: 4, ErrErr: 5 } as const;

type L = number;
type Ptr = number;

export interface CApi {
  gettop(L: L): number;
  settop(L: L, idx: number): void;
  absindex(L: L, idx: number): number;
  pushvalue(L: L, idx: number): void;
  copy(L: L, from: number, to: number): void;
  checkstack(L: L, n: number): number;
  type(L: L, idx: number): number;
  isinteger(L: L, idx: number): number;
  toboolean(L: L, idx: number): number;
  tointegerx(L: L, idx: number, isnum: Ptr): bigint;
  tonumberx(L: L, idx: number, isnum: Ptr): number;
  tolstring(L: L, idx: number, len: Ptr): Ptr;
  topointer(L: L, idx: number): number;
  /** lua_Unsigned: 64-bit. */
  rawlen(L: L, idx: number): bigint;
  pushnil(L: L): void;
  pushboolean(L: L, b: number): void;
  pushinteger(L: L, n: bigint): void;
  pushnumber(L: L, n: number): void;
  pushlstring(L: L, s: Ptr, len: number): Ptr;
  pushcclosure(L: L, fn: Ptr, n: number): void;
  createtable(L: L, narr: number, nrec: number): void;
  rawget(L: L, idx: number): number;
  rawgeti(L: L, idx: number, n: bigint): number;
  rawset(L: L, idx: number): void;
  rawseti(L: L, idx: number, n: bigint): void;
  next(L: L, idx: number): number;
  getmetatable(L: L, idx: number): number;
  setmetatable(L: L, idx: number): number;
  concat(L: L, n: number): void;
  error(L: L): number;
  callk(L: L, nargs: number, nresults: number, ctx: number, k: Ptr): void;
  pcallk(L: L, nargs: number, nresults: number, errfunc: number, ctx: number, k: Ptr): number;
  sethook(L: L, fn: Ptr, mask: number, count: number): void;
  gethookcount(L: L): number;
  ref(L: L, t: number): number;
  unref(L: L, t: number, ref: number): void;
  loadbufferx(L: L, buf: Ptr, size: number, name: Ptr, mode: Ptr): number;
  traceback(L: L, L1: L, msg: Ptr, level: number): void;
  where(L: L, level: number): void;
  tolstringMeta(L: L, idx: number, len: Ptr): Ptr;
  openBase(L: L): number;
  openTable(L: L): number;
  openString(L: L): number;
  openMath(L: L): number;
  openCoroutine(L: L): number;
  newstate(alloc: Ptr, ud: Ptr): L;
  malloc(n: number): Ptr;
  realloc(p: Ptr, n: number): Ptr;
  free(p: Ptr): void;
}

/** The Emscripten module wasmoon loads, as far as the worker touches it. */
export interface WasmModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  addFunction(fn: (...args: number[]) => number | void, signature: string): Ptr;
  [name: string]: unknown;
}

/**
 * Runs wasmoon's initialisation and keeps the raw exports of the wasm instance it creates.
 * wasmoon's build wraps every export in a checking shim that looks the function up by name on
 * each call; calling the exports directly makes value conversion about twice as fast.
 */
export async function captureWasmExports<T>(initialize: () => Promise<T>): Promise<{ value: T; exports: WebAssembly.Exports | undefined }> {
  const original = WebAssembly.instantiate;
  let exports: WebAssembly.Exports | undefined;
  const capturing = async (...args: Parameters<typeof WebAssembly.instantiate>) => {
    const result = (await (original as (...a: unknown[]) => Promise<unknown>)(...args)) as WebAssembly.Instance | WebAssembly.WebAssemblyInstantiatedSource;
    exports = ('instance' in result ? result.instance : result).exports;
    return result;
  };
  WebAssembly.instantiate = capturing as typeof WebAssembly.instantiate;
  try {
    return { value: await initialize(), exports };
  } finally {
    WebAssembly.instantiate = original;
  }
}

export function bindCApi(m: WasmModule, exports?: WebAssembly.Exports): CApi {
  const f = (name: string) => {
    const fn = exports?.[name] ?? m[`_${name}`];
    if (typeof fn !== 'function') throw new Error(`wasmoon does not export ${name}`);
    return fn as (...args: unknown[]) => never;
  };
  return {
    gettop: f('lua_gettop'),
    settop: f('lua_settop'),
    absindex: f('lua_absindex'),
    pushvalue: f('lua_pushvalue'),
    copy: f('lua_copy'),
    checkstack: f('lua_checkstack'),
    type: f('lua_type'),
    isinteger: f('lua_isinteger'),
    toboolean: f('lua_toboolean'),
    tointegerx: f('lua_tointegerx'),
    tonumberx: f('lua_tonumberx'),
    tolstring: f('lua_tolstring'),
    topointer: f('lua_topointer'),
    rawlen: f('lua_rawlen'),
    pushnil: f('lua_pushnil'),
    pushboolean: f('lua_pushboolean'),
    pushinteger: f('lua_pushinteger'),
    pushnumber: f('lua_pushnumber'),
    pushlstring: f('lua_pushlstring'),
    pushcclosure: f('lua_pushcclosure'),
    createtable: f('lua_createtable'),
    rawget: f('lua_rawget'),
    rawgeti: f('lua_rawgeti'),
    rawset: f('lua_rawset'),
    rawseti: f('lua_rawseti'),
    next: f('lua_next'),
    getmetatable: f('lua_getmetatable'),
    setmetatable: f('lua_setmetatable'),
    concat: f('lua_concat'),
    error: f('lua_error'),
    callk: f('lua_callk'),
    pcallk: f('lua_pcallk'),
    sethook: f('lua_sethook'),
    gethookcount: f('lua_gethookcount'),
    ref: f('luaL_ref'),
    unref: f('luaL_unref'),
    loadbufferx: f('luaL_loadbufferx'),
    traceback: f('luaL_traceback'),
    where: f('luaL_where'),
    tolstringMeta: f('luaL_tolstring'),
    openBase: f('luaopen_base'),
    openTable: f('luaopen_table'),
    openString: f('luaopen_string'),
    openMath: f('luaopen_math'),
    openCoroutine: f('luaopen_coroutine'),
    newstate: f('lua_newstate'),
    malloc: f('malloc'),
    realloc: f('realloc'),
    free: f('free'),
  };
}

export function upvalueIndex(i: number): number {
  return LUA_REGISTRYINDEX - i;
}

/**
 * Emscripten implements longjmp (how Lua raises errors) by throwing a number through the JS
 * frames between the raise and the setjmp. JS code called from Lua must let those through.
 */
export function isLongjmp(e: unknown): boolean {
  return typeof e === 'number';
}
