// library-plugins.md §32.13 downloads (T-112 … T-116) and the job events of §32.7 (T-067):
// mah.download.submit now and deferred, scheduled-download rows, cancel, firing on ticks, and
// after_job_* hooks for download-queue jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';

const F8 = `plugin = { name = "dl-fixture", api_version = 1, capabilities = { "db:write", "api" }, network = { "files.example.com" } }

function init()
  mah.api("POST", "submit", function(ctx)
    local r = mah.json.decode(ctx.body)
    local res, err = mah.download.submit(r.url, r.options)
    ctx.json({ res = res, err = err })
  end)
  mah.api("POST", "submit-in-tx", function(ctx)
    local inner
    mah.db.transaction(function() local _, e = mah.download.submit("https://files.example.com/x.bin"); inner = e end)
    ctx.json({ err = inner })
  end)
end`;

const JOBWATCH = `plugin = { name = "jobwatch", api_version = 1, capabilities = { "hooks", "job_events", "kv", "api" } }
function init()
  mah.on("after_job_failed", function(p) mah.kv.set("failed", p) end)
  mah.on("after_job_completed", function(p) mah.kv.set("completed", p) end)
  mah.api("GET", "seen", function(ctx) ctx.json({ failed = mah.kv.get("failed"), completed = mah.kv.get("completed") }) end)
end`;

// Two plugins fetching from the loopback stub server: one whose manifest lifts the private-address
// deny for 127.0.0.1, one whose manifest does not (the server itself allows private hosts, so
// only the plugin's own egress policy can refuse).
const dlNet = (name: string, allow: boolean) => `plugin = { name = "${name}", api_version = 1, capabilities = { "db:write", "api" }, network = { "127.0.0.1" }, allow_private_hosts = ${allow} }
function init()
  mah.api("POST", "submit", function(ctx)
    local r = mah.json.decode(ctx.body)
    local res, err = mah.download.submit(r.url, r.options)
    ctx.json({ res = res, err = err })
  end)
end`;

type Json = Record<string, unknown>;
let lib: PluginTestLibrary;
let server: StubServer;

beforeAll(async () => {
  server = await startStubServer();
  server.routes.set('/queued.txt', (_req, res) => res.end('fetched by the queue for a plugin'));
  const plugins = { 'dl-fixture': F8, jobwatch: JOBWATCH, 'dl-local': dlNet('dl-local', true), 'dl-strict': dlNet('dl-strict', false) };
  lib = await startWithPlugins(plugins, ['-plugin-schedule-tick', '1s', '-allow-private-hosts']);
  for (const p of Object.keys(plugins)) expect((await lib.enable(p)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await lib?.close();
  await server?.close();
});

const submit = async (url: unknown, options?: Json) => (await lib.json<{ res?: Json; err?: string }>('POST', '/v1/plugins/dl-fixture/submit', { url, options })).body;
const rows = async (name = 'dl-fixture') => (await lib.json<Json[]>('GET', `/v1/plugin/scheduled-downloads?name=${name}`)).body;
const cancel = (id: string | number) => lib.form('/v1/plugin/scheduled-downloads/cancel', [['id', id]], { accept: 'application/json' });
const now = () => Math.floor(Date.now() / 1000);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mah.download.submit', () => {
  it('T-112 queues an immediate download', async () => {
    const { res } = await submit('https://files.example.com/a.bin', { name: 'a.bin' });
    expect(res).toMatchObject({ url: 'https://files.example.com/a.bin', status: 'pending' });
    const queue = await lib.json<{ jobs: Json[] }>('GET', '/v1/jobs/queue');
    expect(queue.body.jobs.find((j) => j.id === res?.id)).toMatchObject({ source: 'download' });
  });

  it('T-113 refuses hosts outside the manifest and other schemes', async () => {
    expect((await submit('https://other.example.com/a.bin')).err).toBe("blocked request to other.example.com: the plugin's manifest does not list this host in `network`");
    expect((await submit('ftp://files.example.com/a')).err).toBe('unsupported URL scheme (only http and https are allowed)');
    const inTx = await lib.json<{ err?: string }>('POST', '/v1/plugins/dl-fixture/submit-in-tx', {});
    expect(inTx.body.err).toMatch(/^mah\.download\.submit cannot run inside mah\.db\.transaction/);
  });

  it('T-114 validates deferral options', async () => {
    const before = now();
    const { res } = await submit('https://files.example.com/later.bin', { delay: '2h' });
    expect(res).toMatchObject({ scheduled: true });
    expect(res).not.toHaveProperty('id');
    expect(Number.isInteger(res?.start_at)).toBe(true);
    expect(Math.abs((res?.start_at as number) - (before + 7200))).toBeLessThanOrEqual(5);
    const err = async (options: Json) => (await submit('https://files.example.com/x.bin', options)).err ?? '';
    expect(await err({ delay: '2h', start_at: now() + 60 })).toBe('start_at and delay are mutually exclusive');
    expect(await err({ delay: '45d' })).toMatch(/^delay "45d" is not a duration/);
    expect(await err({ delay: '721h' })).toContain('exceeds the 30 days maximum');
    expect(await err({ delay: '-1h' })).toContain('must not be negative');
    expect(await err({ delay: 5 })).toBe('delay must be a duration string such as "2h", got number');
    expect(await err({ start_at: now() - 60 })).toBe('start_at must not be in the past');
    expect(await err({ start_at: 'soon' })).toBe('start_at must be a unix seconds number, got string');
    expect(await err({ start_at: 1e15 })).toBe('start_at is too large');
  });

  it('T-115 lists and cancels scheduled-download rows', async () => {
    const { res } = await submit('https://files.example.com/cancel-me.bin', { delay: '2h' });
    const id = res?.scheduled_id as number;
    const mine = (await rows()).find((r) => r.id === id);
    expect(mine).toMatchObject({ id, pluginName: 'dl-fixture', url: 'https://files.example.com/cancel-me.bin', status: 'pending', jobId: '', lastError: '', attempts: 0, owned: true });
    for (const k of ['dueAt', 'createdAt', 'updatedAt']) expect(mine?.[k]).toEqual(expect.any(String));
    const first = await cancel(id);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, id, status: 'cancelled' });
    expect((await cancel(id)).status).toBe(409);
    expect((await cancel(999999)).status).toBe(404);
    expect((await cancel('abc')).status).toBe(400);
    expect(await rows('nobody')).toEqual([]);
    expect((await lib.json('GET', '/v1/plugin/scheduled-downloads')).status).toBe(400);
  });

  it('T-116 fires due rows, and fails them when the plugin is gone', async () => {
    const soon = (await submit('https://files.example.com/soon.bin', { start_at: now() + 2 })).res?.scheduled_id;
    const fired = await eventually(async () => (await rows()).find((r) => r.id === soon), (r) => r?.status === 'submitted');
    expect(fired).toMatchObject({ status: 'submitted', attempts: 1 });
    expect(fired?.jobId).not.toBe('');
    const later = (await submit('https://files.example.com/orphan.bin', { start_at: now() + 3 })).res?.scheduled_id;
    expect((await lib.disable('dl-fixture')).status).toBe(200);
    const tried = await eventually(async () => (await rows()).find((r) => r.id === later), (r) => (r?.attempts as number) >= 1);
    expect(tried?.lastError).toContain('plugin "dl-fixture" is not enabled');
    const failed = await eventually(async () => (await rows()).find((r) => r.id === later), (r) => r?.status === 'failed');
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await lib.enable('dl-fixture')).status).toBe(200);
  }, 40_000);
});

