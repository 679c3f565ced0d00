// Value conversion both ways (library-plugins.md §9.5, §31.6), observed from Lua and from the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LuaVm, hostFunction, luaBytes, luaText, multi, type LuaFunctionRef } from './index.js';
import { formatLuaFloat } from './worker/convert.js';

let vm: LuaVm;
const logs: string[] = [];
let received: unknown[] = [];

/** Runs a chunk and returns its results as the host sees them. */
function lua(code: string): Promise<unknown[]> {
  return vm.load(code, { chunkName: 'test.lua', entry: 'test', budgetMs: 5000 });
}

async function one(code: string): Promise<unknown> {
  return (await lua(code))[0];
}

beforeAll(async () => {
  vm = await LuaVm.create({ name: 'convert', log: (_level, message) => logs.push(message) });
  await vm.setGlobal('host', {
    value: (v: unknown) => v,
    record: (...args: unknown[]) => {
      received = args;
    },
    nothing: () => undefined,
    none: () => multi(),
    pair: () => multi(null, 'not found'),
    give: (name: unknown) => GIVE[name as string],
    asMap: hostFunction((opts: unknown) => opts, { mapArgs: [1] }),
    hex: (s: unknown) => luaBytes(s)?.toString('hex'),
    text: (s: unknown) => luaText(s),
  });
});

afterAll(async () => {
  await vm.close();
});

const GIVE: Record<string, unknown> = {
  int: 42,
  negZero: -0,
  maxSafe: Number.MAX_SAFE_INTEGER,
  beyondSafe: 2 ** 53,
  big: 1e300,
  half: 3.5,
  nan: NaN,
  inf: Infinity,
  ninf: -Infinity,
  bigint: 2n ** 60n,
  hugeBigint: 2n ** 70n,
  str: 'héllo ✓',
  nul: 'a\u0000b',
  bytes: new Uint8Array([0, 1, 255, 0xc3]),
  buffer: Buffer.from('bin\xff', 'latin1'),
  array: [1, 2, 3],
  holes: [null, 2, undefined, 4],
  emptyArray: [],
  emptyObject: {},
  object: { a: 1, b: { c: [true, false] }, gone: null, alsoGone: undefined },
  date: new Date('2026-03-01T10:30:00Z'),
  nested: { list: [{ id: 1 }, { id: 2 }] },
  fn: (x: unknown) => `called with ${String(x)}`,
};

