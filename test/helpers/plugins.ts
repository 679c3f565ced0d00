// Plugin test fixtures: a plugin directory written before the server starts, and a library
// started on it with the server log captured (discovery warnings go there).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestLibrary, type TestLibrary } from './library.js';

export interface PluginTestLibrary extends Omit<TestLibrary, 'restart'> {
  /** Restarts on the same database and plugin directory (the log starts empty again). */
  restart(extraArgs?: string[]): Promise<PluginTestLibrary>;
  pluginDir: string;
  logs: string[];
  enable(name: string): Promise<{ status: number; body: Record<string, unknown> }>;
  disable(name: string): Promise<{ status: number; body: Record<string, unknown> }>;
  records(): Promise<Record<string, unknown>[]>;
  rec(name: string): Promise<Record<string, unknown> | undefined>;
}

/** Writes `<dir>/<name>/plugin.lua` for each entry (name → source). */
export function writePlugins(dir: string, plugins: Record<string, string>): void {
  for (const [name, source] of Object.entries(plugins)) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'plugin.lua'), source);
  }
}

export async function startWithPlugins(plugins: Record<string, string>, extraArgs: string[] = []): Promise<PluginTestLibrary> {
  const pluginDir = mkdtempSync(join(tmpdir(), 'stacks-plugins-'));
  writePlugins(pluginDir, plugins);
  const logs: string[] = [];
  const lib = await startTestLibrary(['-plugin-path', pluginDir, ...extraArgs], { log: (m) => logs.push(m) });
  return withHelpers(lib, pluginDir, logs);
}

export function withHelpers(lib: TestLibrary, pluginDir: string, logs: string[]): PluginTestLibrary {
  const restart = lib.restart.bind(lib);
  const post = async (path: string, name: string) => {
    const r = await lib.form(path, [['name', name]], { accept: 'application/json' });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const records = async () => (await lib.json<Record<string, unknown>[]>('GET', '/v1/plugins/manage')).body;
  return Object.assign(lib as Omit<TestLibrary, 'restart'>, {
    pluginDir,
    logs,
    enable: (name: string) => post('/v1/plugin/enable', name),
    disable: (name: string) => post('/v1/plugin/disable', name),
    records,
    rec: async (name: string) => (await records()).find((r) => r.name === name),
    restart: async (extra: string[] = []) => {
      logs.length = 0;
      const next = await restart(['-plugin-path', pluginDir, ...extra], { log: (m) => logs.push(m) });
      return withHelpers(next, pluginDir, logs);
    },
  });
}
