// library-plugins.md §32.10 outbound HTTP and egress (T-089 … T-096) against a local fixture
// server the test starts: the response table, allowlist and redirect re-checks, the private
// address deny, the body cap, the scheme check, asynchronous callbacks and transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';

const summary = `local function summary(r)
  return { status_code = r.status_code, truncated = r.truncated, len = r.body and #r.body,
           body = r.body and #r.body < 100 and r.body or nil, multi = r.headers and r.headers["x-multi"],
           error = r.error, url = r.url, method = r.method }
end`;

const plugins: Record<string, string> = {
  'net-fixture': `plugin = {
  name = "net-fixture", api_version = 1,
  capabilities = { "http", "api", "kv", "db:write" },
  network = { "127.0.0.1" }, allow_private_hosts = true,
}
${summary}
function init()
  mah.api("GET", "fetch", function(ctx) ctx.json(summary(mah.http.get_sync(ctx.query.u, { timeout = 10 }))) end)
  mah.api("POST", "fetch-later", function(ctx)
    mah.kv.delete("later")
    mah.http.get(ctx.query.u, function(r) mah.kv.set("later", summary(r)) end)
    ctx.json({ queued = true, seen_yet = mah.kv.get("later") ~= nil })
  end)
  mah.api("GET", "later", function(ctx) ctx.json({ later = mah.kv.get("later") }) end)
  mah.api("GET", "in-tx", function(ctx)
    local sync_err, async_ok, async_err
    mah.db.transaction(function()
      sync_err = mah.http.get_sync(ctx.query.u).error
      async_ok, async_err = pcall(mah.http.get, ctx.query.u, function() end)
    end)
    ctx.json({ sync_err = sync_err, async_ok = async_ok, async_err = async_err })
  end)
  mah.api("POST", "post", function(ctx) ctx.json(summary(mah.http.post_sync(ctx.query.u, "payload", { headers = { ["User-Agent"] = "custom/2" } }))) end)
end`,
  // T-097: the same slow request from a sync action (5 s budget) and from a mah.start_job function
  // (5 min budget). Two plugins, so the two calls do not wait on one VM lock.
  'net-budget': `plugin = { name = "net-budget", api_version = 1, capabilities = { "http", "actions" }, network = { "127.0.0.1" }, allow_private_hosts = true }
function init()
  mah.action({ id = "slow", label = "Slow", entity = "resource", params = { { name = "u", type = "text", label = "URL" } },
    handler = function(ctx)
      local r = mah.http.get_sync(ctx.params.u, { timeout = 10 })
      return { success = true, message = r.error and "gave up" or "ok" }
    end })
end`,
  'net-job': `plugin = { name = "net-job", api_version = 1, capabilities = { "http", "jobs", "api" }, network = { "127.0.0.1" }, allow_private_hosts = true }
function init()
  mah.api("POST", "go", function(ctx)
    local u = ctx.query.u
    ctx.json({ id = mah.start_job("Slow fetch", function(job_id)
      local r = mah.http.get_sync(u, { timeout = 15 })
      mah.job_complete(job_id, { status_code = r.status_code, error = r.error })
    end) })
  end)
end`,
  'net-legacy': `plugin = { name = "net-legacy", version = "1.0" }
${summary}
function init() mah.api("GET", "fetch", function(ctx) ctx.json(summary(mah.http.get_sync(ctx.query.u))) end) end`,
  'net-named': `plugin = { name = "net-named", api_version = 1, network = { "localhost" }, allow_private_hosts = true, capabilities = { "http", "api" } }
${summary}
function init() mah.api("GET", "fetch", function(ctx) ctx.json(summary(mah.http.get_sync(ctx.query.u))) end) end`,
};

let lib: PluginTestLibrary;
let server: StubServer;
let hits: string[] = [];

beforeAll(async () => {
  server = await startStubServer();
  const seen = (path: string, handler: Parameters<StubServer['routes']['set']>[1]) =>
    server.routes.set(path, (req, res) => {
      hits.push(path);
      handler(req, res);
    });
  seen('/hello', (_req, res) => {
    res.setHeader('X-Multi', ['a', 'b']);
    res.end('hi');
  });
  seen('/ua', (req, res) => res.end(req.headers['user-agent'] ?? ''));
  // Longer than a sync entry point's 5 s budget, well inside a job's.
  seen('/slow', (_req, res) => {
    setTimeout(() => res.end('slow'), 6000);
  });
  seen('/big', (_req, res) => res.end(Buffer.alloc(6_291_456, 'x')));
  seen('/away', (_req, res) => res.writeHead(302, { location: 'http://elsewhere.example/' }).end());
  seen('/loop', (_req, res) => res.writeHead(302, { location: `${server.url}/loop` }).end());
  lib = await startWithPlugins(plugins);
  for (const name of Object.keys(plugins)) expect((await lib.enable(name)).status, name).toBe(200);
}, 120_000);
afterAll(async () => {
  await lib?.close();
  await server?.close();
});

const fetchVia = async (plugin: string, u: string) => (await lib.json<Record<string, unknown>>('GET', `/v1/plugins/${plugin}/fetch?u=${encodeURIComponent(u)}`)).body;
const NOT_LISTED = (host: string) => `blocked request to ${host}: the plugin's manifest does not list this host in \`network\``;
const ADDRESS = "blocked request: the address it resolves to is not permitted by this plugin's `network` declaration";