describe('job events', () => {
  it('T-067 a failed download reaches after_job_failed', async () => {
    const sub = await lib.form('/v1/jobs/download/submit', [['URL', 'http://nonexistent.invalid/file.bin']], { accept: 'application/json' });
    expect(sub.status).toBe(202);
    const seen = await eventually(
      async () => (await lib.json<{ failed?: Json }>('GET', '/v1/plugins/jobwatch/seen')).body.failed,
      (f) => f?.url === 'http://nonexistent.invalid/file.bin',
    );
    expect(seen).toMatchObject({ source: 'download', status: 'failed', url: 'http://nonexistent.invalid/file.bin' });
    expect(seen?.error).toEqual(expect.any(String));
    expect(seen?.error).not.toBe('');
    expect(seen?.job_id).toEqual(expect.any(String));
    expect(seen).not.toHaveProperty('resource_id');
  });
});

describe('queued downloads run under the plugin egress policy', () => {
  const queued = async (plugin: string, url: string) => {
    const { res, err } = (await lib.json<{ res?: Json; err?: string }>('POST', `/v1/plugins/${plugin}/submit`, { url, options: { name: `${plugin}.txt` } })).body;
    expect(err).toBeUndefined();
    const job = async () => (await lib.json<{ jobs: Json[] }>('GET', '/v1/jobs/queue')).body.jobs.find((j) => j.id === res?.id);
    return eventually(job, (j) => j?.status === 'completed' || j?.status === 'failed');
  };

  it('an address the manifest allows is fetched; one it does not is refused at the attempt', async () => {
    expect(await queued('dl-local', `${server.url}/queued.txt`)).toMatchObject({ status: 'completed' });
    expect((await lib.json<unknown[]>('GET', '/v1/resources?Name=dl-local.txt')).body).toHaveLength(1);
    const refused = await queued('dl-strict', `${server.url}/queued.txt`);
    expect(refused).toMatchObject({ status: 'failed' });
    expect((await lib.json<unknown[]>('GET', '/v1/resources?Name=dl-strict.txt')).body).toHaveLength(0);
  });
});
