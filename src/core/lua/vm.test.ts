// The VM as the plugin hosts use it: one state per plugin, the lock, host functions (sync and
// async), nested callbacks, the call chain, cancellation, revocation and closing.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { LuaError, LuaVm, currentLuaCall, currentLuaChain, formatDuration, type LuaFunctionRef, type LuaVmOptions } from './index.js';

const opened: LuaVm[] = [];

async function newVm(name: string, options: Partial<LuaVmOptions> = {}): Promise<LuaVm> {
  const vm = await LuaVm.create({ name, ...options });
  opened.push(vm);
  return vm;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((vm) => vm.terminate()));
});

function load(vm: LuaVm, code: string, budgetMs = 5000): Promise<unknown[]> {
  return vm.load(code, { chunkName: 'plugin.lua', entry: 'load', budgetMs });
}

function call(vm: LuaVm, fn: string, args: unknown[] = [], extra: { budgetMs?: number; signal?: AbortSignal; lockTimeoutMs?: number } = {}): Promise<unknown[]> {
  return vm.call(fn, args, { entry: fn, budgetMs: 5000, ...extra });
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one VM per plugin', () => {
  it('keeps globals between entry points; another VM shares nothing (T-036)', async () => {
    const a = await newVm('a');
    const b = await newVm('b');
    await load(a, 'n = 0 function inc() n = n + 1 return n end');
    await load(b, 'function inc() n = (n or 100) + 1 return n end');
    expect([await call(a, 'inc'), await call(a, 'inc'), await call(a, 'inc')]).toEqual([[1], [2], [3]]);
    expect(await call(b, 'inc')).toEqual([101]);
    const fresh = await newVm('a');
    expect(await fresh.globalType('inc')).toBe('nil');
  });

  it('reads and sets globals raw, and reports their type', async () => {
    const vm = await newVm('globals');
    await vm.setGlobal('config', { name: 'x', list: [1, 2] });
    await load(vm, 'plugin = { name = config.name, version = "1.0", n = #config.list } function init() end');
    expect(await vm.getGlobal('plugin')).toEqual({ name: 'x', version: '1.0', n: 2 });
    expect(await vm.globalType('init')).toBe('function');
    expect(await vm.globalType('plugin')).toBe('table');
    expect(await vm.getGlobal('init')).toBeNull();
  });

  it('calling a missing global names it', async () => {
    const vm = await newVm('missing');
    const e = await failure(call(vm, 'on_clip_created'));
    expect(e.kind).toBe('runtime');
    expect(e.luaMessage).toBe("attempt to call a nil value (global 'on_clip_created')");
  });

  it('reports the memory the Lua state holds', async () => {
    const vm = await newVm('memory');
    await load(vm, 'big = string.rep("x", 4 * 1024 * 1024)');
    expect(vm.memoryUsed).toBeGreaterThan(4 * 1024 * 1024);
  });
});

