// library-plugins.md §15.5: a plugin's download_limits pace its own queued downloads —
// concurrency, min_interval and backoff after 429/503 — observed at the origin server. Waiting
// jobs hold no shared queue slot (the library runs with two), so other plugins' and users' jobs
// pass them, and a waiting job can be cancelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { startStubServer, type StubServer } from '../../helpers/stub-server.js';

/** A plugin fetching from the loopback origin (allowed by IP literal), paced by `limits` when given. */
const fixture = (name: string, limits?: string) => `plugin = { name = "${name}", api_version = 1, capabilities = { "db:write", "api" },
  network = { "127.0.0.1" }, allow_private_hosts = true${limits ? `,\n  download_limits = { ${limits} }` : ''} }
function init()
  mah.api("POST", "submit", function(ctx)
    local r = mah.json.decode(ctx.body)
    local res, err = mah.download.submit(r.url, { name = r.name })
    ctx.json({ res = res, err = err })
  end)
end`;

type Json = Record<string, unknown>;
let lib: PluginTestLibrary;
let origin: StubServer;

/** Requests seen by the origin per path: arrival, answer and the peak of overlapping requests per group. */
interface Seen {
  arrivedAt: number;
  answeredAt?: number;
}
const seen = new Map<string, Seen>();
const inFlight = new Map<string, { now: number; peak: number }>();

/** Serves `path` in `group`: answers after `hold` settles, with `status` and `headers`. */
function serve(group: string, path: string, hold: () => Promise<void> = async () => undefined, status = 200, headers: Record<string, string> = {}): void {
  origin.routes.set(path, (_req: IncomingMessage, res: ServerResponse) => {
    const entry: Seen = { arrivedAt: Date.now() };
    seen.set(path, entry);
    const g = inFlight.get(group) ?? { now: 0, peak: 0 };
    inFlight.set(group, g);
    g.now++;
    g.peak = Math.max(g.peak, g.now);
    void hold().then(() => {
      g.now--;
      entry.answeredAt = Date.now();
      res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`${path} from the origin`);
    });
  });
}

/** A hold the test ends. */
function latch(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { wait: () => opened, open };
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  origin = await startStubServer();
  const plugins = {
    'paced-serial': fixture('paced-serial', '{ host = "127.0.0.1", concurrency = 1 }'),
    'paced-spaced': fixture('paced-spaced', '{ host = "127.0.0.1", min_interval = "1s" }'),
    // A rule that matches nothing comes first: the first matching rule is the one applied.
    'paced-backoff': fixture('paced-backoff', '{ host = "files.example.com", concurrency = 1 }, { host = "127.0.0.0/8", backoff = "2s" }'),
    unpaced: fixture('unpaced'),
  };
  lib = await startWithPlugins(plugins, ['-allow-private-hosts', '-max-job-concurrency', '2']);
  for (const p of Object.keys(plugins)) expect((await lib.enable(p)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await lib?.close();
  await origin?.close();
});

async function submit(plugin: string, path: string): Promise<string> {
  const { res, err } = (await lib.json<{ res?: Json; err?: string }>('POST', `/v1/plugins/${plugin}/submit`, { url: `${origin.url}${path}`, name: `${plugin}${path.replace(/\//g, '-')}` })).body;
  expect(err).toBeUndefined();
  return res?.id as string;
}

const job = async (id: string) => (await lib.json<{ jobs: Json[] }>('GET', '/v1/jobs/queue')).body.jobs.find((j) => j.id === id);

async function settled(id: string, timeoutMs = 20_000): Promise<Json | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const j = await job(id);
    if (j?.status === 'completed' || j?.status === 'failed' || j?.status === 'cancelled' || Date.now() > until) return j;
    await pause(50);
  }
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await pause(20);
  return check();
}

