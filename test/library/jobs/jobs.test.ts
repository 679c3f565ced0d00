import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { slowBody, startStubServer, type StubServer } from '../../helpers/stub-server.js';
import { SseReader } from '../../helpers/sse.js';

type Job = { id: string; url: string; status: string; progress: number; totalSize: number; progressPercent: number; error?: string; resourceId?: number; source: string };
type HistoryRow = { id: number; jobId: string; url: string; name: string; status: string; error?: string; attempts: number; resourceId?: number; lastRetryJobId?: string };

let lib: TestLibrary;
let stub: StubServer;
const TERMINAL = ['completed', 'failed', 'cancelled'];

beforeAll(async () => {
  stub = await startStubServer();
  // The stub runs on loopback: allow exactly that address, so other private hosts stay refused.
  lib = await startTestLibrary(['-allow-private-fetch', '127.0.0.1', '-remote-idle-timeout', '1s']);
  stub.routes.set('/file.txt', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' }).end('hello'));
  stub.routes.set('/slow.bin', slowBody(Buffer.alloc(64 * 1024, 1), 64, 100));
  stub.routes.set('/unknown-length.bin', slowBody(Buffer.alloc(3000, 2), 3, 10, false));
  stub.routes.set('/stall', (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('x');
  });
  stub.routes.set('/to-metadata', (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end());
});
afterAll(async () => {
  await lib?.close();
  await stub?.close();
});

async function submit(url: string, extra: Record<string, unknown> = {}) {
  const r = await lib.json<{ queued: boolean; jobs: Job[]; error?: string }>('POST', '/v1/jobs/download/submit', { URL: url, ...extra });
  return r;
}

async function settle(id: string, statuses = TERMINAL, timeoutMs = 10_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await lib.json<Job>('GET', `/v1/jobs/get?id=${id}`);
    if (statuses.includes(r.body.status)) return r.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${r.body.status}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('download queue', () => {
  it('queues one job per URL line and answers 202 with the snapshots', async () => {
    const r = await submit(`${stub.url}/file.txt\n\n  ${stub.url}/missing  \n`, { Name: 'greeting' });
    expect(r.status).toBe(202);
    expect(r.body.queued).toBe(true);
    expect(r.body.jobs.map((j) => [j.url, j.source])).toEqual([
      [`${stub.url}/file.txt`, 'download'],
      [`${stub.url}/missing`, 'download'],
    ]);
    const [ok, missing] = await Promise.all(r.body.jobs.map((j) => settle(j.id)));
    expect(ok).toMatchObject({ status: 'completed', progress: 5, totalSize: 5, progressPercent: 100 });
    expect(ok.resourceId).toBeGreaterThan(0);
    expect(missing).toMatchObject({ status: 'failed', error: 'HTTP 404: Not Found' });
    expect(ok.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses an empty URL and a URL list without one valid URL', async () => {
    expect((await submit('')).status).toBe(400);
    expect((await submit('not a url\nftp://x/y')).status).toBe(400);
    expect((await lib.json('POST', '/v1/jobs/download/submit', {})).status).toBe(400);
  });

  it('refuses private addresses, also behind a redirect, without naming the address', async () => {
    const direct = await settle((await submit('http://10.1.2.3/secret')).body.jobs[0].id);
    expect(direct.status).toBe('failed');
    expect(direct.error).toContain('blocked request');
    expect(direct.error).not.toContain('10.1.2.3');
    const hop = await settle((await submit(`${stub.url}/to-metadata`)).body.jobs[0].id);
    expect(hop.error).toContain('blocked request');
    const logs = await lib.json<{ logs: { level: string; details: { url: string } }[] }>('GET', '/v1/logs?Level=warning&EntityType=download');
    expect(logs.body.logs.some((l) => l.details.url === 'http://10.1.2.3/secret')).toBe(true);
  });

  it('fails a stalled download on the idle timeout and reports unknown sizes as -1', async () => {
    const stalled = await settle((await submit(`${stub.url}/stall`)).body.jobs[0].id);
    expect(stalled).toMatchObject({ status: 'failed' });
    expect(stalled.error).toContain('timed out');
    const unknown = await submit(`${stub.url}/unknown-length.bin`);
    const running = unknown.body.jobs[0];
    expect(running.totalSize).toBe(-1);
    expect(running.progressPercent).toBe(-1);
    expect((await settle(running.id)).status).toBe('completed');
  });

  it('caps the size at the runtime max_upload_size setting', async () => {
    expect((await lib.json('PUT', '/v1/admin/settings/max_upload_size', { value: '2K', reason: 'test' })).status).toBe(200);
    const big = await settle((await submit(`${stub.url}/slow.bin`)).body.jobs[0].id);
    expect(big.status).toBe('failed');
    expect(big.error).toContain('larger than the limit');
    await lib.json('DELETE', '/v1/admin/settings/max_upload_size');
  });

  it('cancels, pauses, resumes and retries by the state table', async () => {
    const job = (await submit(`${stub.url}/slow.bin`)).body.jobs[0];
    await settle(job.id, ['downloading']);
    expect((await lib.json('POST', `/v1/jobs/pause?id=${job.id}`)).body).toEqual({ status: 'paused' });
    expect((await lib.json<Job>('GET', `/v1/jobs/get?id=${job.id}`)).body.status).toBe('paused');
    expect((await lib.json('POST', `/v1/jobs/pause?id=${job.id}`)).status).toBe(409);
    expect((await lib.json('POST', `/v1/jobs/resume?id=${job.id}`)).body).toEqual({ status: 'resumed' });
    await settle(job.id, ['downloading']);
    expect((await lib.json('POST', `/v1/download/cancel?id=${job.id}`)).body).toEqual({ status: 'cancelled' });
    const cancelled = await settle(job.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', error: 'Download cancelled' });
    expect((await lib.json('POST', `/v1/jobs/cancel?id=${job.id}`)).status).toBe(409);
    expect((await lib.json('POST', `/v1/jobs/resume?id=${job.id}`)).status).toBe(409);
    expect((await lib.json('POST', `/v1/jobs/retry?id=${job.id}`)).body).toEqual({ status: 'retrying' });
    expect((await settle(job.id)).status).toBe('completed');
    expect((await lib.json('POST', `/v1/jobs/retry?id=${job.id}`)).status).toBe(409);
    for (const action of ['cancel', 'pause', 'resume', 'retry']) {
      expect((await lib.json('POST', `/v1/jobs/${action}?id=0000000000000000`)).status, action).toBe(404);
    }
    expect((await lib.json('GET', '/v1/jobs/get?id=nope')).status).toBe(404);
  });

  it('lists the queue under both paths and clears finished jobs', async () => {
    const queue = await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue');
    const alias = await lib.json<{ jobs: Job[] }>('GET', '/v1/download/queue');
    expect(alias.body.jobs.map((j) => j.id)).toEqual(queue.body.jobs.map((j) => j.id));
    const finished = queue.body.jobs.filter((j) => TERMINAL.includes(j.status)).map((j) => j.id);
    const cleared = await lib.json<{ cleared: number; ids: string[] }>('POST', '/v1/jobs/clearCompleted');
    expect(cleared.body.cleared).toBe(finished.length);
    expect(cleared.body.ids.sort()).toEqual(finished.sort());
    expect((await lib.json<{ jobs: Job[] }>('GET', '/v1/jobs/queue')).body.jobs.filter((j) => TERMINAL.includes(j.status))).toEqual([]);
  });

  it('streams the named events of a whole download', async () => {
    const res = await lib.fetch('/v1/jobs/events');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const sse = new SseReader(res);
    await sse.until((e) => e.some((x) => x.event === 'init'));
    expect(sse.events[0]).toMatchObject({ event: 'init', data: { actionJobs: [] } });
    const job = (await submit(`${stub.url}/slow.bin`)).body.jobs[0];
    // The same bytes were stored by an earlier test, so this one ends as a duplicate: what
    // matters here is the sequence of events, not the outcome.
    await sse.until((e) => e.some((x) => x.event === 'updated' && (x.data as { job: Job }).job.id === job.id && TERMINAL.includes((x.data as { job: Job }).job.status)), 15_000);
    const mine = sse.events.filter((e) => (e.data as { job?: Job }).job?.id === job.id);
    expect(mine[0]).toMatchObject({ event: 'added', data: { type: 'added', job: { status: 'pending' } } });
    const statuses = mine.map((e) => (e.data as { job: Job }).job.status);
    expect(statuses).toContain('downloading');
    expect(statuses).toContain('processing');
    // 64 chunks over ~6 s are throttled to a handful of progress events.
    expect(mine.length).toBeLessThan(30);
    await lib.json('POST', '/v1/jobs/clearCompleted');
    await sse.until((e) => e.some((x) => x.event === 'removed' && (x.data as { job: Job }).job.id === job.id));
    const subscribed = lib.lib.jobs.subscriberCount;
    expect(subscribed).toBeGreaterThan(0);
    await sse.close();
    // A client that goes away leaves no subscription behind.
    for (let i = 0; i < 100 && lib.lib.jobs.subscriberCount >= subscribed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(lib.lib.jobs.subscriberCount).toBe(subscribed - 1);
  }, 20_000);

  it('answers 503 when a hundred jobs are active', async () => {
    stub.routes.set('/hold', (_req, res) => res.writeHead(200, { 'content-length': '10' }).write('x'));
    const urls = Array.from({ length: 100 }, (_, i) => `${stub.url}/hold?${i}`).join('\n');
    const full = await submit(urls);
    expect(full.status).toBe(202);
    const refused = await submit(`${stub.url}/file.txt`);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toContain('queue is full');
    for (const j of full.body.jobs) await lib.json('POST', `/v1/jobs/cancel?id=${j.id}`);
    await lib.json('POST', '/v1/jobs/clearCompleted');
    expect((await submit(`${stub.url}/file.txt`)).status).toBe(202);
  }, 20_000);
});

describe('download history', () => {
  let rows: HistoryRow[];
  beforeAll(async () => {
    // Let the bookkeeping of the jobs above land.
    await new Promise((r) => setTimeout(r, 200));
    rows = [];
    for (let page = 1; ; page++) {
      const r = await lib.json<{ downloads: HistoryRow[] }>('GET', `/v1/downloads?page=${page}`);
      rows.push(...r.body.downloads);
      if (r.body.downloads.length < 50) break;
    }
  });

  it('keeps one row per finished download with the list envelope', async () => {
    const r = await lib.json<{ downloads: HistoryRow[]; count: number; page: number; pageSize: number }>('GET', '/v1/downloads');
    expect(r.body).toMatchObject({ page: 1, pageSize: 50 });
    expect(r.body.count).toBe(rows.length);
    expect(r.body.downloads).toHaveLength(50);
    const greeting = rows.find((x) => x.name === 'greeting' && x.url.endsWith('/file.txt'))!;
    expect(greeting).toMatchObject({ status: 'completed', url: `${stub.url}/file.txt`, attempts: 1 });
    expect(greeting.resourceId).toBeGreaterThan(0);
    expect(Object.keys(greeting)).not.toContain('payload');
  });

  it('filters by status, URL text, reason, error text and finish time', async () => {
    const ids = async (q: string) => (await lib.json<{ downloads: HistoryRow[] }>('GET', `/v1/downloads?${q}`)).body.downloads;
    const count = async (q: string) => (await lib.json<{ count: number }>('GET', `/v1/downloads?${q}`)).body.count;
    expect((await ids('Status=failed')).every((x) => x.status === 'failed')).toBe(true);
    expect((await ids('Status=failed&Status=completed')).some((x) => x.status === 'completed')).toBe(true);
    expect((await ids('URL=to-metadata')).map((x) => x.url)).toEqual([`${stub.url}/to-metadata`]);
    expect((await ids('Reason=http')).map((x) => x.error)).toEqual(['HTTP 404: Not Found']);
    expect((await ids('Reason=blocked')).length).toBe(2);
    expect((await ids('Reason=timeout')).every((x) => x.error?.includes('timed out'))).toBe(true);
    expect((await ids('Reason=limit')).length).toBe(1);
    expect(await count('Reason=cancelled')).toBe(100);
    expect((await ids('Reason=other')).every((x) => x.status !== 'completed')).toBe(true);
    expect((await ids('Error=NOT%20FOUND')).length).toBe(1);
    expect((await ids('Reason=http&Error=timeout')).length).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await count(`CompletedAfter=${today}`)).toBe(rows.length);
    expect(await count(`CompletedBefore=${today}`)).toBe(0);
    expect(await count('Status=cancelled')).toBe(rows.filter((x) => x.status === 'cancelled').length);
    expect((await ids('Retried=yes')).length).toBe(0);
    expect((await lib.json('GET', '/v1/downloads?Reason=weather')).status).toBe(400);
    expect((await lib.json('GET', '/v1/downloads?CompletedAfter=soon')).status).toBe(400);
    expect((await lib.json('GET', '/v1/downloads?SortBy=completed_at%20desc')).status).toBe(200);
  });

  it('retries failed rows with per-id outcomes, refusing completed ones with 409', async () => {
    const failed = rows.find((x) => x.error === 'HTTP 404: Not Found')!;
    const completed = rows.find((x) => x.status === 'completed')!;
    stub.routes.set('/missing', (_req, res) => res.writeHead(200, { 'content-length': '2' }).end('ok'));
    const r = await lib.json<{ retried: number; results: { id: number; ok: boolean; jobId?: string; reason?: string }[] }>('POST', '/v1/downloads/retry', { ids: [failed.id, completed.id] });
    expect(r.status).toBe(200);
    expect(r.body.retried).toBe(1);
    expect(r.body.results[1]).toEqual({ id: completed.id, ok: false, reason: 'a completed download cannot be retried' });
    const jobId = r.body.results[0].jobId!;
    expect((await settle(jobId)).status).toBe('completed');
    await new Promise((res) => setTimeout(res, 100));
    const after = (await lib.json<{ downloads: HistoryRow[] }>('GET', '/v1/downloads?Retried=yes')).body.downloads;
    expect(after.map((x) => x.id)).toEqual([failed.id]);
    expect(after[0].lastRetryJobId).toBe(jobId);
    const only = await lib.json<{ error: string }>('POST', '/v1/downloads/retry', { ids: [completed.id] });
    expect(only.status).toBe(409);
    expect(only.body.error).toBe('a completed download cannot be retried');
  });

  it('deletes rows with their finished queue entries, 409 when none could be deleted', async () => {
    const row = rows.find((x) => x.url.endsWith('/to-metadata'))!;
    const r = await lib.json<{ deleted: number }>('POST', '/v1/downloads/delete', { ids: [row.id] });
    expect(r.body.deleted).toBe(1);
    expect((await lib.json('POST', '/v1/downloads/delete', { ids: [row.id] })).status).toBe(409);
    expect((await lib.json('GET', `/v1/jobs/get?id=${row.jobId}`)).status).toBe(404);
  });
});

describe('download and admin pages', () => {
  it('renders the downloads page with the history, and its JSON', async () => {
    const html = await (await lib.fetch('/downloads?Status=failed')).text();
    expect(html).toContain('data-testid="download-history"');
    expect(html).toContain('x-data="jobQueue"');
    const json = await lib.json<{ downloads: HistoryRow[]; pagination: { total: number } }>('GET', '/downloads.json?Status=failed');
    expect(json.body.downloads.every((d) => d.status === 'failed')).toBe(true);
    expect(json.body.pagination.total).toBe(json.body.downloads.length);
    expect((await lib.fetch('/downloads?Reason=weather')).status).toBe(400);
  });

  it('submits from the page form and returns to it', async () => {
    const res = await lib.form('/v1/jobs/download/submit', [['URL', `${stub.url}/file.txt`], ['_form', '/downloads']], { accept: 'text/html' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/downloads');
    const empty = await lib.form('/v1/jobs/download/submit', [['URL', ''], ['_form', '/downloads']], { accept: 'text/html' });
    expect(empty.status).toBe(302);
    expect(empty.headers.get('location')).toContain('error=URL');
  });

  it('renders the admin overview and settings pages', async () => {
    expect(await (await lib.fetch('/admin/overview')).text()).toContain('data-testid="server-stats"');
    const settings = await (await lib.fetch('/admin/settings')).text();
    expect(settings).toContain('remote_connect_timeout');
    const json = await lib.json<{ settings: { key: string }[] }>('GET', '/admin/settings.json');
    expect(json.body.settings).toHaveLength(18);
  });
});
