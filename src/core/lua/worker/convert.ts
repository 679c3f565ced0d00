// Value conversion between the Lua stack and plain JS values (library-plugins.md §9.5), done in
// the worker. Reading never allocates inside Lua except for function references, so it is safe
// outside protected calls; pushing may raise "not enough memory" and always runs protected.
import { LUA_REGISTRYINDEX, T, type CApi, type WasmModule } from './capi.js';
import type { Placeholder } from '../protocol.js';

export const MAX_VALUES = 100_000;
export const MAX_DEPTH = 256;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Marks a value left out because a limit was reached. */
const DROPPED = Symbol('dropped');

/** How functions found in a Lua value are read. */
export type FunctionMode = 'null' | 'ref';

export interface ReadResult {
  value: unknown;
  /** True when the value holds function placeholders the main thread must revive. */
  refs: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** Lua's own text for a float ("%.14g", with ".0" added when it looks like an integer). */
export function formatLuaFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential(13).split('e');
  const exp = Number(expText);
  let s: string;
  if (exp < -4 || exp >= 14) {
    const m = mantissa.replace(/\.?0+$/, '');
    s = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else {
    s = x.toFixed(13 - exp);
    if (s.includes('.')) s = s.replace(/\.?0+$/, '');
  }
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export class Converter {
  private readonly lenPtr: number;
  private readonly scratchSize = 4096;
  private readonly scratch: number;
  private view: Uint8Array | undefined;
  private viewOf: Uint8Array | undefined;
  // State of the conversion in progress (reads do not nest).
  private count = 0;
  private bytes = 0;
  private warned = false;
  private refsUsed = false;
  private functions: FunctionMode = 'null';
  private readonly path = new Set<number>();

  constructor(
    private readonly api: CApi,
    private readonly mod: WasmModule,
    private readonly placeholderKey: string,
    private readonly warn: (message: string) => void,
    private readonly pushHostFunction: (L: number, id: number, mapArgs: number) => void,
    /**
     * Most string bytes one conversion produces. Lua shares strings, so a table holding one
     * big string 100,000 times is cheap in Lua and would be 100,000 copies outside it.
     */
    private readonly maxBytes: number,
  ) {
    this.lenPtr = api.malloc(8);
    this.scratch = api.malloc(this.scratchSize);
  }

  // ---- Lua → JS ------------------------------------------------------------------------------

  /** Reads the value at idx. In map mode a table keeps only its string keys (top level only). */
  read(L: number, idx: number, functions: FunctionMode, map = false): ReadResult {
    this.count = 0;
    this.bytes = 0;
    this.warned = false;
    this.refsUsed = false;
    this.functions = functions;
    this.path.clear();
    const at = this.api.absindex(L, idx);
    let value: unknown;
    if (map) value = this.api.type(L, at) === T.Table ? this.readTable(L, at, 0, true) : null;
    else value = this.readValue(L, at, 0);
    this.path.clear();
    return { value: value === DROPPED ? null : value, refs: this.refsUsed };
  }

  /** The string at idx: a JS string when it is valid UTF-8, else its bytes. */
  readString(L: number, idx: number): string | Uint8Array {
    const bytes = this.stringBytes(L, idx);
    if (bytes.length < 64 && isAscii(bytes)) return String.fromCharCode(...bytes);
    try {
      return strictUtf8.decode(bytes);
    } catch {
      return bytes.slice();
    }
  }

  /** The string at idx as text; bytes that are not UTF-8 become U+FFFD. */
  readText(L: number, idx: number): string {
    const bytes = this.stringBytes(L, idx);
    if (bytes.length < 64 && isAscii(bytes)) return String.fromCharCode(...bytes);
    return lossyUtf8.decode(bytes);
  }

  private stringBytes(L: number, idx: number): Uint8Array {
    const ptr = this.api.tolstring(L, idx, this.lenPtr);
    const len = this.mod.HEAPU32[this.lenPtr >> 2];
    return this.mod.HEAPU8.subarray(ptr, ptr + len);
  }

  private limit(message: string): typeof DROPPED {
    if (!this.warned) {
      this.warned = true;
      this.warn(message);
    }
    return DROPPED;
  }

  private readValue(L: number, idx: number, depth: number): unknown {
    if (this.count >= MAX_VALUES) return this.limit(`value conversion stopped at ${MAX_VALUES} values; the rest was dropped`);
    this.count++;
    const api = this.api;
    switch (api.type(L, idx)) {
      case T.Boolean:
        return api.toboolean(L, idx) !== 0;
      case T.Number:
        return api.isinteger(L, idx) ? Number(api.tointegerx(L, idx, 0)) : api.tonumberx(L, idx, 0);
      case T.String: {
        this.bytes += Number(this.api.rawlen(L, idx));
        if (this.bytes > this.maxBytes) return this.limit(`value conversion stopped at ${this.maxBytes} bytes of strings; the rest was dropped`);
        return this.readString(L, idx);
      }
      case T.Table:
        return this.readTable(L, idx, depth, false);
      case T.Function:
        if (this.functions === 'null') return null;
        api.pushvalue(L, idx);
        this.refsUsed = true;
        return { [this.placeholderKey]: -api.ref(L, LUA_REGISTRYINDEX) };
      default:
        return null;
    }
  }

  private readTable(L: number, idx: number, depth: number, map: boolean): unknown {
    const api = this.api;
    const ptr = api.topointer(L, idx);
    if (this.path.has(ptr)) return null; // a cycle: the table is already being converted above
    if (depth >= MAX_DEPTH) return this.limit(`value conversion stopped at nesting depth ${MAX_DEPTH}; deeper tables were dropped`);
    if (!api.checkstack(L, 4)) return this.limit('value conversion ran out of Lua stack; the rest was dropped');
    this.path.add(ptr);
    const entries: { key: string | number; numeric: boolean; value: unknown }[] = [];
    let allIndices = true;
    let keyCount = 0;
    let maxIndex = 0;
    let truncated = false;
    api.pushnil(L);
    while (api.next(L, idx) !== 0) {
      if (this.count >= MAX_VALUES) {
        this.limit(`value conversion stopped at ${MAX_VALUES} values; the rest was dropped`);
        api.settop(L, -3);
        truncated = true;
        break;
      }
      const keyAt = api.absindex(L, -2);
      let key: string | number | undefined;
      let numeric = true;
      const kt = api.type(L, keyAt);
      if (kt === T.Number && api.isinteger(L, keyAt)) {
        const k = api.tointegerx(L, keyAt, 0);
        if (k >= 1n && k <= BigInt(MAX_SAFE)) key = Number(k);
        else key = k.toString();
      } else if (kt === T.Number) {
        key = formatLuaFloat(api.tonumberx(L, keyAt, 0));
      } else if (kt === T.String) {
        key = this.readText(L, keyAt);
        numeric = false;
      }
      if (typeof key !== 'number') allIndices = false;
      if (key === undefined || (map && numeric)) {
        api.settop(L, -2);
        continue;
      }
      keyCount++;
      if (typeof key === 'number' && key > maxIndex) maxIndex = key;
      const value = this.readValue(L, api.absindex(L, -1), depth + 1);
      entries.push({ key, numeric, value });
      api.settop(L, -2);
    }
    this.path.delete(ptr);

    if (!map && allIndices && keyCount > 0 && (maxIndex === keyCount || truncated)) {
      entries.sort((a, b) => (a.key as number) - (b.key as number));
      const out: unknown[] = new Array(truncated ? entries.length : keyCount).fill(null);
      entries.forEach((e, i) => {
        out[truncated ? i : (e.key as number) - 1] = e.value === DROPPED ? null : e.value;
      });
      return out;
    }
    const obj: Record<string, unknown> = {};
    for (const e of entries) {
      if (e.value === DROPPED) continue;
      const key = String(e.key);
      // A string key wins over a number key that prints the same ({[1]=…, ["1"]=…}).
      if (e.numeric && Object.prototype.hasOwnProperty.call(obj, key)) continue;
      setKey(obj, key, e.value);
    }
    return obj;
  }

  // ---- JS → Lua ------------------------------------------------------------------------------

  /** Pushes a transported value (plain data plus placeholders) as one Lua value. */
  push(L: number, value: unknown, depth = 0): void {
    const api = this.api;
    switch (typeof value) {
      case 'boolean':
        api.pushboolean(L, value ? 1 : 0);
        return;
      case 'number':
        if (Number.isInteger(value) && Math.abs(value) <= MAX_SAFE) api.pushinteger(L, BigInt(value));
        else api.pushnumber(L, value);
        return;
      case 'bigint':
        if (value >= INT64_MIN && value <= INT64_MAX) api.pushinteger(L, value);
        else api.pushnumber(L, Number(value));
        return;
      case 'string':
        this.pushString(L, value);
        return;
      case 'object':
        if (value === null) break;
        this.pushObject(L, value, depth);
        return;
    }
    api.pushnil(L);
  }

  pushString(L: number, s: string): void {
    // Worst case three bytes per UTF-16 unit; short strings go through a reused buffer.
    if (s.length * 3 <= this.scratchSize) {
      const { written } = encoder.encodeInto(s, this.scratchView());
      this.api.pushlstring(L, this.scratch, written);
      return;
    }
    this.pushBytes(L, encoder.encode(s));
  }

  /** A view of the scratch buffer, made again only when wasm memory grew (a new HEAPU8). */
  private scratchView(): Uint8Array {
    const heap = this.mod.HEAPU8;
    if (this.viewOf !== heap || !this.view) {
      this.viewOf = heap;
      this.view = heap.subarray(this.scratch, this.scratch + this.scratchSize);
    }
    return this.view;
  }

  pushBytes(L: number, bytes: Uint8Array): void {
    const ptr = this.api.malloc(Math.max(1, bytes.length));
    if (!ptr) throw new Error('not enough memory');
    try {
      this.mod.HEAPU8.set(bytes, ptr);
      this.api.pushlstring(L, ptr, bytes.length);
    } finally {
      this.api.free(ptr); // also runs when pushlstring raises (a longjmp is a JS throw here)
    }
  }

  private pushObject(L: number, value: object, depth: number): void {
    const api = this.api;
    if (ArrayBuffer.isView(value)) {
      this.pushBytes(L, new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      return;
    }
    if (value instanceof ArrayBuffer) {
      this.pushBytes(L, new Uint8Array(value));
      return;
    }
    const marker = (value as Placeholder)[this.placeholderKey];
    if (typeof marker === 'number') {
      if (marker > 0) this.pushHostFunction(L, marker, (value as Placeholder).mapArgs ?? 0);
      else api.rawgeti(L, LUA_REGISTRYINDEX, BigInt(-marker));
      return;
    }
    if (depth >= MAX_DEPTH || !api.checkstack(L, 4)) {
      api.pushnil(L);
      return;
    }
    if (Array.isArray(value)) {
      api.createtable(L, value.length, 0);
      for (let i = 0; i < value.length; i++) {
        const el: unknown = value[i];
        if (el === null || el === undefined) continue; // a hole: Lua tables have no nil values
        this.push(L, el, depth + 1);
        api.rawseti(L, -2, BigInt(i + 1));
      }
      return;
    }
    const keys = Object.keys(value);
    api.createtable(L, 0, keys.length);
    for (const key of keys) {
      const el: unknown = (value as Record<string, unknown>)[key];
      if (el === null || el === undefined) continue;
      this.pushString(L, key);
      this.push(L, el, depth + 1);
      api.rawset(L, -3);
    }
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}
