// library-plugins.md §32.1: discovery and manifests (T-001 … T-015).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const CANONICAL = ['db:read', 'db:write', 'http', 'kv', 'image', 'hooks', 'inject', 'render', 'pages', 'api', 'actions', 'jobs', 'schedule', 'job_events'];

const refused: Record<string, [string, string]> = {
  r01: ['{ name = "r01", capabilities = { "kv" } }', 'add api_version = 1'],
  r02: ['{ name = "r02", api_version = 1, capabilities = { "kv", "filesystem" } }', 'unknown capability "filesystem"'],
  r03: ['{ name = "r03", api_version = 1, network = {} }', 'network is empty'],
  r04: ['{ name = "r04", apiVersion = 1 }', 'apiVersion'],
  r05: ['{ name = "r05", api_version = 1, netowrk = { "x.example" } }', 'did you mean "network"'],
  r06: ['{ name = "r06", api_version = 1.5 }', 'positive whole number'],
  r07: ['{ name = "r07", api_version = "1" }', 'api_version must be a number'],
  r08: ['{ name = "r08", api_version = 1, capabilities = { "http" }, allow_private_hosts = true }', 'needs a network list'],
  r09: ['{ name = "r09", api_version = 1, network = { "*.lan.example" }, allow_private_hosts = true }', 'too broad'],
  r10: ['{ name = "r10", api_version = 1, network = { "10.0.0.0/7" }, allow_private_hosts = true }', 'too broad'],
  r11: ['{ name = "r11", api_version = 1, network = { "10.0.0.5/8" } }', 'host bits set'],
  r12: ['{ name = "r12", api_version = 1, network = { "0x7f000001" } }', 'not a hostname, wildcard, IP address or CIDR block'],
  r13: ['{ name = "r13", api_version = 1, network = { "0.0.0.0/0" } }', 'default route'],
  r14: ['{ name = "r14", api_version = 1, dependencies = { "r14" } }', 'depends on itself'],
  r15: ['{ name = "r15", api_version = 1, min_app_version = 1.2 }', 'min_app_version must be a string'],
  r16: ['{ name = "r16", api_version = 1, capabilities = { x = "kv" } }', 'must be an array'],
  r17: ['{ name = "r17", api_version = 1, allow_private_hosts = "yes", network = { "10.0.0.0/8" } }', 'must be a boolean'],
  r18: ['{ name = "r18", ["vérsion"] = "1" }', 'non-ASCII'],
  r19: ['{ name = "Bad Name" }', 'must match'],
  r21: ['{ name = "r21", api_version = 1, network = { "[2001:db8::1" } }', 'network entry'],
  // download_limits (§15.5): each malformed shape refuses the plugin.
  r22: ['{ name = "r22", api_version = 1, download_limits = "fast" }', 'download_limits must be an array of tables'],
  r23: ['{ name = "r23", api_version = 1, download_limits = { { concurrency = 2 } } }', 'download_limits[1]: host must be a network rule'],
  r24: ['{ name = "r24", api_version = 1, download_limits = { { host = "a.example", concurrency = 0 } } }', 'concurrency must be a positive whole number'],
  r25: ['{ name = "r25", api_version = 1, download_limits = { { host = "a.example", min_interval = "5 s" } } }', 'min_interval "5 s" is not a duration'],
  r26: ['{ name = "r26", api_version = 1, download_limits = { { host = "a.example", backoff = "-1m" } } }', 'backoff must not be negative'],
  r27: ['{ name = "r27", api_version = 1, download_limits = { "a.example" } }', 'download_limits[1] must be a table'],
};

