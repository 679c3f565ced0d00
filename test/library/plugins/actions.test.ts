// library-plugins.md §32.8 actions (T-073 … T-085) and §32.9 background jobs and reporters
// (T-086 … T-088): listing, sync and async runs, validation, limits, filters, action jobs on
// the event stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../helpers/resources.js';
import { SseReader } from '../../helpers/sse.js';
import { uploadResource } from '../../helpers/uploads.js';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const F4 = `plugin = { name = "act-fixture", version = "1.0" }

function init()
  mah.action({ id = "greet", label = "Greet", entity = "resource", placement = { "detail", "card" },
    params = { { name = "greeting", type = "text", label = "Greeting", required = true, default = "Hello" } },
    handler = function(ctx) return { success = true, message = ctx.params.greeting .. ", resource " .. ctx.entity_id } end })
  mah.action({ id = "picky", label = "Picky", entity = "resource", placement = { "detail", "card", "bulk" },
    params = { { name = "reject", type = "number", label = "Reject id" } },
    handler = function(ctx)
      if ctx.entity_id == ctx.params.reject then return { success = false, message = "rejected " .. ctx.entity_id } end
      return { success = true, message = "accepted " .. ctx.entity_id }
    end })
  mah.action({ id = "modes", label = "Modes", entity = "resource",
    params = {
      { name = "mode",  type = "select",  label = "Mode", options = { "now", "later" }, default = "now" },
      { name = "when",  type = "text",    label = "When", required = true, show_when = { mode = "later" } },
      { name = "fine",  type = "boolean", label = "Fine tune" },
      { name = "depth", type = "number",  label = "Depth", min = 1, max = 9, show_when = { fine = true } },
    },
    handler = function(ctx)
      local keys = {}
      for k, v in pairs(ctx.params) do keys[#keys + 1] = k .. "=" .. tostring(v) end
      table.sort(keys)
      return { success = true, message = table.concat(keys, ",") }
    end })
  mah.action({ id = "later", label = "Later", entity = "resource", async = true,
    params = { { name = "steps", type = "number", label = "Steps", default = 3 } },
    handler = function(ctx)
      mah.job_progress(ctx.job_id, 50, "half way")
      return { message = "finished", steps = ctx.params.steps }
    end })
  mah.action({ id = "fail-then-return", label = "Fail then return", entity = "resource", async = true,
    handler = function(ctx) mah.job_fail(ctx.job_id, "gave up"); return { message = "ignored" } end })
  mah.action({ id = "veto", label = "Veto", entity = "note", handler = function(ctx) mah.abort("not today") end })
  mah.action({ id = "crash", label = "Crash", entity = "note", handler = function(ctx) error("handler exploded") end })
  mah.action({ id = "small-batch", label = "Small batch", entity = "group", placement = { "bulk" }, bulk_max = 2,
    handler = function(ctx) return { success = true } end })
  mah.action({ id = "png-only", label = "PNG only", entity = "resource",
    filters = { content_types = { "image/png" } },
    handler = function(ctx) return { success = true, message = "png " .. ctx.entity_id } end })
  mah.action({ id = "pick", label = "Pick", entity = "resource",
    params = { { name = "others", type = "entity_ref", entity = "resource", label = "Others",
                 multi = true, min = 1, max = 2, required = true } },
    handler = function(ctx)
      return { success = true, message = "n=" .. #ctx.params.others .. " first=" .. math.type(ctx.params.others[1]) }
    end })
  mah.action({ id = "MixedCase", label = "Mixed", entity = "group", handler = function() return { success = true } end })
end`;

const JOBS = `plugin = { name = "jobber", api_version = 1, capabilities = { "jobs", "api" } }
function init()
  mah.api("POST", "go", function(ctx)
    ctx.json({ id = mah.start_job("Rebuild", function(job_id)
      mah.job_progress(job_id, 140, "over")
      mah.job_complete(job_id, { message = "rebuilt", count = 3 })
    end) })
  end)
  mah.api("POST", "poke", function(ctx)
    local r = mah.json.decode(ctx.body)
    local ok, err = pcall(mah.job_progress, r.id, 10, "x")
    ctx.json({ ok = ok, err = tostring(err) })
  end)
end`;