describe('download_limits', () => {
  it('concurrency 1 lets one matching job reach the origin at a time', async () => {
    const paths = ['/serial-1.txt', '/serial-2.txt', '/serial-3.txt'];
    for (const p of paths) serve('serial', p, () => pause(300));
    const ids = [];
    for (const p of paths) ids.push(await submit('paced-serial', p));
    for (const id of ids) expect(await settled(id)).toMatchObject({ status: 'completed' });
    expect(paths.every((p) => seen.has(p))).toBe(true);
    // The queue has two slots, so without the rule two of these would overlap.
    expect(inFlight.get('serial')?.peak).toBe(1);
  });

  it('a waiting job holds no shared slot: a user\'s job and another plugin\'s job pass it', async () => {
    const first = latch();
    serve('pass', '/pass-running.txt', first.wait);
    serve('pass', '/pass-waiting-1.txt');
    serve('pass', '/pass-waiting-2.txt');
    serve('others', '/plain.txt');
    serve('others', '/other-plugin.txt');
    const running = await submit('paced-serial', '/pass-running.txt');
    expect(await until(() => seen.has('/pass-running.txt'))).toBe(true);
    const waiting = [await submit('paced-serial', '/pass-waiting-1.txt'), await submit('paced-serial', '/pass-waiting-2.txt')];
    const sub = await lib.form('/v1/jobs/download/submit', [['URL', `${origin.url}/plain.txt`]], { accept: 'application/json' });
    expect(sub.status).toBe(202);
    const plain = ((await sub.json()) as { jobs: Json[] }).jobs[0].id as string;
    const other = await submit('unpaced', '/other-plugin.txt');
    // One slot runs the held job; the paced jobs behind it wait outside the slots, so the other
    // slot serves the user's job and then the other plugin's.
    expect(await settled(plain)).toMatchObject({ status: 'completed' });
    expect(await settled(other)).toMatchObject({ status: 'completed' });
    expect(await job(running)).toMatchObject({ status: 'downloading' });
    for (const id of waiting) expect(await job(id)).toMatchObject({ status: 'pending' });
    expect(seen.has('/pass-waiting-1.txt') || seen.has('/pass-waiting-2.txt')).toBe(false);
    first.open();
    for (const id of [running, ...waiting]) expect(await settled(id)).toMatchObject({ status: 'completed' });
  });

  it('a waiting job can be cancelled and never reaches the origin', async () => {
    const first = latch();
    serve('cancel', '/cancel-running.txt', first.wait);
    serve('cancel', '/cancel-waiting.txt');
    serve('cancel', '/cancel-after.txt');
    const running = await submit('paced-serial', '/cancel-running.txt');
    expect(await until(() => seen.has('/cancel-running.txt'))).toBe(true);
    const waiting = await submit('paced-serial', '/cancel-waiting.txt');
    const after = await submit('paced-serial', '/cancel-after.txt');
    const cancel = await lib.form('/v1/jobs/cancel', [['id', waiting]], { accept: 'application/json' });
    expect(cancel.status).toBe(200);
    expect(await job(waiting)).toMatchObject({ status: 'cancelled', error: 'Cancelled before starting' });
    first.open();
    expect(await settled(running)).toMatchObject({ status: 'completed' });
    expect(await settled(after)).toMatchObject({ status: 'completed' });
    expect(seen.has('/cancel-waiting.txt')).toBe(false);
  });

  it('min_interval spaces the starts of matching jobs', async () => {
    const paths = ['/spaced-1.txt', '/spaced-2.txt', '/spaced-3.txt'];
    for (const p of paths) serve('spaced', p);
    const ids = [];
    for (const p of paths) ids.push(await submit('paced-spaced', p));
    for (const id of ids) expect(await settled(id)).toMatchObject({ status: 'completed' });
    const arrivals = paths.map((p) => seen.get(p)!.arrivedAt).sort((a, b) => a - b);
    // Lower bounds only ("1s" less a margin for the request's own way to the origin).
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(900);
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(900);
  });

  it('a 429 with Retry-After holds later matching jobs back for that long', async () => {
    serve('backoff', '/busy.txt', undefined, 429, { 'retry-after': '2' });
    serve('backoff', '/after-busy.txt');
    const busy = await submit('paced-backoff', '/busy.txt');
    expect(await settled(busy)).toMatchObject({ status: 'failed', error: 'HTTP 429: Too Many Requests' });
    const later = await submit('paced-backoff', '/after-busy.txt');
    expect(await settled(later)).toMatchObject({ status: 'completed' });
    expect(seen.get('/after-busy.txt')!.arrivedAt - seen.get('/busy.txt')!.answeredAt!).toBeGreaterThanOrEqual(1900);
  });

  it('a 503 asking for an hour waits only the rule\'s backoff', async () => {
    serve('backoff', '/unavailable.txt', undefined, 503, { 'retry-after': '3600' });
    serve('backoff', '/after-unavailable.txt');
    const down = await submit('paced-backoff', '/unavailable.txt');
    expect(await settled(down)).toMatchObject({ status: 'failed' });
    const later = await submit('paced-backoff', '/after-unavailable.txt');
    // Settling at all (within the 20 s the helper waits) shows the hour was capped at "2s".
    expect(await settled(later)).toMatchObject({ status: 'completed' });
    expect(seen.get('/after-unavailable.txt')!.arrivedAt - seen.get('/unavailable.txt')!.answeredAt!).toBeGreaterThanOrEqual(1900);
  });
});
