// Plugin host overheads with 10 plugins enabled: the extra time a tag create takes when every
// plugin has a before- and an after-hook on it, and JSON-endpoint calls per second (plugin
// actions are not implemented yet; an endpoint call is the same entry-point path plus HTTP).
// Run: npx tsx bench/plugins.ts [--writes 300] [--calls 1000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseLibraryArgs } from '../src/library/config.js';
import { startLibrary } from '../src/library/main.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const WRITES = arg('writes', 300);
const CALLS = arg('calls', 1000);
const PLUGINS = 10;

const dir = mkdtempSync(join(tmpdir(), 'stacks-bench-plugins-'));
const pluginDir = join(dir, 'plugins');
for (let i = 0; i < PLUGINS; i++) {
  mkdirSync(join(pluginDir, `p${i}`), { recursive: true });
  writeFileSync(
    join(pluginDir, `p${i}`, 'plugin.lua'),
    `plugin = { name = "p${i}", api_version = 1, capabilities = { "hooks", "api" } }
function init()
  mah.on("before_tag_create", function(t) t.description = (t.description or "") .. "${i}" return t end)
  mah.on("after_tag_create", function(t) seen = (seen or 0) + 1 end)
  mah.api("GET", "ping", function(ctx) ctx.json({ n = ${i} }) end)
end`,
  );
}

const { config } = parseLibraryArgs(['-bind-address', '127.0.0.1:0', '-file-save-path', join(dir, 'files'), '-db-dsn', join(dir, 'lib.db'), '-quiet', '-plugin-path', pluginDir], {});
const lib = await startLibrary(config, { log: () => undefined });
const post = (path: string, body: Record<string, string>) =>
  fetch(lib.url + path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });

async function tagWrites(prefix: string): Promise<number> {
  for (let i = 0; i < 20; i++) await post('/v1/tag', { Name: `${prefix}-warm-${i}` });
  const start = performance.now();
  for (let i = 0; i < WRITES; i++) {
    const r = await post('/v1/tag', { Name: `${prefix}-${i}` });
    if (r.status !== 200) throw new Error(`tag create answered ${r.status}`);
  }
  return (performance.now() - start) / WRITES;
}

try {
  const bare = await tagWrites('bare');
  for (let i = 0; i < PLUGINS; i++) {
    const r = await fetch(`${lib.url}/v1/plugin/enable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: `name=p${i}` });
    if (r.status !== 200) throw new Error(`enable p${i}: ${await r.text()}`);
  }
  const hooked = await tagWrites('hooked');
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const r = await fetch(`${lib.url}/v1/plugins/p${i % PLUGINS}/ping`);
    await r.text();
  }
  const endpointMs = performance.now() - start;
  console.log(`tag create, no plugins:            ${bare.toFixed(2)} ms per write`);
  console.log(`tag create, ${PLUGINS} plugins × 2 hooks:    ${hooked.toFixed(2)} ms per write`);
  console.log(`hook overhead:                     ${(hooked - bare).toFixed(2)} ms per write (${((hooked - bare) / (2 * PLUGINS)).toFixed(3)} ms per hook call)`);
  console.log(`JSON endpoint calls (10 plugins):  ${Math.round(CALLS / (endpointMs / 1000))} calls/s`);
} finally {
  await lib.close();
  rmSync(dir, { recursive: true, force: true });
}