const plugins: Record<string, string> = {
  'old-style': 'plugin = { name = "old-style", version = 2, description = "no manifest" }',
  declared: `plugin = { name = "declared", version = "1.0", api_version = 1,
    capabilities = { "inject", "db:write", "hooks", "inject" },
    network = { "API.Example.com.", "*.cdn.example.org", "api.example.com" },
    dependencies = { "base-lib" }, min_app_version = "1.2.0" }`,
  limited: 'plugin = { name = "limited", api_version = 1, download_limits = { { host = "*.example.com", concurrency = 2, min_interval = "5s", backoff = "60s" } } }',
  bare: 'plugin = { name = "bare", api_version = 1 }\nfunction init() mah.log("info", "bare up") end',
  'bare-kv': 'plugin = { name = "bare-kv", api_version = 1 }\nfunction init() mah.kv.set("a", 1) end',
  probe: `plugin = { name = "probe", api_version = 1, capabilities = { "api" } }
function init()
  mah.api("GET", "has", function(ctx)
    ctx.json({ kv = mah.kv ~= nil, db = mah.db ~= nil, http = mah.http ~= nil, page = mah.page ~= nil,
               on = mah.on ~= nil, job_progress = mah.job_progress ~= nil,
               json = mah.json ~= nil, util = mah.util ~= nil, sleep = mah.sleep ~= nil, doc = mah.doc ~= nil })
  end)
end`,
  r20: 'plugin = "r20"',
  a1: 'plugin = { name = "a1", api_version = 1, capabilities = { "http" }, network = { "10.0.0.0/8" }, allow_private_hosts = true }',
  a2: 'plugin = { name = "a2", api_version = 1, network = { "::ffff:a00:0/104" } }',
  a3: 'plugin = { name = "a3", api_version = 1, network = { "Printer.Local.", "printer.local" } }',
  a4: 'plugin = { name = "a4", api_version = 1, capabilities = {} }',
  a5: 'plugin = { name = "a5", api_version = 1, my_data = { 1, 2 } }',
  a6: 'plugin = { name = "a6", api_version = 1, network = { "192.168.0.0/16", "printer.local" }, allow_private_hosts = true, capabilities = { "http" } }',
  one: 'plugin = { name = "twin" }',
  two: 'plugin = { name = "twin" }',
  three: 'plugin = { name = "third" }',
  'ring-a': 'plugin = { name = "ring-a", api_version = 1, dependencies = { "ring-b" } }',
  'ring-b': 'plugin = { name = "ring-b", api_version = 1, dependencies = { "ring-a" } }',
  leaf: 'plugin = { name = "leaf", api_version = 1, dependencies = { "ring-a" } }',
  eager: 'plugin = { name = "eager" }\nmah.log("info", "too early")',
  stuck: 'plugin = { name = "stuck" }\nwhile true do end',
  'meta-p': 'plugin = setmetatable({ name = "meta-p" }, { __index = { api_version = 1 } })',
  'b-dir': 'plugin = { name = "alpha" }',
  'a-dir': 'plugin = { name = "zulu" }',
  future: 'plugin = { name = "future", api_version = 2 }',
  'set-shape': `plugin = { name = "set-shape", settings = {
  { name = "a", type = "number", label = "A", default = 3 },
  "ignored entry",
  { name = "b", type = "select", label = "B", options = { "x", 2 } },
} }`,
  ...Object.fromEntries(Object.entries(refused).map(([dir, [table]]) => [dir, `plugin = ${table}`])),
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins, []);
  // Files that are not plugin directories are ignored (T-012), as are directories without plugin.lua.
  mkdirSync(join(lib.pluginDir, 'empty-dir'), { recursive: true });
  writeFileSync(join(lib.pluginDir, 'notes.txt'), 'not a plugin');
}, 120_000);
afterAll(async () => lib?.close());

const warningFor = (dir: string) => lib.logs.filter((l) => l.includes(`"${dir}"`));