const OTHER = `plugin = { name = "other", api_version = 1, capabilities = { "jobs", "api" } }
function init()
  mah.api("POST", "go", function(ctx)
    ctx.json({ id = mah.start_job("Slow", function(job_id) mah.job_progress(job_id, 5, "mine") end) })
  end)
end`;

/** Registration errors (T-085): each init must fail the enable with the quoted text. */
const BAD: Record<string, [string, string]> = {
  'bad-dup': ['mah.action({ id = "x", label = "X", entity = "note", handler = h }) mah.action({ id = "X", label = "X", entity = "note", handler = h })', 'duplicate action id "x"'],
  'bad-entity': ['mah.action({ id = "x", label = "X", entity = "tag", handler = h })', "'entity' must be"],
  'bad-nohandler': ['mah.action({ id = "x", label = "X", entity = "note" })', "missing required field 'handler'"],
  'bad-filters': ['mah.action({ id = "x", label = "X", entity = "note", handler = h, filters = "png" })', "'filters' must be a table"],
  'bad-catids': ['mah.action({ id = "x", label = "X", entity = "group", handler = h, filters = { category_ids = { 1.5 } } })', 'category_ids'],
  'bad-undeclared': ['mah.action({ id = "x", label = "X", entity = "note", handler = h, params = { { name = "a", type = "text", label = "A", show_when = { zz = 1 } } } })', 'not a param of this action'],
  'bad-self': ['mah.action({ id = "x", label = "X", entity = "note", handler = h, params = { { name = "a", type = "text", label = "A", show_when = { a = "x" } } } })', 'may not reference the param itself'],
  'bad-info': [
    'mah.action({ id = "x", label = "X", entity = "note", handler = h, params = { { name = "i", type = "info", label = "I" }, { name = "a", type = "text", label = "A", show_when = { i = "x" } } } })',
    'info param',
  ],
  'bad-chain': [
    'mah.action({ id = "x", label = "X", entity = "note", handler = h, params = { { name = "a", type = "text", label = "A" }, { name = "b", type = "boolean", label = "B", show_when = { a = "x" } }, { name = "c", type = "text", label = "C", show_when = { b = true } } } })',
    'repeat that condition',
  ],
};

const plugins: Record<string, string> = { 'act-fixture': F4, jobber: JOBS, other: OTHER };
for (const [name, [body]] of Object.entries(BAD)) {
  plugins[name] = `plugin = { name = "${name}", api_version = 1, capabilities = { "actions" } }\nlocal function h() end\nfunction init() ${body} end`;
}

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  for (const p of ['act-fixture', 'jobber', 'other']) expect((await lib.enable(p)).status).toBe(200);
}, 60_000);
afterAll(async () => lib?.close());

type Json = Record<string, unknown>;
const run = (body: unknown) => lib.json<Json>('POST', '/v1/jobs/action/run', body);
const actions = async (query: string) => (await lib.json<Json[]>('GET', `/v1/plugin/actions${query}`)).body;
const ids = (list: Json[]) => list.map((a) => a.id);

