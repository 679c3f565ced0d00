// Lua runtime overheads (src/core/lua): VM start, entry-point calls per second (trivial, and
// with a 1,000-element table converted both ways), host-function calls from Lua, and the cost
// of the instruction hook on plain Lua code. Later hook and callback figures build on these.
// Run: npx tsx bench/lua.ts [--calls 5000] [--host-calls 20000] [--loop 50000000]
import { performance } from 'node:perf_hooks';
import { LuaFactory } from 'wasmoon';
import { LuaVm } from '../src/core/lua/index.js';
import { argNumber as arg } from './args.js';

const CALLS = arg('calls', 5000);
const HOST_CALLS = arg('host-calls', 20_000);
const LOOP = arg('loop', 50_000_000);

const perSecond = (count: number, ms: number) => Math.round(count / (ms / 1000));

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function callsPerSecond(vm: LuaVm, fn: string, args: unknown[], count: number): Promise<number> {
  for (let i = 0; i < Math.min(200, count); i++) await vm.call(fn, args, { entry: 'warmup', budgetMs: 5000 });
  const ms = await timed(async () => {
    for (let i = 0; i < count; i++) await vm.call(fn, args, { entry: 'bench', budgetMs: 5000 });
  });
  return perSecond(count, ms);
}

/** The same loop in a bare wasmoon engine on this thread: no sandbox, no hook. */
async function bareLoopMs(iterations: number): Promise<number> {
  const engine = await new LuaFactory().createEngine();
  try {
    return await timed(() => engine.doString(`local x = 0 for i = 1, ${iterations} do x = x + i end return x`));
  } finally {
    engine.global.close();
  }
}

const firstStartMs = await timed(async () => (await LuaVm.create({ name: 'bench-first' })).close());
let vm!: LuaVm;
const startMs = await timed(async () => {
  vm = await LuaVm.create({ name: 'bench' });
});

await vm.setGlobal('host', {
  sync: (x: unknown) => x,
  async: async (x: unknown) => x,
});
await vm.load(
  `
  function noop() end
  function echo(t) return t end
  function count(t) return #t end
  function make(n) local t = {} for i = 1, n do t[i] = i end return t end
  function callHost(n) local s = 0 for i = 1, n do s = s + host.sync(i) end return s end
  function callHostAsync(n) local s = 0 for i = 1, n do s = s + host.async(i) end return s end
  function loop(n) local x = 0 for i = 1, n do x = x + i end return x end
`,
  { chunkName: 'bench.lua', entry: 'load', budgetMs: 5000 },
);

const array = Array.from({ length: 1000 }, (_, i) => i);
const object = Object.fromEntries(array.map((i) => [`key${i}`, { id: i, name: `item ${i}` }]));

const figures = {
  vmStartMs: { first: +firstStartMs.toFixed(1), next: +startMs.toFixed(1) },
  callsPerSecond: {
    trivial: await callsPerSecond(vm, 'noop', [], CALLS),
    array1000In: await callsPerSecond(vm, 'count', [array], CALLS),
    array1000Out: await callsPerSecond(vm, 'make', [1000], CALLS),
    array1000RoundTrip: await callsPerSecond(vm, 'echo', [array], CALLS),
    object1000RoundTrip: await callsPerSecond(vm, 'echo', [object], Math.ceil(CALLS / 5)),
  },
  hostCallsPerSecond: {
    sync: perSecond(HOST_CALLS, await timed(() => vm.call('callHost', [HOST_CALLS], { entry: 'bench', budgetMs: 600_000 }))),
    async: perSecond(HOST_CALLS, await timed(() => vm.call('callHostAsync', [HOST_CALLS], { entry: 'bench', budgetMs: 600_000 }))),
  },
  luaLoopIterationsPerSecond: {
    sandboxed: perSecond(LOOP, await timed(() => vm.call('loop', [LOOP], { entry: 'bench', budgetMs: 600_000 }))),
    bareWasmoon: perSecond(LOOP, await bareLoopMs(LOOP)),
  },
};
await vm.close();
console.log(JSON.stringify(figures, null, 2));
