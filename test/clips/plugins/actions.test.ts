// Companion §15.15: UI actions (T163–T167), the Lua API results of T209, T210, T213 and T217,
// and a handler that never returns (T168, with a short handler limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';
import { actionPlugin, freshUpload, HELLO, install, settled, storage } from './helper.js';

let t: TestClips;
let F: FixtureF;

beforeAll(async () => {
  t = await startTestClips(['--plugin-handler-timeout-ms', '1500']);
  F = await fixtureF(t);
  await install(t, 'hello.lua', HELLO);
});
afterAll(async () => {
  await t.close();
});

/** Installs an action plugin and runs its action; returns the plugin id and the response. */
async function runAction(name: string, body: string, extra = '') {
  const p = await install(t, `${name}.lua`, actionPlugin(name, body, extra));
  const r = await t.req<Record<string, unknown>>(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
  return { id: p.id, r };
}

describe('UI actions (T163–T167)', () => {
  it('lists the actions of loaded plugins (T163)', async () => {
    const r = await t.req(F.KV, 'GET', '/plugins/actions');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      lightbox_buttons: [],
      card_actions: [{ plugin_id: 1, plugin_name: 'Hello', id: 'upper', label: 'Uppercase', options: [{ id: 'suffix', type: 'text', label: 'Suffix' }], file_types: ['text/*'] }],
    });
    const cards = (r.body as { card_actions: unknown[] }).card_actions;
    expect(cards[0]).toEqual({ plugin_id: 1, plugin_name: 'Hello', id: 'upper', label: 'Uppercase', options: [{ id: 'suffix', type: 'text', label: 'Suffix' }], file_types: ['text/*'] });
  });

  it('runs a synchronous action and answers its result (T164)', async () => {
    const r = await t.req<{ success: boolean; result_clip_id: number }>(F.KE, 'POST', '/plugins/1/actions/upper', { clip_ids: [1], options: { suffix: '!' } });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(Object.keys(r.body).sort()).toEqual(['result_clip_id', 'success']);
    expect((await t.raw(F.KE, 'GET', `/clips/${r.body.result_clip_id}/data`)).text).toBe('HELLO WORLD!');
  });

  it('refuses unknown actions and plugins, viewers, clips outside the scope, disabled plugins (T165)', async () => {
    expect((await t.req(F.KE, 'POST', '/plugins/1/actions/nope', { clip_ids: [1] })).body).toEqual({ error: 'unknown action ID: nope' });
    expect((await t.req(F.KE, 'POST', '/plugins/999/actions/upper', { clip_ids: [1] })).status).toBe(404);
    expect((await t.req(F.KV, 'POST', '/plugins/1/actions/upper', { clip_ids: [1] })).status).toBe(403);
    expect((await t.req(F.KSE, 'POST', '/plugins/1/actions/upper', { clip_ids: [2] })).status).toBe(403);
    expect((await t.req(F.KE, 'POST', '/plugins/1/actions/upper', { clip_ids: [999] })).status).toBe(400);
    expect((await t.req(F.KE, 'POST', '/plugins/1/actions/upper', { clip_ids: 'x' })).status).toBe(400);
    expect((await t.req(F.KA, 'PUT', '/plugins/1/disable')).status).toBe(204);
    const disabled = await t.req(F.KE, 'POST', '/plugins/1/actions/upper', { clip_ids: [1] });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toEqual({ error: 'plugin is disabled' });
    expect((await t.req(F.KA, 'PUT', '/plugins/1/enable')).status).toBe(204);
  });

  it('validates options: required, select choices, range bounds, defaults', async () => {
    const src = `Plugin = { name = "Opts", version = "1.0.0",
  ui = { global_actions = { {id = "go", label = "Go", options = {
    {id = "who", type = "text", label = "Who", required = true},
    {id = "mode", type = "select", label = "Mode", choices = {{value = "a", label = "A"}, {value = "b", label = "B"}}, default = "a"},
    {id = "n", type = "range", label = "N", min = 1, max = 10},
    {id = "broken", type = "select", label = "No choices"} } } } } }
function on_ui_action(id, clip_ids, options) return { success = true, error = options.who .. ":" .. options.mode .. ":" .. tostring(#clip_ids) } end`;
    const p = await install(t, 'opts.lua', src);
    const go = (options: unknown) => t.req<Record<string, unknown>>(F.KE, 'POST', `/plugins/${p.id}/actions/go`, { options });
    expect((await go({})).body).toEqual({ error: 'missing required option: who' });
    expect((await go({ who: 'x', mode: 'c' })).status).toBe(400);
    expect((await go({ who: 'x', n: 11 })).status).toBe(400);
    expect((await go({ who: 'x', n: 'five' })).status).toBe(400);
    expect((await go({ who: 'x', n: 5 })).body).toEqual({ success: true, error: 'x:a:0' });
    const actions = (await t.req<{ global_actions: { id: string; options: { id: string }[] }[] }>(F.KV, 'GET', '/plugins/actions')).body;
    expect(actions.global_actions.find((a) => a.id === 'go')!.options.map((o) => o.id)).toEqual(['who', 'mode', 'n']);
  });

  it('reports a failing action in the body and keeps the plugin loaded (T166)', async () => {
    const { id, r } = await runAction('Bad', '  error("bad")');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.error).toMatch(/bad/);
    const plugins = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins;
    expect(plugins.find((x) => x.id === id)!.status).toBe('loaded');
  });

  it('answers an asynchronous action at once and runs it in the background (T167)', async () => {
    const src = `Plugin = { name = "Slow", version = "1.0.0", ui = { global_actions = { {id = "run", label = "Run", async = true} } } }
function on_ui_action()
  local n = 0
  for i = 1, 3e7 do n = n + 1 end
  storage.set("done", tostring(n))
end`;
    const p = await install(t, 'slow.lua', src);
    const r = await t.req(F.KE, 'POST', `/plugins/${p.id}/actions/run`, {});
    expect(r.body).toEqual({ success: true });
    // The answer came before the loop finished.
    expect((await storage(t, p.id)).done).toBeUndefined();
  });
});