async function settled(id: string): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await lib.json<Json>('GET', `/v1/jobs/action/job?id=${id}`);
    if (r.body.status === 'completed' || r.body.status === 'failed') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('listing', () => {
  it('T-073 lists the actions of an entity with their descriptors', async () => {
    const res = await actions('?entity=resource');
    expect(res).toContainEqual({
      plugin_name: 'act-fixture',
      id: 'greet',
      label: 'Greet',
      entity: 'resource',
      placement: ['detail', 'card'],
      filters: {},
      async: false,
      params: [{ name: 'greeting', type: 'text', label: 'Greeting', required: true, default: 'Hello' }],
    });
    expect(res.find((a) => a.id === 'later')?.async).toBe(true);
    expect(res.find((a) => a.id === 'modes')?.placement).toEqual(['detail']);
    expect(res.find((a) => a.id === 'png-only')?.filters).toEqual({ content_types: ['image/png'] });
    const groups = await actions('?entity=group');
    expect(ids(groups)).toEqual(['small-batch', 'mixedcase']);
    expect(groups[0].bulk_max).toBe(2);
    expect(ids(await actions('?entity=note'))).toEqual(['veto', 'crash']);
    expect(await actions('?entity=tag')).toEqual([]);
    expect(await lib.json('GET', '/v1/plugin/actions')).toMatchObject({ status: 400, body: { error: 'entity query parameter is required' } });
  });

  it('T-074 applies filters only when a filter value is given', async () => {
    const text = ids(await actions('?entity=resource&content_type=text/plain'));
    expect(text).not.toContain('png-only');
    expect(text).toContain('greet');
    expect(ids(await actions('?entity=resource&content_type=image/png'))).toContain('png-only');
    expect(ids(await actions('?entity=resource'))).toContain('png-only');
  });
});