describe('discovery and manifests', () => {
  it('T-001 lists a legacy plugin with every capability', async () => {
    const r = await lib.rec('old-style');
    expect(r).toEqual({
      name: 'old-style',
      version: '2',
      description: 'no manifest',
      enabled: false,
      legacy: true,
      api_version: 0,
      capabilities: CANONICAL,
      capability_labels: expect.any(Object),
      allow_private_hosts: false,
      network: [],
      dependencies: [],
      min_app_version: '',
      settings: [],
      values: {},
      allow_scoped_principals: false,
    });
    expect(Object.keys(r!.capability_labels as object).sort()).toEqual([...CANONICAL].sort());
  });

  it('T-002 effective capabilities in canonical order, network display, missing dependency', async () => {
    const r = await lib.rec('declared');
    expect(r).toMatchObject({
      legacy: false,
      api_version: 1,
      capabilities: ['db:read', 'db:write', 'hooks', 'inject'],
      network: ['*.cdn.example.org', 'api.example.com'],
      dependencies: ['base-lib'],
      min_app_version: '1.2.0',
    });
    expect((r!.capability_labels as Record<string, string>)['db:read']).toMatch(/^Read your library/);
    expect(await lib.enable('declared')).toEqual({ status: 400, body: { error: 'plugin "declared" depends on "base-lib", which is not installed' } });
  });

  it('T-003 a manifest that asks for nothing gets nothing', async () => {
    expect(await lib.rec('bare')).toMatchObject({ capabilities: [], network: [] });
    expect((await lib.enable('bare')).status).toBe(200);
    const failed = await lib.enable('bare-kv');
    expect(failed.status).toBe(400);
    expect(failed.body.error).toMatch(/^loading plugin "bare-kv": .*attempt to index a nil value/);
    expect((await lib.rec('bare-kv'))!.enabled).toBe(false);
  });

  it('T-004 only granted functions exist', async () => {
    expect((await lib.enable('probe')).status).toBe(200);
    const r = await lib.fetch('/v1/plugins/probe/has');
    expect(await r.text()).toBe('{"db":false,"doc":true,"http":false,"job_progress":false,"json":true,"kv":false,"on":false,"page":false,"sleep":true,"util":true}\n');
  });

  it('T-005 refused manifests are skipped with their reason', async () => {
    const names = (await lib.records()).map((r) => r.name);
    for (const [dir, [, reason]] of Object.entries(refused)) {
      expect(names).not.toContain(dir);
      const lines = warningFor(dir);
      expect(lines.length, dir).toBe(1);
      expect(lines[0], dir).toContain(reason);
    }
    expect(warningFor('r04')[0]).toContain('api_version');
    expect(warningFor('r11')[0]).toContain('10.0.0.0/8');
    expect(warningFor('r20')[0]).toContain('`plugin` table');
  });

  it('T-006 accepted edge manifests', async () => {
    expect(await lib.rec('a1')).toMatchObject({ allow_private_hosts: true, network: ['10.0.0.0/8'] });
    expect(await lib.rec('a2')).toMatchObject({ network: ['10.0.0.0/8'] });
    expect(await lib.rec('a3')).toMatchObject({ network: ['printer.local'] });
    expect(await lib.rec('a4')).toMatchObject({ capabilities: [] });
    expect(await lib.rec('a5')).toBeDefined();
    expect(await lib.rec('a6')).toMatchObject({ network: ['192.168.0.0/16', 'printer.local'] });
    expect(await lib.rec('limited')).toBeDefined();
  });

  it('T-007 duplicate names drop both', async () => {
    const names = (await lib.records()).map((r) => r.name);
    expect(names).toContain('third');
    expect(names).not.toContain('twin');
    const line = lib.logs.find((l) => l.includes('"twin"'))!;
    expect(line).toContain('"one"');
    expect(line).toContain('"two"');
  });

  it('T-008 plugins on a cycle are skipped; their dependents stay listed', async () => {
    const names = (await lib.records()).map((r) => r.name);
    expect(names).toContain('leaf');
    expect(names).not.toContain('ring-a');
    expect(names).not.toContain('ring-b');
    expect(await lib.enable('leaf')).toEqual({ status: 400, body: { error: 'plugin "leaf" depends on "ring-a", which is not installed' } });
  });

  it('T-009 mah does not exist at top level', async () => {
    const line = warningFor('eager')[0];
    expect(line).toContain('nil value');
    expect(line).toContain('only inside init()');
  });

  it('T-010 top-level code must return promptly; everything else is usable', async () => {
    expect(warningFor('stuck')[0]).toContain('must return promptly');
    expect((await lib.json('GET', '/v1/plugins/probe/has')).status).toBe(200);
  });

  it('T-011 a metatable on the plugin table is refused', async () => {
    expect(warningFor('meta-p')[0]).toContain('metatable');
  });

  it('T-012 discovery order follows directory names', async () => {
    const names = (await lib.records()).map((r) => r.name);
    expect(names.indexOf('zulu')).toBeLessThan(names.indexOf('alpha'));
    expect(names.filter((n) => n === 'zulu' || n === 'alpha')).toEqual(['zulu', 'alpha']);
  });

  it('T-014 a future api_version is listed but cannot be enabled', async () => {
    expect(await lib.rec('future')).toMatchObject({ api_version: 2 });
    const r = await lib.enable('future');
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('plugin declares api_version 2, but this server implements 1');
    expect((await lib.rec('future'))!.enabled).toBe(false);
  });

  it('T-015 setting definitions in the record', async () => {
    expect((await lib.rec('set-shape'))!.settings).toEqual([
      { name: 'a', type: 'number', label: 'A', default: 3, required: false },
      { name: 'b', type: 'select', label: 'B', options: ['x', '2'], required: false },
    ]);
  });
});

describe('oversized plugin files (T-013)', () => {
  let big: PluginTestLibrary;
  beforeAll(async () => {
    const body = 'plugin = { name = "NAME" }\n--';
    const pad = (name: string, size: number) => {
      const head = body.replace('NAME', name);
      return head + 'x'.repeat(size - Buffer.byteLength(head));
    };
    big = await startWithPlugins({ fits: pad('fits', 4_194_304), toobig: pad('toobig', 4_194_305) });
  }, 120_000);
  afterAll(async () => big?.close());

  it('skips a plugin.lua over 4 MiB and lists one of exactly 4 MiB', async () => {
    const names = (await big.records()).map((r) => r.name);
    expect(names).toEqual(['fits']);
  });
});