describe('host functions', () => {
  it('may be sync or async; errors become Lua errors with the calling line', async () => {
    const vm = await newVm('host');
    await vm.setGlobal('mah', {
      add: (a: unknown, b: unknown) => Number(a) + Number(b),
      later: async (v: unknown) => {
        await sleep(30);
        return `later ${String(v)}`;
      },
      fail: () => {
        throw new Error('entity id must be a positive whole number');
      },
      failLater: async () => {
        await sleep(5);
        throw new Error('database not available');
      },
    });
    expect(await load(vm, 'return mah.add(1, 2), mah.later("x")')).toEqual([3, 'later x']);
    expect(await load(vm, 'local ok, e = pcall(mah.fail, 1.5) return ok, e')).toEqual([false, 'entity id must be a positive whole number']);
    expect(await load(vm, 'local ok, e = pcall(function() mah.fail() end) return e')).toEqual(['plugin.lua:1: entity id must be a positive whole number']);
    const e = await failure(load(vm, '\nmah.failLater()'));
    expect(e.kind).toBe('runtime');
    expect(e.luaMessage).toBe('plugin.lua:2: database not available');
  });

  it('work inside plugin coroutines (T-037) and from C callbacks', async () => {
    const vm = await newVm('co');
    const store = new Map<string, unknown>();
    await vm.setGlobal('kv', {
      set: async (k: unknown, v: unknown) => void store.set(k as string, v),
      get: async (k: unknown) => store.get(k as string),
    });
    const [a, b] = await load(vm, `
      local gen = coroutine.wrap(function()
        kv.set("co", "inside")
        coroutine.yield(kv.get("co"))
        coroutine.yield("second")
      end)
      return gen(), gen()`);
    expect([a, b]).toEqual(['inside', 'second']);
    expect(await load(vm, 'local t = {3, 1, 2} table.sort(t, function(x, y) kv.set("sorted", true) return x < y end) return t, kv.get("sorted")')).toEqual([[1, 2, 3], true]);
  });

  it('run inside the caller\'s async context, with the entry point described', async () => {
    const vm = await newVm('context');
    const actor = new AsyncLocalStorage<number>();
    const seen: unknown[] = [];
    await vm.setGlobal('who', async () => {
      await sleep(1);
      const info = currentLuaCall();
      seen.push({ actor: actor.getStore(), entry: info?.entry, vm: info?.vm === vm, chain: currentLuaChain().map((v) => v.name), deadline: info && info.deadline > Date.now() });
    });
    await load(vm, 'function run() who() end');
    await Promise.all([actor.run(7, () => call(vm, 'run')), actor.run(9, () => call(vm, 'run'))]);
    expect(seen).toEqual([
      { actor: 7, entry: 'run', vm: true, chain: ['context'], deadline: true },
      { actor: 9, entry: 'run', vm: true, chain: ['context'], deadline: true },
    ]);
    expect(currentLuaCall()).toBeUndefined();
  });

  it('functions inside call arguments live for that call only', async () => {
    const vm = await newVm('scoped');
    let answered: unknown;
    await load(vm, 'function handler(ctx) saved = ctx.json ctx.json({ ok = true }) end function later() saved({ again = true }) end');
    await vm.call('handler', [{ json: (v: unknown) => void (answered = v) }], { entry: 'endpoint', budgetMs: 1000 });
    expect(answered).toEqual({ ok: true });
    const e = await failure(call(vm, 'later'));
    expect(e.luaMessage).toContain('this host function is no longer available');
  });

  it('a Lua function handed over at load can be called later as its own entry point', async () => {
    const vm = await newVm('hooks');
    const handlers: LuaFunctionRef[] = [];
    await vm.setGlobal('on', (_event: unknown, fn: unknown) => void handlers.push(fn as LuaFunctionRef));
    await load(vm, 'count = 0 on("after_note_create", function(data) count = count + 1 return "note " .. data.id .. " #" .. count end)');
    expect(await handlers[0].call([{ id: 42 }], { entry: 'hook after_note_create', budgetMs: 1000 })).toEqual(['note 42 #1']);
    expect(await handlers[0].call([{ id: 43 }], { entry: 'hook after_note_create', budgetMs: 1000 })).toEqual(['note 43 #2']);
    handlers[0].release();
    const e = await handlers[0].call([{ id: 1 }], { entry: 'hook', budgetMs: 1000 }).catch((err: Error) => err);
    expect((e as Error).message).toContain('released');
  });

  it('a Lua function of one VM cannot be passed to another', async () => {
    const a = await newVm('owner');
    const b = await newVm('stranger');
    let ref: LuaFunctionRef | undefined;
    await a.setGlobal('give', (fn: unknown) => void (ref = fn as LuaFunctionRef));
    await load(a, 'give(function() end)');
    await load(b, 'function take(f) return type(f) end');
    await expect(b.call('take', [ref], { entry: 'take', budgetMs: 1000 })).rejects.toThrow('cannot be passed to plugin "stranger"');
  });
});

