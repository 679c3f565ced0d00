// Discovery (library-plugins.md §3): every immediate sub-directory of the plugin path holding a
// plugin.lua, in byte order of directory names; each file's top-level code runs once in a
// throwaway VM to read its `plugin` table. Failures skip the plugin with one warning.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LuaError, LuaVm } from '../../core/lua/index.js';
import { ManifestError, parseHeader, type PluginHeader } from './manifest.js';

export const MAX_PLUGIN_FILE = 4 * 1024 * 1024;
export const HEADER_BUDGET_MS = 5000;

export interface DiscoveredPlugin {
  /** Directory name inside the plugin path. */
  dirName: string;
  dir: string;
  header: PluginHeader;
}

export class HeaderError extends Error {}

/** Runs code in a fresh sandboxed VM with `mah` absent and reads the `plugin` table. */
export async function readHeaderFrom(vm: LuaVm, source: Buffer, budgetMs: number, entry: string): Promise<PluginHeader> {
  try {
    await vm.load(source, { chunkName: 'plugin.lua', entry, budgetMs });
  } catch (e) {
    throw new HeaderError(describeLoadFailure(e, budgetMs));
  }
  return readLoadedHeader(vm);
}

/** A VM, or a session holding its lock. */
export interface HeaderSource {
  load(source: string, options: { chunkName: string; entry: string; budgetMs: number }): Promise<unknown[]>;
  getGlobal(name: string): Promise<unknown>;
}

export async function readLoadedHeader(vm: HeaderSource): Promise<PluginHeader> {
  const [hasMeta] = await vm.load('return type(plugin) == "table" and getmetatable(plugin) ~= nil', { chunkName: 'host', entry: 'read plugin table', budgetMs: 1000 });
  if (hasMeta === true) throw new HeaderError('the plugin table has a metatable; declare it as a plain table');
  try {
    return parseHeader(await vm.getGlobal('plugin'));
  } catch (e) {
    if (e instanceof ManifestError) throw new HeaderError(e.message);
    throw e;
  }
}

export function describeLoadFailure(e: unknown, budgetMs: number): string {
  if (e instanceof LuaError) {
    if (e.kind === 'timeout') return `top-level code did not finish within ${budgetMs / 1000}s: top-level code must return promptly; registration belongs in init()`;
    const hint = /attempt to (index|call) a nil value \((global|field)/.test(e.luaMessage) ? ' (hint: `mah` exists only inside init() and the handlers it registers, not at the top level of plugin.lua)' : '';
    return `${e.luaMessage}${hint}`;
  }
  return (e as Error).message;
}

export async function readPluginHeader(source: Buffer, name: string, memoryLimitBytes: number): Promise<PluginHeader> {
  const vm = await LuaVm.create({ name, memoryLimitBytes, log: (_level, message) => console.log(`[plugin:${name}] ${message}`) });
  try {
    return await readHeaderFrom(vm, source, HEADER_BUDGET_MS, 'header read');
  } finally {
    await vm.terminate();
  }
}

export function readPluginFile(dir: string): Buffer {
  const file = join(dir, 'plugin.lua');
  const size = statSync(file).size;
  if (size > MAX_PLUGIN_FILE) throw new HeaderError(`plugin.lua is ${size} bytes, more than the ${MAX_PLUGIN_FILE} allowed`);
  return readFileSync(file);
}

/** Finds the usable plugins; warnings go to `warn`. */
export async function discoverPlugins(root: string, memoryLimitBytes: number, warn: (message: string) => void): Promise<DiscoveredPlugin[]> {
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return []; // a missing directory is an empty plugin list
  }
  entries.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const found: DiscoveredPlugin[] = [];
  for (const dirName of entries) {
    const dir = join(root, dirName);
    try {
      if (!statSync(dir).isDirectory() || !statSync(join(dir, 'plugin.lua')).isFile()) continue;
    } catch {
      continue;
    }
    try {
      const header = await readPluginHeader(readPluginFile(dir), dirName, memoryLimitBytes);
      if (header.name === 'manage') warn(`plugin in directory "${dirName}" is named "manage", which collides with the management routes`);
      found.push({ dirName, dir, header });
    } catch (e) {
      warn(`skipping plugin directory "${dirName}": ${(e as Error).message}`);
    }
  }
  return dropCollisionsAndCycles(found, warn);
}

function dropCollisionsAndCycles(found: DiscoveredPlugin[], warn: (message: string) => void): DiscoveredPlugin[] {
  const byName = new Map<string, DiscoveredPlugin[]>();
  for (const p of found) byName.set(p.header.name, [...(byName.get(p.header.name) ?? []), p]);
  const unique = found.filter((p) => {
    const same = byName.get(p.header.name)!;
    if (same.length === 1) return true;
    if (same[0] === p) warn(`skipping plugin "${p.header.name}": declared by more than one directory (${same.map((s) => `"${s.dirName}"`).join(' and ')})`);
    return false;
  });
  const names = new Map(unique.map((p) => [p.header.name, p]));
  const deps = (name: string) => (names.get(name)?.header.manifest?.dependencies ?? []).filter((d) => names.has(d));
  // A plugin is on a cycle when it can reach itself.
  const onCycle = (start: string): boolean => {
    const seen = new Set<string>();
    const stack = [...deps(start)];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === start) return true;
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...deps(n));
    }
    return false;
  };
  return unique.filter((p) => {
    if (!onCycle(p.header.name)) return true;
    warn(`skipping plugin "${p.header.name}" (directory "${p.dirName}"): it lies on a dependency cycle`);
    return false;
  });
}