describe('mah.http', () => {
  it('T-089 allowed private address, response table', async () => {
    const u = `${server.url}/hello`;
    expect(await fetchVia('net-fixture', u)).toEqual({ status_code: 200, body: 'hi', len: 2, truncated: false, multi: 'a, b', url: u, method: 'GET' });
    expect((await fetchVia('net-fixture', `${server.url}/ua`)).body).toBe('mahresources-plugin/1.0');
    const posted = await lib.json<Record<string, unknown>>('POST', `/v1/plugins/net-fixture/post?u=${encodeURIComponent(`${server.url}/ua`)}`);
    expect(posted.body).toMatchObject({ status_code: 200, body: 'custom/2', method: 'POST' });
  });

  it('T-090 hosts outside the allowlist are refused before any connection', async () => {
    const r = await fetchVia('net-fixture', 'http://elsewhere.example/x');
    expect(r).toEqual({ error: NOT_LISTED('elsewhere.example'), url: 'http://elsewhere.example/x', method: 'GET' });
  });

  it('T-091 redirects are re-checked', async () => {
    expect((await fetchVia('net-fixture', `${server.url}/away`)).error).toBe(NOT_LISTED('elsewhere.example'));
  });

  it('a redirect loop stops after 10 hops', async () => {
    hits = [];
    const u = `${server.url}/loop`;
    expect(await fetchVia('net-fixture', u)).toEqual({ error: 'stopped after 10 redirects', url: u, method: 'GET' });
    // The first request and ten followed redirects.
    expect(hits).toEqual(Array(11).fill('/loop'));
  });

  it('T-092 loopback is denied without an address rule', async () => {
    hits = [];
    const legacy = await fetchVia('net-legacy', `${server.url}/hello`);
    expect(legacy.error).toBe(ADDRESS);
    expect(String(legacy.error)).not.toContain('127.0.0.1');
    const named = await fetchVia('net-named', `${server.url.replace('127.0.0.1', 'localhost')}/hello`);
    expect(named.error).toBe(ADDRESS);
    expect(hits).toEqual([]);
  });

  it('T-093 body cap', async () => {
    expect(await fetchVia('net-fixture', `${server.url}/big`)).toMatchObject({ status_code: 200, len: 5_242_880, truncated: true });
  });

  it('T-094 scheme check', async () => {
    expect((await fetchVia('net-fixture', 'ftp://127.0.0.1/x')).error).toBe('unsupported URL scheme (only http and https are allowed)');
  });

  it('T-095 asynchronous requests call back later', async () => {
    const queued = await lib.json('POST', `/v1/plugins/net-fixture/fetch-later?u=${encodeURIComponent(`${server.url}/hello`)}`);
    expect(queued.body).toEqual({ queued: true, seen_yet: false });
    let later: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !later; i++) {
      later = (await lib.json<{ later?: Record<string, unknown> }>('GET', '/v1/plugins/net-fixture/later')).body.later;
      if (!later) await new Promise((r) => setTimeout(r, 50));
    }
    expect(later).toMatchObject({ status_code: 200, body: 'hi' });

    await lib.json('POST', `/v1/plugins/net-fixture/fetch-later?u=${encodeURIComponent('http://elsewhere.example/')}`);
    let refused: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      refused = (await lib.json<{ later?: Record<string, unknown> }>('GET', '/v1/plugins/net-fixture/later')).body.later;
      if (!refused) await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused?.error).toBe(NOT_LISTED('elsewhere.example'));
  });

  it('T-096 no network inside transactions', async () => {
    hits = [];
    const r = (await lib.json<Record<string, string | boolean>>('GET', `/v1/plugins/net-fixture/in-tx?u=${encodeURIComponent(`${server.url}/hello`)}`)).body;
    expect(String(r.sync_err)).toMatch(/^mah\.http\.get_sync cannot run inside mah\.db\.transaction/);
    expect(r.async_ok).toBe(false);
    expect(String(r.async_err)).toContain('mah.http.get cannot run inside mah.db.transaction');
    expect(hits).toEqual([]);
  });

  it('T-097 synchronous requests respect the caller\'s budget', async () => {
    const u = `${server.url}/slow`;
    // Both start together: the action gives up inside its budget while the job waits for the answer.
    const job = await lib.json<{ id: string }>('POST', `/v1/plugins/net-job/go?u=${encodeURIComponent(u)}`);
    expect(job.status).toBe(200);
    const action = await lib.json('POST', '/v1/jobs/action/run', { plugin: 'net-budget', action: 'slow', entity_ids: [1], params: { u } });
    expect(action).toMatchObject({ status: 200, body: { success: true, message: 'gave up' } });
    let settled: Record<string, unknown> = {};
    for (let i = 0; i < 300 && settled.status !== 'completed' && settled.status !== 'failed'; i++) {
      settled = (await lib.json<Record<string, unknown>>('GET', `/v1/jobs/action/job?id=${job.body.id}`)).body;
      if (settled.status !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    expect(settled).toMatchObject({ status: 'completed', result: { status_code: 200 } });
  }, 30_000);
});