describe('nested calls and the call chain', () => {
  it('a host function runs a Lua callback nested, under the same lock and deadline', async () => {
    const vm = await newVm('tx');
    const log: string[] = [];
    await vm.setGlobal('transaction', async (fn: unknown) => {
      log.push('begin');
      try {
        const [result] = await (fn as LuaFunctionRef).call([], { entry: 'transaction', budgetMs: 60_000 });
        log.push('commit');
        return result;
      } catch (e) {
        log.push('rollback');
        throw e;
      }
    });
    await vm.setGlobal('write', (v: unknown) => void log.push(`write ${String(v)}`));
    expect(await load(vm, 'return transaction(function() write(1) write(2) return "done" end)')).toEqual(['done']);
    expect(log).toEqual(['begin', 'write 1', 'write 2', 'commit']);
    log.length = 0;
    const e = await failure(load(vm, 'transaction(function() write(1) error("nope") end)'));
    expect(log).toEqual(['begin', 'write 1', 'rollback']);
    expect(e.luaMessage).toBe('plugin.lua:1: nope');
    // The plugin sees the error of its callback as it raised it, table values included.
    expect(await load(vm, 'local ok, e = pcall(transaction, function() error({ code = 7 }) end) return ok, e.code')).toEqual([false, 7]);
    expect(await load(vm, 'local ok, e = pcall(transaction, function() error("plain", 0) end) return e')).toEqual(['plain']);
    // The nested call inherits the outer deadline, whatever budget it asks for.
    const started = Date.now();
    const t = await failure(load(vm, 'transaction(function() while true do end end)', 200));
    expect(t.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('host functions of a nested call see the async context of the host function that made it', async () => {
    const vm = await newVm('tx-context');
    const tx = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    await vm.setGlobal('transaction', (fn: unknown) => tx.run('tx-1', () => (fn as LuaFunctionRef).call([], { entry: 'transaction', budgetMs: 1000 })));
    await vm.setGlobal('write', () => void seen.push(tx.getStore()));
    await load(vm, 'write() transaction(function() write() end) write()');
    expect(seen).toEqual([undefined, 'tx-1', undefined]);
  });

  it('unbounded nesting through the host ends in a Lua error, not a crash', async () => {
    const vm = await newVm('deep-nesting');
    await vm.setGlobal('again', (fn: unknown, n: unknown) => (fn as LuaFunctionRef).call([n], { entry: 'again', budgetMs: 10_000 }).then(([v]) => v));
    await load(vm, 'function down(n) return again(down, n + 1) end');
    const e = await failure(call(vm, 'down', [0], { budgetMs: 20_000 }));
    expect(e.kind).toBe('runtime');
    expect(e.luaMessage).toMatch(/stack overflow|error in error handling/);
    expect(vm.state).toBe('open');
    expect(await load(vm, 'return "fine"')).toEqual(['fine']);
  });

  it('nested calls started together run one after another', async () => {
    const vm = await newVm('parallel-nested');
    await vm.setGlobal('both', async (f: unknown, g: unknown) => {
      const [a, b] = await Promise.all([(f as LuaFunctionRef).call([], { entry: 'f', budgetMs: 1000 }), (g as LuaFunctionRef).call([], { entry: 'g', budgetMs: 1000 })]);
      return [a[0], b[0]];
    });
    expect(await load(vm, 'local order = {} local r = both(function() order[#order + 1] = "f" return 1 end, function() order[#order + 1] = "g" return 2 end) return r, table.concat(order)')).toEqual([[1, 2], 'fg']);
  });

  it('the chain lists every VM on the stack; re-entering one on it fails fast', async () => {
    const a = await newVm('plugin-a');
    const b = await newVm('plugin-b');
    const chains: string[][] = [];
    await b.setGlobal('probe', () => void chains.push(currentLuaChain().map((v) => v.name)));
    await b.setGlobal('callA', async () => {
      const e = await failure(a.call('noop', [], { entry: 'hook', budgetMs: 1000 }));
      return `${e.kind}: ${e.luaMessage}`;
    });
    await load(b, 'function hook() probe() return callA() end');
    await a.setGlobal('fire', async () => (await b.call('hook', [], { entry: 'hook', budgetMs: 1000 }))[0]);
    await load(a, 'function noop() end function write() return fire() end');
    expect(await call(a, 'write')).toEqual(['busy: the plugin is already running on this call chain']);
    expect(chains).toEqual([['plugin-a', 'plugin-b']]);
  });
});

describe('the VM lock', () => {
  it('serialises entry points of one plugin; other plugins run meanwhile (T-035)', async () => {
    const serial = await newVm('serial');
    const other = await newVm('echo');
    await serial.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await load(serial, 'function slow() sleep(400) return "slow" end function fast() return "fast" end');
    await load(other, 'function echo() return "echo" end');
    const t0 = Date.now();
    const done: Record<string, number> = {};
    const slow = call(serial, 'slow').then(() => (done.slow = Date.now() - t0));
    await sleep(50);
    const fast = call(serial, 'fast').then(() => (done.fast = Date.now() - t0));
    const echo = call(other, 'echo').then(() => (done.echo = Date.now() - t0));
    await Promise.all([slow, fast, echo]);
    expect(done.echo).toBeLessThan(done.slow);
    expect(done.fast).toBeGreaterThanOrEqual(done.slow);
    expect(done.slow).toBeGreaterThanOrEqual(395);
  });

  it('serves waiters in arrival order', async () => {
    const vm = await newVm('fifo');
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await load(vm, 'order = {} function step(i) sleep(5) order[#order + 1] = i end function get() return order end');
    await Promise.all([1, 2, 3, 4, 5, 6].map((i) => call(vm, 'step', [i])));
    expect(await call(vm, 'get')).toEqual([[1, 2, 3, 4, 5, 6]]);
  });

  it('the budget starts when the lock is held', async () => {
    const vm = await newVm('budget-start');
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await load(vm, 'function hold() sleep(600) end function quick() return "ok" end');
    const holding = call(vm, 'hold');
    expect(await call(vm, 'quick', [], { budgetMs: 300 })).toEqual(['ok']);
    await holding;
  });

  it('a waiter can give up: lock timeout (busy) or abort (abandoned)', async () => {
    const vm = await newVm('waiters');
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await load(vm, 'function hold() sleep(300) end function quick() return 1 end');
    const holding = call(vm, 'hold');
    await sleep(10);
    expect((await failure(call(vm, 'quick', [], { lockTimeoutMs: 50 }))).kind).toBe('busy');
    expect((await failure(call(vm, 'quick', [], { lockTimeoutMs: 0 }))).kind).toBe('busy');
    const abort = new AbortController();
    const waiting = failure(call(vm, 'quick', [], { signal: abort.signal }));
    abort.abort();
    const e = await waiting;
    expect(e.kind).toBe('abandoned');
    expect(e.luaMessage).toBe('the plugin was busy and the request was abandoned');
    await holding;
    expect(await call(vm, 'quick')).toEqual([1]);
  });

  it('exclusive holds the lock across several operations', async () => {
    const vm = await newVm('exclusive');
    const order: string[] = [];
    await load(vm, 'function mark(s) return s end');
    const block = vm.exclusive(async (s) => {
      await s.load('step = 1', { chunkName: 'a.lua', entry: 'load', budgetMs: 1000 });
      await sleep(100);
      order.push((await s.call('mark', ['inside'], { entry: 'mark', budgetMs: 1000 }))[0] as string);
      await s.setGlobal('step', 2);
      return s.getGlobal('step');
    });
    await sleep(10);
    const outside = call(vm, 'mark', ['outside']).then(([v]) => order.push(v as string));
    expect(await block).toBe(2);
    await outside;
    expect(order).toEqual(['inside', 'outside']);
    // Operations of one session started together run one after another.
    const both = await vm.exclusive((s) => Promise.all([s.call('mark', ['a'], { entry: 'a', budgetMs: 1000 }), s.globalType('mark'), s.call('mark', ['b'], { entry: 'b', budgetMs: 1000 })]));
    expect(both).toEqual([['a'], 'function', ['b']]);
  });
});

describe('cancellation', () => {
  it('aborting the signal stops a running loop', async () => {
    const vm = await newVm('cancel');
    await load(vm, 'function spin() while true do end end function ok() return "ok" end');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    const e = await failure(call(vm, 'spin', [], { budgetMs: 10_000, signal: abort.signal }));
    expect(e.kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await call(vm, 'ok')).toEqual(['ok']);
  });

  it('a call cancelled while in a host function fails as soon as Lua resumes', async () => {
    const vm = await newVm('cancel-host');
    let after = false;
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await vm.setGlobal('mark', () => void (after = true));
    await load(vm, 'function run() sleep(200) mark() end');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 50);
    expect((await failure(call(vm, 'run', [], { signal: abort.signal }))).kind).toBe('cancelled');
    expect(after).toBe(false);
  });
});

describe('revocation and closing (§9.8)', () => {
  it('revoke: waiters fail, later calls are refused, the running call finishes and sees it', async () => {
    const vm = await newVm('revoked');
    const seen: boolean[] = [];
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await vm.setGlobal('check', () => {
      seen.push(vm.revoked);
      if (vm.revoked) throw new Error('database not available');
      return 'ok';
    });
    await load(vm, 'function run() check() sleep(150) return pcall(check) end function quick() end');
    const running = call(vm, 'run');
    await sleep(20);
    const waiting = failure(call(vm, 'quick'));
    vm.revoke();
    expect((await waiting).kind).toBe('unavailable');
    expect((await failure(call(vm, 'quick'))).kind).toBe('unavailable');
    expect(await running).toEqual([false, 'database not available']);
    expect(seen).toEqual([false, true]);
    expect(vm.state).toBe('revoked');
  });

  it('close waits for the running entry point, then refuses everything', async () => {
    const vm = await newVm('closing');
    await vm.setGlobal('sleep', (ms: unknown) => sleep(ms as number));
    await load(vm, 'function run() sleep(150) return "finished" end');
    const running = call(vm, 'run');
    await sleep(20);
    await vm.close();
    expect(await running).toEqual(['finished']);
    expect(vm.state).toBe('closed');
    expect((await failure(call(vm, 'run'))).kind).toBe('unavailable');
  });

  it('a host function may close its own VM: the running entry point finishes first', async () => {
    const vm = await newVm('self-closing');
    await vm.setGlobal('disable', async () => {
      await vm.close();
      return vm.state;
    });
    await load(vm, 'function run() local state = disable() return state, "still running" end');
    expect(await call(vm, 'run')).toEqual(['revoked', 'still running']);
    await vm.close();
    expect(vm.state).toBe('closed');
  });

  it('terminate ends the running entry point at once', async () => {
    const vm = await newVm('terminated');
    await load(vm, 'function spin() while true do end end');
    const running = failure(call(vm, 'spin', [], { budgetMs: 10_000 }));
    await sleep(50);
    await vm.terminate();
    const e = await running;
    expect(e.kind).toBe('unavailable');
    expect(e.luaMessage).toBe('the plugin was disabled');
  });
});

describe('errors', () => {
  it('carry the plugin, the entry point, the Lua message and a traceback', async () => {
    const vm = await newVm('errors');
    await load(vm, 'function handler(ctx)\n  return ctx.missing.field\nend');
    const e = await failure(vm.call('handler', [{}], { entry: 'endpoint GET x', budgetMs: 1000 }));
    expect(e).toBeInstanceOf(LuaError);
    expect(e.kind).toBe('runtime');
    expect(e.plugin).toBe('errors');
    expect(e.entry).toBe('endpoint GET x');
    expect(e.luaMessage).toBe("plugin.lua:2: attempt to index a nil value (field 'missing')");
    expect(e.message).toBe(`plugin "errors" endpoint GET x: plugin.lua:2: attempt to index a nil value (field 'missing')`);
    expect(e.traceback).toContain("plugin.lua:2: in function 'handler'");
  });

  it('syntax errors are their own kind', async () => {
    const vm = await newVm('syntax');
    const e = await failure(load(vm, 'function broken( end'));
    expect(e.kind).toBe('syntax');
    expect(e.luaMessage).toMatch(/^plugin\.lua:1: /);
  });

  it('durations print the way the spec quotes them', () => {
    expect([formatDuration(500), formatDuration(1000), formatDuration(90_000), formatDuration(120_000), formatDuration(1500)]).toEqual(['500ms', '1s', '1m30s', '2m0s', '1.5s']);
  });
});