describe('host → Lua', () => {
  it('integral numbers become Lua integers, others floats', async () => {
    const r = await lua(`
      local function d(v) return math.type(v) .. ":" .. tostring(v) end
      return d(host.give("int")), d(host.give("negZero")), d(host.give("maxSafe")), d(host.give("beyondSafe")),
             d(host.give("big")), d(host.give("half")), "id " .. host.give("int")`);
    expect(r).toEqual(['integer:42', 'integer:0', 'integer:9007199254740991', 'float:9.007199254741e+15', 'float:1e+300', 'float:3.5', 'id 42']);
  });

  it('NaN and infinities arrive as floats', async () => {
    expect(await lua(`local n = host.give("nan") return n ~= n, host.give("inf") == math.huge, host.give("ninf") == -math.huge, math.type(host.give("inf"))`)).toEqual([true, true, true, 'float']);
  });

  it('bigints within 64 bits stay exact integers', async () => {
    expect(await lua(`return tostring(host.give("bigint")), math.type(host.give("bigint")), math.type(host.give("hugeBigint"))`)).toEqual(['1152921504606846976', 'integer', 'float']);
  });

  it('strings arrive as UTF-8 bytes; Uint8Array and Buffer as binary strings', async () => {
    expect(await lua(`local s = host.give("str") return #s, s, #host.give("nul")`)).toEqual([10, 'héllo ✓', 3]);
    expect(await lua(`local b = host.give("bytes") return #b, string.byte(b, 1, -1)`)).toEqual([4, 0, 1, 255, 0xc3]);
    expect(await lua(`local b = host.give("buffer") return #b, string.byte(b, 4)`)).toEqual([4, 255]);
  });

  it('arrays become sequences; null and undefined leave holes', async () => {
    expect(await lua(`local t = host.give("array") return #t, t[1], t[3], math.type(t[2])`)).toEqual([3, 1, 3, 'integer']);
    expect(await lua(`local t = host.give("holes") local n = 0 for _ in pairs(t) do n = n + 1 end return n, t[1], t[2], t[3], t[4]`)).toEqual([2, null, 2, null, 4]);
  });

  it('objects become tables with string keys; null members are absent', async () => {
    const r = await lua(`
      local o = host.give("object")
      local keys = {}
      for k in pairs(o) do keys[#keys + 1] = k end
      table.sort(keys)
      return table.concat(keys, ","), o.b.c[1], o.b.c[2], rawget(o, "gone")`);
    expect(r).toEqual(['a,b', true, false, null]);
  });

  it('empty arrays and objects are empty tables', async () => {
    expect(await lua(`local a, o = host.give("emptyArray"), host.give("emptyObject") return type(a), next(a), type(o), next(o)`)).toEqual(['table', null, 'table', null]);
  });

  it('every table is a plain Lua table: no proxy, no metatable (§31.6, T-140)', async () => {
    const r = await lua(`
      local out = {}
      for _, name in ipairs({ "array", "object", "nested", "emptyArray" }) do
        local v = host.give(name)
        out[#out + 1] = type(v) .. ":" .. tostring(getmetatable(v) == nil)
      end
      local n = host.give("nested")
      out[#out + 1] = type(n.list[1]) .. ":" .. #n.list
      return table.concat(out, " ")`);
    expect(r).toEqual(['table:true table:true table:true table:true table:2']);
  });

  it('dates arrive as ISO strings', async () => {
    expect(await one(`return host.give("date")`)).toBe('2026-03-01T10:30:00.000Z');
  });

  it('JS functions arrive as callable Lua functions', async () => {
    expect(await lua(`local f = host.give("fn") return type(f), f(7)`)).toEqual(['function', 'called with 7']);
  });

  it('a missing result is exactly one nil; multi() gives several or none', async () => {
    expect(await lua(`return select("#", host.nothing()), tostring(host.nothing()), string.format("%s", host.nothing())`)).toEqual([1, 'nil', 'nil']);
    expect(await lua(`return select("#", host.none())`)).toEqual([0]);
    expect(await lua(`local v, err = host.pair() return select("#", host.pair()), v, err`)).toEqual([2, null, 'not found']);
  });

  it('cycles and excessive depth in host values are left out', async () => {
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 300; i++) deep = { next: deep };
    GIVE.cyclic = cyclic;
    GIVE.deep = deep;
    expect(await lua(`local c = host.give("cyclic") return c.name, c.self`)).toEqual(['root', null]);
    expect(await one(`local d, n = host.give("deep"), 0 while d and d.next do d = d.next n = n + 1 end return n`)).toBeLessThan(257);
  });
});

