// Plugin host overheads with 10 plugins enabled: the extra time a tag create takes when every
// plugin has a before- and an after-hook on it, JSON-endpoint calls per second, and sync action
// runs per second, once with a handler that makes no host call and once with one that makes
// three mah.db reads (each read looks up the actor's account, §11.1). The library runs with
// -auth and every request is an editor's (an API token), so the plugin code acts as that
// account rather than as the unrestricted actor 0, which skips the account lookup; the reads are
// run once more as the admin (actor 0) to show what the lookups cost.
// Run: npx tsx bench/plugins.ts [--writes 300] [--calls 1000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseLibraryArgs } from '../src/library/config.js';
import { startLibrary } from '../src/library/main.js';
import { argNumber as arg } from './args.js';

const WRITES = arg('writes', 300);
const CALLS = arg('calls', 1000);
const PLUGINS = 10;

const dir = mkdtempSync(join(tmpdir(), 'stacks-bench-plugins-'));
const pluginDir = join(dir, 'plugins');
for (let i = 0; i < PLUGINS; i++) {
  mkdirSync(join(pluginDir, `p${i}`), { recursive: true });
  writeFileSync(
    join(pluginDir, `p${i}`, 'plugin.lua'),
    `plugin = { name = "p${i}", api_version = 1, capabilities = { "hooks", "api", "actions", "db:read" } }
function init()
  mah.on("before_tag_create", function(t) t.description = (t.description or "") .. "${i}" return t end)
  mah.on("after_tag_create", function(t) seen = (seen or 0) + 1 end)
  mah.api("GET", "ping", function(ctx) ctx.json({ n = ${i} }) end)
  mah.action({ id = "ping", label = "Ping", entity = "group", handler = function(ctx) return { success = true, message = "ok" } end })
  mah.action({ id = "reads", label = "Three reads", entity = "group", handler = function(ctx)
    local g = mah.db.get_group(ctx.entity_id)
    local n = mah.db.count_groups({})
    local t = mah.db.query_groups({ limit = 1 })
    if not g or not n or not t then error("read refused") end
    return { success = true, message = "ok" }
  end })
end`,
  );
}

const ADMIN = { username: 'admin', password: 'bench-admin-password' };
const EDITOR = { username: 'editor', password: 'bench-editor-password' };
const { config } = parseLibraryArgs(
  ['-bind-address', '127.0.0.1:0', '-file-save-path', join(dir, 'files'), '-db-dsn', join(dir, 'lib.db'), '-quiet', '-plugin-path', pluginDir, '-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password],
  {},
);
const lib = await startLibrary(config, { log: () => undefined });

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  const all: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  return fetch(lib.url + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** A signed-in session's headers: its cookie and CSRF token. */
async function signIn(who: { username: string; password: string }): Promise<Record<string, string>> {
  const r = await call('POST', '/v1/auth/login', {}, who);
  if (r.status !== 200) throw new Error(`login ${who.username}: ${await r.text()}`);
  const cookie = /mr_session=[^;]*/.exec(r.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const me = (await (await call('GET', '/v1/auth/me', { cookie })).json()) as { csrfToken: string };
  return { cookie, 'x-csrf-token': me.csrfToken };
}

async function ok<T>(what: string, r: Promise<Response>): Promise<T> {
  const res = await r;
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const admin = await signIn(ADMIN);
await ok('create editor', call('POST', '/v1/users', admin, { ...EDITOR, role: 'editor' }));
const { token } = await ok<{ token: string }>('mint token', call('POST', '/v1/account/tokens', await signIn(EDITOR), { name: 'bench' }));
const editor = { authorization: `Bearer ${token}` };
const post = (path: string, body: Record<string, string>) => call('POST', path, editor, body);

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
    const r = await fetch(`${lib.url}/v1/plugin/enable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...admin }, body: `name=p${i}` });
    if (r.status !== 200) throw new Error(`enable p${i}: ${await r.text()}`);
  }
  const hooked = await tagWrites('hooked');
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const r = await fetch(`${lib.url}/v1/plugins/p${i % PLUGINS}/ping`, { headers: editor });
    if (r.status !== 200) throw new Error(`endpoint answered ${r.status}`);
    await r.text();
  }
  const endpointMs = performance.now() - start;
  const { ID: group } = await ok<{ ID: number }>('create group', post('/v1/group', { Name: 'target' }));
  const actionsPerSecond = async (action: string, as: Record<string, string> = editor): Promise<number> => {
    const run = (i: number) => ok<{ success: boolean }>(`action ${action}`, call('POST', '/v1/jobs/action/run', as, { plugin: `p${i % PLUGINS}`, action, entity_ids: [group], params: {} }));
    for (let i = 0; i < 20; i++) await run(i);
    const from = performance.now();
    for (let i = 0; i < CALLS; i++) if (!(await run(i)).success) throw new Error(`action ${action} failed`);
    return CALLS / ((performance.now() - from) / 1000);
  };
  const pings = await actionsPerSecond('ping');
  const reads = await actionsPerSecond('reads');
  // The admin is a super-user: its plugin code acts as actor 0, whose calls skip the account lookup.
  const rootReads = await actionsPerSecond('reads', admin);
  console.log(`tag create, no plugins:            ${bare.toFixed(2)} ms per write`);
  console.log(`tag create, ${PLUGINS} plugins × 2 hooks:    ${hooked.toFixed(2)} ms per write`);
  console.log(`hook overhead:                     ${(hooked - bare).toFixed(2)} ms per write (${((hooked - bare) / (2 * PLUGINS)).toFixed(3)} ms per hook call)`);
  console.log(`JSON endpoint calls (10 plugins):  ${Math.round(CALLS / (endpointMs / 1000))} calls/s`);
  console.log(`sync action runs, no host call:    ${Math.round(pings)} calls/s`);
  console.log(`sync action runs, 3 mah.db reads:  ${Math.round(reads)} calls/s (${((1000 / reads - 1000 / pings) / 3).toFixed(3)} ms per mah.db read)`);
  console.log(`the same as the admin (actor 0):   ${Math.round(rootReads)} calls/s (no account lookup)`);
} finally {
  await lib.close();
  rmSync(dir, { recursive: true, force: true });
}
