// library-plugins.md §32.12 schedules (T-106 … T-111): rows recorded on enable, run now,
// failures recorded, refusals, registration rules, and due schedules firing on ticks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseReader } from '../../helpers/sse.js';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const F6 = `plugin = { name = "sched-fixture", api_version = 1, capabilities = { "schedule", "kv", "api", "jobs" } }

function init()
  mah.schedule({ id = "hourly", every = "1h", handler = function(job_id)
    mah.kv.set("hourly-runs", (mah.kv.get("hourly-runs") or 0) + 1)
  end })
  mah.schedule({ id = "flaky", every = "1h", overlap = "allow", handler = function(job_id)
    mah.job_fail(job_id, "upstream unavailable")
  end })
  mah.schedule({ id = "slow", every = "1h", handler = function(job_id) mah.sleep(3) end })
  mah.api("GET", "runs", function(ctx) ctx.json({ hourly = mah.kv.get("hourly-runs") or 0 }) end)
end`;

const TICKER = `plugin = { name = "ticker", api_version = 1, capabilities = { "schedule", "kv" } }
function init()
  mah.schedule({ id = "often", every = "30s", handler = function(job_id) mah.kv.set("ran", true) end })
end`;

const BAD: Record<string, [string, string]> = {
  'bad-short': ['every = "10s"', 'below the 30s minimum'],
  'bad-days': ['every = "366d"', 'is not a duration'],
  'bad-long': ['every = "8761h"', 'above the'],
  'bad-number': ['every = 60', 'every must be a duration string'],
  'bad-overlap': ['every = "1h", overlap = "queue"', 'must be "skip" or "allow"'],
  'bad-id': ['id = "bad id!", every = "1h"', 'must be 1-100 characters'],
  'bad-handler': ['every = "1h", handler = "x"', 'handler must be a function'],
};

const plugins: Record<string, string> = { 'sched-fixture': F6, ticker: TICKER };
for (const [name, [fields]] of Object.entries(BAD)) {
  const withId = fields.startsWith('id =') ? fields : `id = "s", ${fields}`;
  const withHandler = fields.includes('handler') ? withId : `${withId}, handler = function() end`;
  plugins[name] = `plugin = { name = "${name}", api_version = 1, capabilities = { "schedule" } }\nfunction init() mah.schedule({ ${withHandler} }) end`;
}
plugins['bad-twice'] = `plugin = { name = "bad-twice", api_version = 1, capabilities = { "schedule" } }
function init()
  mah.schedule({ id = "a", every = "1h", handler = function() end })
  mah.schedule({ id = "a", every = "1h", handler = function() end })
end`;

type Row = Record<string, unknown>;
let lib: PluginTestLibrary;
let enabledAt = 0;

beforeAll(async () => {
  lib = await startWithPlugins(plugins, ['-plugin-schedule-tick', '1s']);
  enabledAt = Date.now();
  expect((await lib.enable('sched-fixture')).status).toBe(200);
}, 60_000);
afterAll(async () => lib?.close());

const rows = async (name: string) => (await lib.json<Row[]>('GET', `/v1/plugin/schedules?name=${name}`)).body;
const row = async (id: string) => (await rows('sched-fixture')).find((r) => r.scheduleId === id)!;
const runNow = (scheduleId: string) => lib.form('/v1/plugin/schedule/run', [['name', 'sched-fixture'], ['scheduleId', scheduleId]], { accept: 'application/json' });

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('schedule rows and runs', () => {
  it('T-106 records one row per declared schedule on enable', async () => {
    const list = await rows('sched-fixture');
    expect(list.map((r) => r.scheduleId)).toEqual(['flaky', 'hourly', 'slow']);
    expect(list[0]).toMatchObject({ overlap: 'allow', pluginName: 'sched-fixture' });
    for (const r of list) {
      expect(r).toMatchObject({ everySeconds: 3600, runs: 0, lastStatus: '', lastError: '', owned: true, registered: true });
      expect(r).not.toHaveProperty('lastRunAt');
      expect(Math.abs(Date.parse(r.nextDueAt as string) - (enabledAt + 3_600_000))).toBeLessThan(60_000);
    }
    expect((await lib.json('GET', '/v1/plugin/schedules')).status).toBe(400);
    expect(await rows('ghost')).toEqual([]);
  });

  it('T-107 runs a schedule now without moving its due time', async () => {
    const before = await row('hourly');
    const res = await lib.fetch('/v1/jobs/events');
    const sse = new SseReader(res);
    const r = await runNow('hourly');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, name: 'sched-fixture', scheduleId: 'hourly', started: true });
    const after = await eventually(() => row('hourly'), (x) => x.runs === 1);
    expect(after).toMatchObject({ runs: 1, lastStatus: 'completed', nextDueAt: before.nextDueAt });
    expect(after.lastRunAt).toEqual(expect.any(String));
    expect((await lib.json('GET', '/v1/plugins/sched-fixture/runs')).body).toEqual({ hourly: 1 });
    const isRun = (e: { event: string; data: unknown }, name: string) => {
      const job = (e.data as { job?: Row }).job;
      return e.event === name && job?.actionId === 'schedule:hourly' && job.label === 'sched-fixture: hourly' && job.entityType === 'custom';
    };
    await sse.until((events) => events.some((e) => isRun(e, 'action_added')) && events.some((e) => isRun(e, 'action_updated')));
    await sse.close();
  });

  it('T-108 records a failed run', async () => {
    expect((await runNow('flaky')).status).toBe(200);
    const after = await eventually(() => row('flaky'), (x) => x.runs === 1);
    expect(after).toMatchObject({ lastStatus: 'failed', lastError: 'upstream unavailable', runs: 1 });
  });

  it('T-109 refuses unknown, missing, busy and undeclared schedules', async () => {
    expect((await runNow('nope')).status).toBe(404);
    const missing = await lib.form('/v1/plugin/schedule/run', [['name', 'sched-fixture']], { accept: 'application/json' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'missing schedule id' });
    expect((await runNow('slow')).status).toBe(200);
    expect((await runNow('slow')).status).toBe(409);
    await eventually(() => row('slow'), (x) => x.runs === 1);
    const runsBefore = (await row('hourly')).runs;
    expect((await lib.disable('sched-fixture')).status).toBe(200);
    const disabled = await rows('sched-fixture');
    expect(disabled).toHaveLength(3);
    for (const r of disabled) expect(r.registered).toBe(false);
    expect((await runNow('hourly')).status).toBe(409);
    expect((await lib.enable('sched-fixture')).status).toBe(200);
    expect(await row('hourly')).toMatchObject({ registered: true, runs: runsBefore });
  });

  it('T-111 fires due schedules on ticks and re-bases the due time', async () => {
    const enabled = Date.now();
    expect((await lib.enable('ticker')).status).toBe(200);
    const ran = await eventually(async () => (await rows('ticker'))[0], (r) => r.runs === 1, 45_000);
    expect(ran.runs).toBe(1);
    const runAt = Date.parse(ran.lastRunAt as string);
    expect(runAt - enabled).toBeGreaterThanOrEqual(29_000);
    expect(Math.abs(Date.parse(ran.nextDueAt as string) - (runAt + 30_000))).toBeLessThan(5_000);
  }, 60_000);
});

describe('registration', () => {
  it.each([...Object.entries(BAD), ['bad-twice', ['', 'is already registered']] as const])('T-110 %s fails the enable', async (name, [, text]) => {
    const r = await lib.enable(name);
    expect(r.status).toBe(400);
    expect(String(r.body.error)).toContain(text);
  });
});
