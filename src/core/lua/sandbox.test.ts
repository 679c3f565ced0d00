// The sandbox and its limits (library-plugins.md §9.3, §9.4, §9.6, §32.3): what a plugin can
// reach, and that no loop, bomb or trick keeps it running past its budget or outside its VM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LuaError, LuaVm, type LuaErrorKind } from './index.js';

const MiB = 1024 * 1024;
let vm: LuaVm;
const logs: { level: string; message: string }[] = [];

function lua(code: string, budgetMs = 5000, target = vm): Promise<unknown[]> {
  return target.load(code, { chunkName: 'plugin.lua', entry: 'test', budgetMs });
}

async function failure(run: Promise<unknown>): Promise<LuaError> {
  try {
    await run;
  } catch (e) {
    if (e instanceof LuaError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** Runs code expected to hit its budget; checks the kind, the time taken, and that the VM still works. */
async function expectCutOff(code: string, budgetMs = 200, kinds: LuaErrorKind[] = ['timeout'], target = vm): Promise<LuaError> {
  const started = Date.now();
  const e = await failure(lua(code, budgetMs, target));
  const took = Date.now() - started;
  expect(kinds).toContain(e.kind);
  expect(took).toBeGreaterThanOrEqual(budgetMs - 5);
  expect(took).toBeLessThan(budgetMs + 3000);
  if (target.state === 'open') {
    // The VM stays usable, with the hook back to one check per 1,000 instructions (after a
    // timeout it checks every instruction of the thread that timed out).
    expect(await lua('local n = 0 for i = 1, 1e6 do n = n + i end return n', 5000, target)).toEqual([500000500000]);
    expect(target.hookChecks).toBeGreaterThan(1000);
    expect(target.hookChecks).toBeLessThan(10_000);
  }
  return e;
}

beforeAll(async () => {
  vm = await LuaVm.create({
    name: 'sandbox',
    memoryLimitBytes: 64 * MiB,
    log: (level, message) => logs.push({ level, message }),
  });
  await vm.setGlobal('host', {
    sleep: (ms: unknown) => new Promise((r) => setTimeout(r, ms as number)),
    value: (v: unknown) => v,
  });
});

afterAll(async () => {
  await vm.close();
});

describe('what a plugin can reach', () => {
  it('removed libraries and shims (T-032)', async () => {
    const [types] = await lua(`return {
      os = type(os), io = type(io), debug = type(debug), package = type(package), require = type(require),
      load = type(load), loadstring = type(loadstring), dofile = type(dofile), loadfile = type(loadfile),
      string = type(string), coroutine = type(coroutine), unpack = type(unpack), utf8 = type(utf8),
      module = type(module), dump = type(string.dump), table = type(table), math = type(math) }`);
    expect(types).toEqual({
      os: 'nil', io: 'nil', debug: 'nil', package: 'nil', require: 'nil', load: 'nil', loadstring: 'nil', dofile: 'nil',
      loadfile: 'nil', string: 'table', coroutine: 'table', unpack: 'function', utf8: 'nil', module: 'nil', dump: 'nil',
      table: 'table', math: 'table',
    });
  });

  it('the base functions plugins rely on remain', async () => {
    const names = ['assert', 'collectgarbage', 'error', 'getmetatable', 'ipairs', 'next', 'pairs', 'pcall', 'print', 'rawequal', 'rawget', 'rawlen', 'rawset', 'select', 'setmetatable', 'tonumber', 'tostring', 'type', 'xpcall', 'warn'];
    const [types] = await lua(`local out = {} for _, n in ipairs(${luaList(names)}) do out[#out + 1] = type(_G[n]) end return table.concat(out, ",")`);
    expect(types).toBe(names.map(() => 'function').join(','));
  });

  it('5.1 shims: unpack, math.pow, table.getn', async () => {
    expect(await lua(`return table.concat({unpack({1, 2})}, ","), math.pow(2, 10), table.getn({1, 2, 3})`)).toEqual(['1,2', 1024, 3]);
  });

  it('no file, process or module access', async () => {
    expect((await failure(lua(`return io.open("/etc/passwd")`))).luaMessage).toContain("attempt to index a nil value (global 'io')");
    expect((await failure(lua(`os.execute("touch /tmp/pwned")`))).luaMessage).toContain("global 'os'");
    expect((await failure(lua(`os.exit(1)`))).luaMessage).toContain("global 'os'");
    expect((await failure(lua(`return require("os")`))).luaMessage).toContain("global 'require'");
    expect((await failure(lua(`return debug.getregistry()`))).luaMessage).toContain("global 'debug'");
    expect((await failure(lua(`return dofile("/etc/passwd")`))).luaMessage).toContain("global 'dofile'");
    expect((await failure(lua(`return package.loadlib("libc.so.6", "system")`))).luaMessage).toContain("global 'package'");
  });

  it('no bytecode: string.dump and load are gone, binary chunks are refused', async () => {
    expect((await failure(lua(`return load(string.dump(function() end))`))).luaMessage).toContain("field 'dump'");
    expect((await failure(lua(`return getmetatable("").__index.dump(print)`))).luaMessage).toContain("field 'dump'");
    const binary = Buffer.concat([Buffer.from([0x1b]), Buffer.from('LuaT\0\x19\x93\r\n\x1a\n')]);
    const e = await failure(vm.load(binary, { chunkName: 'evil.luac', entry: 'load', budgetMs: 1000 }));
    expect(e.kind).toBe('syntax');
    expect(e.luaMessage).toContain('attempt to load a binary chunk');
  });

  it('print and warn go to the process log', async () => {
    logs.length = 0;
    await lua(`print("a", 1, nil, true, setmetatable({}, {__tostring = function() return "T" end})) warn("careful ", "now") warn("@on")`);
    expect(logs).toEqual([
      { level: 'info', message: 'a\t1\tnil\ttrue\tT' },
      { level: 'warn', message: 'careful now' },
    ]);
  });

  it('__gc metamethods are refused (finalizers would run with the hook off)', async () => {
    const e = await failure(lua(`setmetatable({}, {__gc = function() while true do end end}) collectgarbage()`));
    expect(e.luaMessage).toContain('__gc metamethods are not available');
    expect(await lua(`return getmetatable(setmetatable({}, {__index = {x = 1}})).__index.x`)).toEqual([1]);
    expect((await failure(lua(`setmetatable(setmetatable({}, {__metatable = "locked"}), {})`))).luaMessage).toContain('cannot change a protected metatable');
    expect((await failure(lua(`setmetatable(1, {})`))).luaMessage).toContain("bad argument #1 to 'setmetatable' (table expected, got number)");
  });

  it('xpcall works, with its handler run under the hook', async () => {
    expect(await lua(`return xpcall(function() error("x", 0) end, function(m) return "handled " .. m end)`)).toEqual([false, 'handled x']);
    expect(await lua(`return xpcall(function(a, b) return a + b end, print, 1, 2)`)).toEqual([true, 3]);
    expect(await lua(`return xpcall(error, function() error("again") end, "first")`)).toEqual([false, 'error in error handling']);
  });

  it('a metatable on _G is removed after top-level code, and globals are read raw', async () => {
    await lua(`setmetatable(_G, {__index = function() while true do end end, __newindex = function() while true do end end})`);
    expect(await vm.getGlobal('not_there')).toBeNull();
    expect(await vm.globalType('not_there')).toBe('nil');
    expect(await lua(`return getmetatable(_G)`)).toEqual([null]);
  });

  it('yielding outside a coroutine is an ordinary error', async () => {
    expect((await failure(lua(`coroutine.yield(1)`))).luaMessage).toContain('outside a coroutine');
  });

  it('the clip profile: no coroutines and hidden raw/metatable functions', async () => {
    const clip = await LuaVm.create({ name: 'clip-profile', coroutines: false, hiddenGlobals: ['rawequal', 'rawget', 'rawset', 'getmetatable', 'setmetatable', 'collectgarbage'] });
    try {
      expect(await lua(`return type(coroutine), type(rawget), type(setmetatable), type(collectgarbage), type(pcall), type(string)`, 1000, clip)).toEqual(['nil', 'nil', 'nil', 'nil', 'function', 'table']);
    } finally {
      await clip.close();
    }
  });
});

describe('time budgets: every loop is cut off', () => {
  it('a tight loop in the top-level chunk', async () => {
    const e = await expectCutOff('while true do end');
    expect(e.luaMessage).toBe('timed out after 200ms');
    expect(e.budgetMs).toBe(200);
  });

  it('a loop in a called function', async () => {
    await lua('function spin() local x = 0 while true do x = x + 1 end end');
    const started = Date.now();
    const e = await failure(vm.call('spin', [], { entry: 'endpoint spin', budgetMs: 150 }));
    expect(e.kind).toBe('timeout');
    expect(e.entry).toBe('endpoint spin');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await vm.call('unpack', [[1, 2]], { entry: 'after', budgetMs: 1000 })).toEqual([1, 2]);
  });

  it('tail-call recursion', async () => {
    await expectCutOff('local function f(n) return f(n + 1) end return f(1)');
  });

  it('a loop in a coroutine, resumed directly or through wrap', async () => {
    await expectCutOff('local co = coroutine.wrap(function() while true do end end) co()');
    await expectCutOff('local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end');
    await expectCutOff('local co = coroutine.create(function() while true do coroutine.yield() end end) while true do coroutine.resume(co) end');
  });

  it('loops in metamethods', async () => {
    await expectCutOff('local t = setmetatable({}, {__index = function() while true do end end}) return t.x');
    await expectCutOff('local t = setmetatable({}, {__add = function() while true do end end}) return t + 1');
    await expectCutOff('local t = setmetatable({}, {__tostring = function() while true do end end}) return tostring(t)');
    await expectCutOff('local t = setmetatable({}, {__len = function() while true do end end}) return #t');
    await expectCutOff('local t = setmetatable({}, {__call = function() while true do end end}) return t()');
    await expectCutOff('local a = setmetatable({}, {__lt = function() while true do end end}) return a < a');
  });

  it('loops in Lua called from C (sort comparator, gsub callback)', async () => {
    await expectCutOff('table.sort({3, 2, 1}, function() while true do end end)');
    await expectCutOff('string.gsub("abc", ".", function() while true do end end)');
  });

  it('pcall cannot swallow the timeout and keep the plugin running', async () => {
    await expectCutOff('local function f() while true do end end while true do pcall(f) end');
    await expectCutOff('while true do pcall(function() while true do pcall(function() while true do end end) end end) end');
    await expectCutOff('repeat local ok, err = pcall(function() while true do end end) until false');
    await expectCutOff('while true do xpcall(function() while true do end end, function(m) return m end) end');
    await expectCutOff('local n = 0 while true do local ok = pcall(error, "x") n = n + 1 end');
    await expectCutOff('while true do local co = coroutine.wrap(function() while true do end end) pcall(co) end');
  });

  it('a call that swallows the timeout and returns still fails as a timeout', async () => {
    await lua('function swallow() return pcall(function() while true do end end) end');
    const e = await failure(vm.call('swallow', [], { entry: 'swallow', budgetMs: 150 }));
    expect(e.kind).toBe('timeout');
  });

  it('an xpcall handler that loops', async () => {
    await expectCutOff('xpcall(function() error("x") end, function() while true do end end) while true do end');
  });

  it('a loop in the continuation after an async host call', async () => {
    await expectCutOff('host.sleep(20) while true do end');
  });

  it('a loop in a Lua callback the host calls (nested), and after it', async () => {
    await vm.setGlobal('hostCall', (fn: unknown) => (fn as { call(a: unknown[], o: object): Promise<unknown[]> }).call([], { entry: 'callback', budgetMs: 10_000 }));
    await expectCutOff('hostCall(function() while true do end end)');
    await expectCutOff('pcall(hostCall, function() while true do end end) while true do end');
  });

  it('time spent in host functions counts, and the plugin fails as soon as it resumes', async () => {
    let marked = false;
    await vm.setGlobal('mark', () => {
      marked = true;
    });
    const e = await failure(lua('host.sleep(300) mark()', 100));
    expect(e.kind).toBe('timeout');
    expect(marked).toBe(false);
  });

  it('deep recursion is a stack overflow, not a crash', async () => {
    const e = await failure(lua('local function f(n) return 1 + f(n + 1) end return f(1)', 10_000));
    expect(e.kind).toBe('runtime');
    expect(e.luaMessage).toMatch(/stack overflow/);
    const c = await failure(lua('local t = setmetatable({}, {}) getmetatable(t).__index = function(t, k) return t[k] end return t.x'));
    expect(c.luaMessage).toMatch(/stack overflow/);
    expect(await lua('return "still fine"')).toEqual(['still fine']);
  });
});

describe('memory limits', () => {
  it('string.rep bombs fail cleanly', async () => {
    const huge = await failure(lua('return string.rep("x", 2^40)'));
    expect(huge.luaMessage).toMatch(/resulting string too large|not enough memory/);
    const big = await failure(lua('return string.rep("x", 100 * 1024 * 1024)'));
    expect(big.kind).toBe('memory');
    const nested = await failure(lua('local s = "x" while true do s = s .. s end'));
    expect(nested.kind).toBe('memory');
    expect(await lua('return #string.rep("x", 1024 * 1024)')).toEqual([1048576]);
  });

  it('table growth bombs fail cleanly (T-039)', async () => {
    const e = await failure(lua('local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1024) .. i end', 30_000));
    expect(e.kind).toBe('memory');
    expect(e.luaMessage).toBe('not enough memory');
    const f = await failure(lua('local t = {} for i = 1, 1e9 do t[i] = i end', 30_000));
    expect(f.kind).toBe('memory');
    expect(await lua('collectgarbage() return "usable"')).toEqual(['usable']);
    expect(vm.memoryUsed).toBeLessThan(16 * MiB);
  });

  it('a memory error caught with pcall is an ordinary error the plugin may handle', async () => {
    expect(await lua('local ok, err = pcall(string.rep, "x", 200 * 1024 * 1024) return ok, err')).toEqual([false, 'not enough memory']);
  });

  it('a host value too large for the VM fails in Lua', async () => {
    await vm.setGlobal('bigString', () => 'y'.repeat(80 * MiB));
    const e = await failure(lua('local s = bigString() return #s'));
    expect(e.kind).toBe('memory');
    expect(await lua('return 1')).toEqual([1]);
  });
});

describe('error objects', () => {
  it('a table error object is kept as the error value', async () => {
    const e = await failure(lua('error({code = 42, why = "no"})'));
    expect(e.kind).toBe('runtime');
    expect(e.luaMessage).toBe('(error object is a table value)');
    expect(e.value).toEqual({ code: 42, why: 'no' });
  });

  it('its __tostring is never run by the host', async () => {
    const started = Date.now();
    const e = await failure(lua('error(setmetatable({}, {__tostring = function() while true do end end}))', 5000));
    expect(e.luaMessage).toBe('(error object is a table value)');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('other error values and the traceback', async () => {
    expect((await failure(lua('error(42)'))).luaMessage).toBe('42');
    expect((await failure(lua('error()'))).luaMessage).toBe('(error object is a nil value)');
    const e = await failure(lua('local function inner() error("deep") end\nlocal function outer() inner() end\nouter()'));
    expect(e.luaMessage).toBe('plugin.lua:1: deep');
    expect(e.traceback).toContain("plugin.lua:1: in ");
    expect(e.traceback).toContain('plugin.lua:3: in main chunk');
    expect(e.traceback).not.toContain('stack traceback');
  });

  it('long error messages and tracebacks are trimmed', async () => {
    const e = await failure(lua('error(string.rep("m", 100000))'));
    expect(e.luaMessage.length).toBeLessThan(17 * 1024);
    const deep = await failure(lua('local function f(n) if n == 0 then error("bottom") end f(n - 1) end f(50)'));
    expect(deep.traceback.split('\n').length).toBeLessThanOrEqual(13);
  });
});

describe('hooks the instruction counter cannot reach', () => {
  it('a pathological pattern stuck inside C is killed by the watchdog', async () => {
    const crashes: string[] = [];
    const victim = await LuaVm.create({ name: 'pattern', killGraceMs: 300, onCrash: (e) => crashes.push(e.message), log: () => undefined });
    try {
      const other = await LuaVm.create({ name: 'bystander' });
      const e = await expectCutOff('local s = string.rep("a", 40) return string.find(s, string.rep("a*", 30) .. "b")', 200, ['crashed'], victim);
      expect(e.luaMessage).toContain('terminated');
      expect(victim.state).toBe('crashed');
      expect((await failure(lua('return 1', 1000, victim))).kind).toBe('crashed');
      expect(await lua('return "unaffected"', 1000, other)).toEqual(['unaffected']);
      await other.close();
    } finally {
      await victim.terminate();
    }
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toContain('past the end of its 200ms budget');
  });

  it('a __close handler run with hooks off after a timeout is killed too', async () => {
    const victim = await LuaVm.create({ name: 'closer', killGraceMs: 300, log: () => undefined });
    try {
      await expectCutOff(
        'coroutine.wrap(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end)()',
        200,
        ['timeout', 'crashed'],
        victim,
      );
    } finally {
      await victim.terminate();
    }
  });
});

function luaList(items: string[]): string {
  return `{${items.map((s) => JSON.stringify(s)).join(', ')}}`;
}