describe('Lua → host', () => {
  it('scalars', async () => {
    expect(await lua(`return nil, true, false, 42, 42.0, 3.5, -0.0, "s"`)).toEqual([null, true, false, 42, 42, 3.5, -0, 's']);
    const [nan, inf, ninf] = await lua(`return 0/0, math.huge, -math.huge`);
    expect(nan).toBeNaN();
    expect(inf).toBe(Infinity);
    expect(ninf).toBe(-Infinity);
    expect(await one(`return math.maxinteger`)).toBe(2 ** 63); // 64-bit integers beyond 2^53 come out rounded
  });

  it('a table with keys exactly 1..n is an array', async () => {
    expect(await one(`return {1, "two", true, {3}}`)).toEqual([1, 'two', true, [3]]);
    expect(await one(`local t = {} for i = 1, 1000 do t[i] = i * 2 end return t`)).toHaveLength(1000);
    expect(await one(`local t = {} t[3] = "c" t[1] = "a" t[2] = "b" return t`)).toEqual(['a', 'b', 'c']);
  });

  it('an empty table is an object', async () => {
    expect(await one(`return {}`)).toEqual({});
    expect(await one(`return {list = {}}`)).toEqual({ list: {} });
  });

  it('nil holes, zero, negative and sparse keys make objects with string keys', async () => {
    expect(await one(`return {1, nil, 3}`)).toEqual({ '1': 1, '3': 3 });
    expect(await one(`return {[0] = "z", "a"}`)).toEqual({ '0': 'z', '1': 'a' });
    expect(await one(`return {[-1] = "m"}`)).toEqual({ '-1': 'm' });
    expect(await one(`return {[2] = "b"}`)).toEqual({ '2': 'b' });
    expect(await one(`return {[1e9] = 1}`)).toEqual({ '1000000000': 1 });
    expect(await one(`return {1, 2, x = 3}`)).toEqual({ '1': 1, '2': 2, x: 3 });
  });

  it('float keys print as Lua prints them; keys of other types are dropped', async () => {
    expect(await one(`return {[2.5] = "a", [1e100] = "b", [math.huge] = "c", [-math.huge] = "d", [0.1] = "e"}`)).toEqual({ '2.5': 'a', '1e+100': 'b', inf: 'c', '-inf': 'd', '0.1': 'e' });
    expect(await one(`return {[true] = 1, [{}] = 2, [print] = 3, a = 4}`)).toEqual({ a: 4 });
  });

  it('a string key wins over a number key that prints the same', async () => {
    expect(await one(`return {[1] = "number", ["1"] = "string"}`)).toEqual({ '1': 'string' });
    expect(await one(`local t = {} t["1"] = "string" t[1] = "number" return t`)).toEqual({ '1': 'string' });
  });

  it('functions, coroutines and userdata become null', async () => {
    expect(await lua(`return print, coroutine.create(print), {f = print, n = 1}`)).toEqual([null, null, { f: null, n: 1 }]);
    expect(await one(`return {print, 2}`)).toEqual([null, 2]);
  });

  it('strings: valid UTF-8 as text (BOM and NUL kept), anything else as bytes', async () => {
    expect(await lua(`return "héllo", "a\\0b", "\\239\\187\\191x", ""`)).toEqual(['héllo', 'a\u0000b', '\uFEFFx', '']);
    const [bin] = await lua(`return "\\255\\0\\1"`);
    expect(bin).toBeInstanceOf(Uint8Array);
    expect([...(bin as Uint8Array)]).toEqual([255, 0, 1]);
    expect(await lua(`return host.hex("\\255\\0abc"), host.hex("é"), host.text("ok\\255")`)).toEqual(['ff00616263', 'c3a9', 'ok\uFFFD']);
  });

  it('binary strings survive a round trip through the host', async () => {
    expect(await one(`local s = "" for i = 0, 255 do s = s .. string.char(i) end return host.value(s) == s`)).toBe(true);
  });

  it('a table on the current conversion path becomes null; shared tables convert fully', async () => {
    expect(await one(`local t = {name = "root"} t.self = t return t`)).toEqual({ name: 'root', self: null });
    expect(await one(`local a = {} local b = {back = a} a.b = b return a`)).toEqual({ b: { back: null } });
    expect(await one(`local shared = {1, 2} return {x = shared, y = shared}`)).toEqual({ x: [1, 2], y: [1, 2] });
  });

  it('depth is capped at 256 with one warning per conversion', async () => {
    logs.length = 0;
    let v = (await one(`local t = {} local cur = t for i = 1, 400 do cur.next = {} cur = cur.next end return t`)) as Record<string, unknown>;
    let depth = 0;
    while (v.next) {
      v = v.next as Record<string, unknown>;
      depth++;
    }
    expect(depth).toBe(255);
    expect(logs.filter((l) => l.includes('depth 256'))).toHaveLength(1);
  });

  it('the number of converted values is capped at 100,000 with one warning', async () => {
    logs.length = 0;
    const big = (await one(`local t = {} for i = 1, 150000 do t[i] = i end return t`)) as unknown[];
    expect(big.length).toBeLessThanOrEqual(100_000);
    expect(big.length).toBeGreaterThan(99_000);
    expect(big.slice(0, 3)).toEqual([1, 2, 3]);
    expect(logs.filter((l) => l.includes('100000 values'))).toHaveLength(1);
  });

  it('strings shared inside Lua are capped by total size when converted', async () => {
    logs.length = 0;
    const small = await LuaVm.create({ name: 'bytes', memoryLimitBytes: 16 * 1024 * 1024, log: (_level, message) => logs.push(message) });
    try {
      const [list] = await small.load('local s = string.rep("x", 1024 * 1024) local t = {} for i = 1, 1000 do t[i] = s end return t', { chunkName: 't.lua', entry: 't', budgetMs: 5000 });
      const kept = (list as (string | null)[]).filter((v) => typeof v === 'string');
      expect(kept.length).toBe(16);
      expect(kept.every((v) => v!.length === 1024 * 1024)).toBe(true);
      expect(logs.filter((l) => l.includes('bytes of strings'))).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('an own "__proto__" key stays a plain key', async () => {
    const v = (await one(`return {["__proto__"] = {polluted = true}, ok = 1}`)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v).sort()).toEqual(['__proto__', 'ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('map reading keeps only top-level string keys (results and marked arguments)', async () => {
    await lua(`function result() return {1, 2, a = 1, [2.5] = 3, nested = {7, 8, [9] = 9}}, {1, 2} end`);
    expect(await vm.call('result', [], { entry: 'map', budgetMs: 5000, result: 'map' })).toEqual([{ a: 1, nested: { '1': 7, '2': 8, '9': 9 } }, [1, 2]]);
    await lua(`function result() return {1, 2} end`);
    expect(await vm.call('result', [], { entry: 'map', budgetMs: 5000, result: 'map' })).toEqual([{}]);
    await lua(`function result() return "text" end`);
    expect(await vm.call('result', [], { entry: 'map', budgetMs: 5000, result: 'map' })).toEqual([null]);
    expect(await lua(`return host.asMap({1, 2, limit = 5, [3.5] = 1}), host.value({1, 2, limit = 5})`)).toEqual([{ limit: 5 }, { '1': 1, '2': 2, limit: 5 }]);
    expect(await vm.getGlobal('missing_global', { mode: 'map' })).toBeNull();
  });

  it('host function arguments: every value, functions as references', async () => {
    await lua(`host.record(nil, 1, 2.5, "s", {1, 2}, {}, function(x) return x * 2 end)`);
    expect(received.slice(0, 6)).toEqual([null, 1, 2.5, 's', [1, 2], {}]);
    const fn = received[6] as LuaFunctionRef;
    expect(await fn.call([21], { entry: 'callback', budgetMs: 1000 })).toEqual([42]);
    expect(JSON.stringify({ fn })).toBe('{"fn":null}');
    fn.release();
  });

  it('a Lua function handed back to Lua is the same function', async () => {
    expect(await one(`local f = function() return "me" end return host.value(f) == f`)).toBe(true);
  });
});

describe('formatLuaFloat', () => {
  it('matches tostring for floats in Lua', async () => {
    const samples = [0.1, 2.5, -3.25, 1 / 3, 2 / 3, 1e15 + 0.5, 123456789012.5, 1e-5, 0.0001, 1e-10, 1e100, -1e-300, 5e-324, 1.7976931348623157e308, 100.25, 2 ** 63, -(2 ** 64), 0.5, 12345.678901234567];
    await vm.setGlobal('samples', samples);
    const fromLua = (await one(`local out = {} for i, x in ipairs(samples) do out[i] = tostring(x + 0.0) end return out`)) as string[];
    expect(samples.map(formatLuaFloat)).toEqual(fromLua);
  });

  it('keeps the integer look of integral floats', () => {
    expect([formatLuaFloat(1), formatLuaFloat(-0), formatLuaFloat(1e14), formatLuaFloat(NaN)]).toEqual(['1.0', '-0.0', '1e+14', 'nan']);
  });
});