describe('sync runs', () => {
  it('T-075 runs a sync action without checking unfiltered ids', async () => {
    const r = await run({ plugin: 'act-fixture', action: 'greet', entity_ids: [99999], params: { greeting: 'Hi there' } });
    expect(r).toMatchObject({ status: 200, body: { success: true, message: 'Hi there, resource 99999' } });
  });

  it('T-076 validates the request', async () => {
    expect(await run({ plugin: 'act-fixture', action: 'greet', entity_ids: [1], params: {} })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'greeting', message: 'Greeting is required' }] },
    });
    expect(await run({ plugin: 'act-fixture', action: 'greet', entity_ids: [], params: {} })).toMatchObject({ status: 400, body: { error: 'entity_ids must contain at least one ID' } });
    expect(await run({ plugin: 'act-fixture', entity_ids: [1] })).toMatchObject({ status: 400, body: { error: 'plugin and action fields are required' } });
    const broken = await lib.fetch('/v1/jobs/action/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as Json).error).toMatch(/^invalid JSON body/);
    expect(await run({ plugin: 'nope', action: 'greet', entity_ids: [1] })).toMatchObject({ status: 404, body: { error: 'no plugin "nope" registered' } });
    expect(await run({ plugin: 'act-fixture', action: 'missing', entity_ids: [1] })).toMatchObject({ status: 404, body: { error: 'no action "missing" registered for plugin "act-fixture"' } });
    expect((await run({ plugin: 'act-fixture', action: 'GREET', entity_ids: [1], params: { greeting: 'x' } })).status).toBe(404);
  });

  it('T-077 answers bulk results in submission order', async () => {
    const r = await run({ plugin: 'act-fixture', action: 'picky', entity_ids: [11, 12, 13], params: { reject: 12 } });
    expect(r).toMatchObject({
      status: 200,
      body: { results: [{ success: true, message: 'accepted 11' }, { success: false, message: 'rejected 12' }, { success: true, message: 'accepted 13' }] },
    });
  });

  it('T-078 maps refusal, abort and crash', async () => {
    expect(await run({ plugin: 'act-fixture', action: 'picky', entity_ids: [4], params: { reject: 4 } })).toMatchObject({ status: 200, body: { success: false, message: 'rejected 4' } });
    const veto = await run({ plugin: 'act-fixture', action: 'veto', entity_ids: [5] });
    expect(veto).toMatchObject({ status: 200 });
    expect(veto.body).toEqual({ success: false, message: 'not today' });
    const crash = await run({ plugin: 'act-fixture', action: 'crash', entity_ids: [5] });
    expect(crash.status).toBe(500);
    expect(crash.body.error).toMatch(/^action failed for entity 5: action handler error:/);
    expect(crash.body.error).toContain('handler exploded');
    const bulk = await run({ plugin: 'act-fixture', action: 'crash', entity_ids: [5, 6] });
    expect(bulk.status).toBe(200);
    const results = bulk.body.results as Json[];
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.success).toBe(false);
      expect(r.message).toContain('handler exploded');
    }
  });

  it('T-081 enforces bulk_max and -max-action-entities', async () => {
    expect(await run({ plugin: 'act-fixture', action: 'small-batch', entity_ids: [1, 2, 3] })).toMatchObject({ status: 400, body: { error: 'action allows at most 2 entities per request, got 3' } });
    const many = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect(await run({ plugin: 'act-fixture', action: 'greet', entity_ids: many, params: { greeting: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'at most 1000 entities may be submitted in one action run, got 1001' },
    });
  });

  it('T-082 entity filters veto the whole batch', async () => {
    const p = await uploadResource(lib, 'pic.png', await png(16, 16, 3));
    const t = await uploadResource(lib, 'words.txt');
    expect(await run({ plugin: 'act-fixture', action: 'png-only', entity_ids: [p.ID] })).toMatchObject({ status: 200, body: { success: true, message: `png ${p.ID}` } });
    expect(await run({ plugin: 'act-fixture', action: 'png-only', entity_ids: [p.ID, t.ID] })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'entity_ids', message: `PNG only: resource ${t.ID} does not match this action's filters` }] },
    });
    const missing = await run({ plugin: 'act-fixture', action: 'png-only', entity_ids: [999999] });
    expect(missing).toMatchObject({ status: 400, body: { errors: [{ field: 'entity_ids', message: "PNG only: resource 999999 does not match this action's filters" }] } });
  });

  it('T-083 strips hidden params and checks the visible ones', async () => {
    const modes = (params: Json) => run({ plugin: 'act-fixture', action: 'modes', entity_ids: [1], params });
    expect((await modes({ mode: 'now', when: 'x' })).body).toEqual({ success: true, message: 'mode=now' });
    expect(await modes({ mode: 'later' })).toMatchObject({ status: 400, body: { errors: [{ field: 'when', message: 'When is required' }] } });
    expect((await modes({ mode: 'later', when: 'tomorrow' })).body).toEqual({ success: true, message: 'mode=later,when=tomorrow' });
    expect(await modes({ fine: 'yes' })).toMatchObject({ status: 400, body: { errors: [{ field: 'fine', message: 'Fine tune must be true or false' }] } });
    expect(await modes({ fine: true, depth: 12 })).toMatchObject({ status: 400, body: { errors: [{ field: 'depth', message: 'Depth must be at most 9' }] } });
    expect((await modes({ fine: false, depth: 12 })).body).toEqual({ success: true, message: 'fine=false' });
    expect((await modes({ fine: true, depth: 2.0 })).body).toEqual({ success: true, message: 'depth=2,fine=true' });
  });

  it('T-084 resolves entity_ref params', async () => {
    const [r1, r2, r3] = [await uploadResource(lib, 'r1.txt'), await uploadResource(lib, 'r2.txt'), await uploadResource(lib, 'r3.txt')];
    const pick = (others: unknown) => run({ plugin: 'act-fixture', action: 'pick', entity_ids: [r1.ID], params: { others } });
    expect(await pick([r1.ID, 999999])).toMatchObject({ status: 400, body: { errors: [{ field: 'others', message: 'Others: ID 999999 not found or does not match filter' }] } });
    expect(await pick([])).toMatchObject({ status: 400, body: { errors: [{ field: 'others', message: 'Others is required' }] } });
    expect(await pick([r1.ID, r2.ID, r3.ID])).toMatchObject({ status: 400, body: { errors: [{ field: 'others', message: 'Others: must have at most 2 entries' }] } });
    expect(await pick([1.5])).toMatchObject({ status: 400, body: { errors: [{ field: 'others', message: 'Others: each ID must be a positive integer' }] } });
    expect(await pick(5)).toMatchObject({ status: 400, body: { errors: [{ field: 'others', message: 'Others: expected array of IDs' }] } });
    expect(await pick([r1.ID])).toMatchObject({ status: 200, body: { success: true, message: 'n=1 first=integer' } });
  });
});