describe('Lua API results (T209, T210, T213, T217)', () => {
  it('clips.create decodes, aliases and detects like the reference (T209)', async () => {
    const body = `
  local out = {}
  local function try(opts) local r, e = clips.create(opts); out[#out + 1] = r and tostring(r.id) or ("ERR " .. tostring(e)) end
  try({data = "aGk=", mime_type = "image/png", name = "a.png"})
  try({data = "x", content_type = "text/plain", mime_type = "image/png", filename = "f.txt", name = "g.txt"})
  try({data = '{"a":1}', content_type = "application/json"})
  try({data = "aGk=", content_type = "text/plain", data_encoding = "base64"})
  try({data = "aGVsbG8="})
  try({data = "not base64!", content_type = "application/pdf"})
  try({})
  storage.set("out", table.concat(out, "|"))
  return { success = true }`;
    const { id } = await runAction('Creator', body);
    const out = (await storage(t, id)).out.split('|');
    const clip = async (i: number) => {
      const meta = (await t.req<{ filename: string; content_type: string }>(F.KE, 'GET', `/clips/${out[i]}`)).body;
      const data = (await t.raw(F.KE, 'GET', `/clips/${out[i]}/data`)).text;
      return { filename: meta.filename, type: meta.content_type, data };
    };
    expect(await clip(0)).toEqual({ filename: 'a.png', type: 'image/png', data: 'hi' });
    expect(await clip(1)).toEqual({ filename: 'f.txt', type: 'text/plain', data: 'x' });
    expect((await clip(2)).data).toBe('{"a":1}');
    expect((await clip(3)).data).toBe('hi');
    expect((await clip(4)).data).toBe('hello');
    expect(out[5]).toMatch(/^ERR invalid base64 data/);
    expect(out[6]).toBe('ERR data is required');
  });

  it('tasks have integer ids, progress, completion and failure (T210)', async () => {
    const body = `
  local res = {}
  local function keep(a, b) res[#res + 1] = tostring(a) .. " " .. tostring(b) end
  local t = task.start("Job", 4)
  keep(task.progress(t, 2))
  keep(task.complete(t))
  local u = task.start("Other")
  keep(task.fail(u))
  keep(task.progress(999999, 1))
  storage.set("type", math.type(t))
  storage.set("distinct", tostring(u ~= t))
  storage.set("res", table.concat(res, "|"))
  return { success = true }`;
    const { id } = await runAction('Tasks', body);
    const s = await storage(t, id);
    expect(s.type).toBe('integer');
    expect(s.distinct).toBe('true');
    expect(s.res.split('|')).toEqual(['true nil', 'true nil', 'true nil', 'false task not found']);
    const tasks = t.svc.services.pluginHost.activity.list().filter((x) => x.plugin_id === id);
    expect(tasks.map((x) => [x.name, x.status, x.current, x.message])).toEqual([
      ['Job', 'completed', 4, undefined],
      ['Other', 'failed', 0, 'Unknown error'],
    ]);
  });

  it('"nothing found" is exactly one nil; clips.get_data names the failure (T213)', async () => {
    const body = `
  storage.set("a", tostring(storage.get("nope")))
  storage.set("b", tostring(select("#", storage.get("nope"))))
  storage.set("c", tostring(clips.get(999)))
  storage.set("d", tostring(select("#", clips.get(999))))
  storage.set("e", tostring(tags.get(999)))
  storage.set("f", tostring(select("#", clips.get_data(999))))
  local _, why = clips.get_data(999)
  storage.set("g", why)
  return { success = true }`;
    const { id } = await runAction('Nils', body);
    expect(await storage(t, id)).toEqual({ a: 'nil', b: '1', c: 'nil', d: '1', e: 'nil', f: '2', g: 'clip not found' });
  });

  it('tags functions answer true or false with a reason (T217)', async () => {
    const body = `
  local res = {}
  local function keep(a, b) res[#res + 1] = tostring(a) .. " " .. tostring(b) end
  local t = tags.create("lua-t")
  keep(tags.update(t.id, {name = "lua-u"}))
  keep(tags.update(999, {name = "x"}))
  keep(tags.update(t.id, {name = ""}))
  keep(tags.add_to_clip(t.id, 1))
  keep(tags.add_to_clip(t.id, 1))
  keep(tags.add_to_clip(999, 1))
  keep(tags.add_to_clip(t.id, 999))
  keep(tags.remove_from_clip(t.id, 1))
  keep(tags.remove_from_clip(t.id, 1))
  keep(tags.delete(t.id))
  keep(tags.delete(t.id))
  storage.set("res", table.concat(res, "|"))
  return { success = true }`;
    const { id } = await runAction('Tagger', body);
    expect((await storage(t, id)).res.split('|')).toEqual([
      'true nil',
      'false tag not found',
      'false tag name cannot be empty',
      'true nil',
      'true nil',
      'false tag not found',
      'false clip not found',
      'true nil',
      'true nil',
      'true nil',
      'true nil',
    ]);
    const names = (await t.req<{ name: string }[]>(F.KA, 'GET', '/tags')).body.map((x) => x.name);
    expect(names).not.toContain('lua-u');
    expect(names).not.toContain('lua-t');
  });

  it('a modal shown during a synchronous action comes back in the response', async () => {
    const { r } = await runAction('Modal', '  modal.show({title = "Hi", content = "**there**"})\n  return { success = true }');
    expect(r.body).toEqual({ success: true, modal: { title: 'Hi', content: '**there**', format: 'markdown' } });
  });
});

describe('handler limits (T168)', () => {
  it('an event handler that never returns neither delays the upload nor disables the plugin at once', async () => {
    const src = `Plugin = { name = "Loop", version = "1.0.0", events = {"clip:created"} }
function on_clip_created(d) while true do end end`;
    const p = await install(t, 'loop.lua', src);
    const r = await freshUpload(t, F.KE);
    expect(r.status).toBe(201);
    await settled(t);
    const plugins = (await t.req<{ plugins: { id: number; status: string }[] }>(F.KV, 'GET', '/plugins')).body.plugins;
    expect(plugins.find((x) => x.id === p.id)!.status).toBe('loaded');
    await t.req(F.KA, 'DELETE', `/plugins/${p.id}`);
  });
});
