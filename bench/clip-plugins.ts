// Clip plugin overhead (issue 17): upload throughput with no plugins and with five plugins
// subscribed to clip:created, and how long the plugins take to work through the events the
// uploads raised. The request never waits for a handler, so the first figure measures what
// queueing costs a request; the second what handling costs the machine per clip.
// Run: npx tsx bench/clip-plugins.ts [--uploads 300] [--concurrency 8] [--plugins 5]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseClipArgs } from '../src/clips/config.js';
import { startClips, type RunningClips } from '../src/clips/main.js';
import { argNumber as arg } from './args.js';

const UPLOADS = arg('uploads', 300);
const CONCURRENCY = arg('concurrency', 8);
const PLUGINS = arg('plugins', 5);

const plugin = (i: number) => `Plugin = { name = "Bench${i}", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(data)
  storage.set("count", tostring((tonumber(storage.get("count")) or 0) + 1))
  storage.set("last", data.filename .. " " .. data.size)
end
`;

async function run(pluginCount: number) {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-bench-clip-plugins-'));
  const { config } = parseClipArgs(['--port', '0', '--data-dir', join(dir, 'data'), '-quiet']);
  const svc: RunningClips = await startClips(config, { log: () => undefined });
  try {
    const { key } = await svc.services.keys.create({ name: 'bench', role: 'admin' });
    for (let i = 0; i < pluginCount; i++) {
      const path = join(dir, `bench${i}.lua`);
      writeFileSync(path, plugin(i));
      await svc.services.plugins.install({ source: path });
    }
    const upload = async (i: number) => {
      const form = new FormData();
      form.append('file', new Blob([`bench clip ${i} ${Math.random()}`], { type: 'text/plain' }), `b${i}.txt`);
      const res = await fetch(`${svc.url}/api/v1/clips`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      if (res.status !== 201) throw new Error(`upload ${res.status}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 20; i++) await upload(-1 - i); // warm-up
    await svc.services.pluginHost.idle();
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < UPLOADS) await upload(next++);
      }),
    );
    const uploaded = performance.now() - start;
    await svc.services.pluginHost.idle();
    const handled = performance.now() - start;
    let counted = 0;
    for (let i = 1; i <= pluginCount; i++) counted += Number((await svc.services.plugins.storageAll(i)).count ?? 0);
    return {
      plugins: pluginCount,
      uploadsPerSecond: +(UPLOADS / (uploaded / 1000)).toFixed(1),
      msPerUpload: +(uploaded / UPLOADS).toFixed(2),
      msUntilAllEventsHandled: Math.round(handled),
      eventsHandled: counted,
    };
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const without = await run(0);
const withPlugins = await run(PLUGINS);
console.log(
  JSON.stringify(
    {
      uploads: UPLOADS,
      concurrency: CONCURRENCY,
      without,
      with: withPlugins,
      requestOverheadMsPerClip: +(withPlugins.msPerUpload - without.msPerUpload).toFixed(2),
      handlingMsPerClip: +((withPlugins.msUntilAllEventsHandled - without.msUntilAllEventsHandled) / UPLOADS).toFixed(2),
    },
    null,
    2,
  ),
);