describe('async runs and jobs', () => {
  it('T-079 runs async actions as action jobs reported on the event stream', async () => {
    const res = await lib.fetch('/v1/jobs/events');
    const sse = new SseReader(res);
    await sse.until((e) => e.some((x) => x.event === 'init'));
    const single = await run({ plugin: 'act-fixture', action: 'later', entity_ids: [7], params: { steps: 3 } });
    expect(single.status).toBe(202);
    const jobId = single.body.job_id as string;
    expect(jobId).toMatch(/^[0-9a-f]{16}$/);
    expect(await settled(jobId)).toMatchObject({
      status: 'completed',
      progress: 100,
      message: 'finished',
      result: { message: 'finished', steps: 3 },
      source: 'plugin',
      pluginName: 'act-fixture',
      actionId: 'later',
      entityType: 'resource',
      entityId: 7,
    });
    const forJob = (name: string) => (e: { event: string; data: unknown }[]) => e.some((x) => x.event === name && (x.data as { job: Json }).job.id === jobId);
    await sse.until(forJob('action_added'));
    await sse.until((e) => e.some((x) => x.event === 'action_updated' && (x.data as { job: Json }).job.id === jobId && (x.data as { job: Json }).job.status === 'completed'));
    await sse.close();
    const bulk = await run({ plugin: 'act-fixture', action: 'later', entity_ids: [7, 8], params: { steps: 1 } });
    expect(bulk.status).toBe(202);
    const jobIds = bulk.body.job_ids as string[];
    expect(jobIds).toHaveLength(2);
    for (const id of jobIds) expect((await settled(id)).status).toBe('completed');
  });

  it('T-080 a job failed by a reporter stays failed', async () => {
    const r = await run({ plugin: 'act-fixture', action: 'fail-then-return', entity_ids: [7] });
    expect(await settled(r.body.job_id as string)).toMatchObject({ status: 'failed', message: 'gave up' });
  });

  it('T-086 mah.start_job runs a background job', async () => {
    const r = await lib.json<Json>('POST', '/v1/plugins/jobber/go', {});
    const id = r.body.id as string;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const job = await settled(id);
    expect(job).toMatchObject({ actionId: 'start_job', label: 'Rebuild', entityType: 'custom', entityId: 0, status: 'completed', progress: 100, message: 'rebuilt' });
    expect(job.result).toEqual({ count: 3, message: 'rebuilt' });
  });

  it('T-087 reporters only reach the calling plugin’s jobs', async () => {
    const theirs = (await lib.json<Json>('POST', '/v1/plugins/other/go', {})).body.id as string;
    const before = await settled(theirs);
    const poke = await lib.json<Json>('POST', '/v1/plugins/jobber/poke', { id: theirs });
    expect(poke.body.ok).toBe(false);
    expect(poke.body.err).toContain('unknown job_id');
    const zero = await lib.json<Json>('POST', '/v1/plugins/jobber/poke', { id: '0000000000000000' });
    expect(zero.body).toMatchObject({ ok: false });
    expect(zero.body.err).toContain('unknown job_id');
    expect((await lib.json('GET', `/v1/jobs/action/job?id=${theirs}`)).body).toEqual(before);
  });

  it('T-088 looks up and clears action jobs', async () => {
    expect(await lib.json('GET', '/v1/jobs/action/job?id=ffffffffffffffff')).toMatchObject({ status: 404, body: { error: 'action job "ffffffffffffffff" not found' } });
    expect((await lib.json('GET', '/v1/jobs/action/job')).status).toBe(400);
    const id = (await lib.json<Json>('POST', '/v1/plugins/jobber/go', {})).body.id as string;
    await settled(id);
    const cleared = await lib.json<{ ids: string[] }>('POST', '/v1/jobs/clearCompleted');
    expect(cleared.body.ids).toContain(id);
    expect((await lib.json('GET', `/v1/jobs/action/job?id=${id}`)).status).toBe(404);
  });

  it('T-067 (second half) an async action emits no job event hook', async () => {
    // Action jobs never enter the download queue: the queue listing stays free of them.
    const r = await run({ plugin: 'act-fixture', action: 'later', entity_ids: [9] });
    await settled(r.body.job_id as string);
    const queue = await lib.json<{ jobs: Json[] }>('GET', '/v1/jobs/queue');
    expect(queue.body.jobs.some((j) => j.id === r.body.job_id)).toBe(false);
  });
});

describe('action buttons on pages', () => {
  const page = async (path: string) => {
    const r = await lib.fetch(path);
    expect(r.status).toBe(200);
    return r.text();
  };
  const buttons = (html: string) => [...html.matchAll(/data-plugin-action="([^"]+)"/g)].map((m) => m[1]);

  it('detail pages offer the detail actions whose filters match the entity, with a form for parameters', async () => {
    const p = await uploadResource(lib, 'button.png', await png(12, 12, 9));
    const t = await uploadResource(lib, 'button.txt');
    const onPng = await page(`/resource?id=${p.ID}`);
    expect(buttons(onPng)).toEqual(['greet', 'picky', 'modes', 'later', 'fail-then-return', 'png-only', 'pick']);
    expect(onPng).toContain(`data-entity-ids="${p.ID}"`);
    expect(onPng).toContain('<script defer src="/public/plugin-actions.js"></script>');
    // Parameters are asked in a dialog: defaults filled in, select options, show_when carried along.
    expect(onPng).toMatch(/<dialog[^>]*id="plugin-action-detail-act-fixture-greet"/);
    expect(onPng).toMatch(/<input id="[^"]*" type="text" name="greeting" value="Hello" required/);
    expect(onPng).toContain('data-show-when="{&#34;mode&#34;:&#34;later&#34;}"');
    // entity_ref parameters pick with the search picker; nobody types an id.
    expect(onPng).toMatch(/data-param="others"[^>]*>\s*<div class="field picker" x-data="picker\(\{&#34;name&#34;:&#34;others&#34;,&#34;source&#34;:&#34;\/v1\/resources&#34;,&#34;multiple&#34;:true/);
    expect(onPng).toContain('data-ref-entity="resource" data-ref-default="trigger"');
    expect(buttons(await page(`/resource?id=${t.ID}`))).not.toContain('png-only');
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'button note' });
    expect(buttons(await page(`/note?id=${note.body.ID}`))).toEqual(['veto', 'crash']);
    const group = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'button group' });
    expect(buttons(await page(`/group?id=${group.body.ID}`))).toEqual(['mixedcase']);
  });

  it('list pages offer card actions on every card and bulk actions over the selection', async () => {
    const resources = await page('/resources');
    const card = /<template id="plugin-card-actions">([\s\S]*?)<\/template>/.exec(resources)?.[1] ?? '';
    expect(buttons(card)).toEqual(['greet', 'picky']);
    const bulk = /data-testid="plugin-bulk-actions"[^>]*>([\s\S]*?)<\/div>/.exec(resources)?.[1] ?? '';
    expect(buttons(bulk)).toEqual(['picky']);
    // The resource table offers the same, unfiltered like the cards (§17.3).
    const table = await page('/resources/details');
    expect(buttons(/<template id="plugin-card-actions"[^>]*>([\s\S]*?)<\/template>/.exec(table)?.[1] ?? '')).toEqual(['greet', 'picky']);
    expect(buttons(/data-testid="plugin-bulk-actions"[^>]*>([\s\S]*?)<\/div>/.exec(table)?.[1] ?? '')).toEqual(['picky']);
    expect(buttons(await page('/groups'))).toEqual(['small-batch']);
    // Notes have no bulk bar for plugins, and these note actions are detail-only.
    expect(await page('/notes')).not.toContain('plugin-list-actions');
  });
});

describe('registration', () => {
  it.each(Object.entries(BAD))('T-085 %s fails the enable', async (name, [, text]) => {
    const r = await lib.enable(name);
    expect(r.status).toBe(400);
    expect(String(r.body.error)).toContain(text);
  });
});
