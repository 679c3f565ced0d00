// library-plugins.md §22 block types: listing with filters (T-117), creating with defaults and
// schemas (T-118), rendering with the plugin's escaping (T-119), render errors and a disabled
// plugin (T-120), and plugin blocks shown on the note page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { RENDER_FIXTURE } from './render-fixture.js';

type Block = { id: number; type: string; content: Record<string, unknown>; state: Record<string, unknown> };

let lib: PluginTestLibrary;
let noteId: number;

beforeAll(async () => {
  lib = await startWithPlugins({
    'render-fixture': RENDER_FIXTURE,
    'bad-schema': `plugin = { name = "bad-schema", api_version = 1, capabilities = { "render" } }
function init()
  mah.block_type({ type = "x", label = "X", content_schema = { type = 12 }, render_view = function() return "" end, render_edit = function() return "" end })
end`,
    'bad-filter': `plugin = { name = "bad-filter", api_version = 1, capabilities = { "render" } }
function init()
  mah.block_type({ type = "x", label = "X", filters = { note_type_ids = { 0 } }, render_view = function() return "" end, render_edit = function() return "" end })
end`,
  });
  expect((await lib.enable('render-fixture')).status).toBe(200);
  noteId = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Block host' })).body.ID;
}, 120_000);
afterAll(async () => lib?.close());

const create = (body: Record<string, unknown>) => lib.json<Block & { error?: string }>('POST', '/v1/note/block', body);
const render = async (query: string, plugin = 'render-fixture') => {
  const r = await lib.fetch(`/v1/plugins/${plugin}/block/render?${query}`);
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
};

describe('block types', () => {
  it('T-117 listing, with filter results for a note', async () => {
    const all = (await lib.json<Record<string, unknown>[]>('GET', '/v1/note/block/types')).body;
    expect(all).toContainEqual({
      type: 'plugin:render-fixture:tally',
      label: 'Tally',
      icon: '🧮',
      description: 'Counts clicks',
      plugin: true,
      pluginName: 'render-fixture',
      defaultContent: { title: 'Untitled tally' },
      defaultState: { n: 0 },
      filters: {},
    });
    expect(all.find((t) => t.type === 'plugin:render-fixture:fenced')).toMatchObject({ filters: { category_ids: [987654] }, icon: '', description: '', defaultContent: null });
    expect(all.some((t) => 'allowed' in t)).toBe(false);
    const forNote = (await lib.json<Record<string, unknown>[]>('GET', `/v1/note/block/types?noteId=${noteId}`)).body;
    expect(forNote.find((t) => t.type === 'plugin:render-fixture:tally')?.allowed).toBe(true);
    expect(forNote.find((t) => t.type === 'plugin:render-fixture:fenced')?.allowed).toBe(false);
    expect(forNote.filter((t) => !t.plugin).every((t) => !('allowed' in t))).toBe(true);
  });

  it('T-118 creating blocks: defaults, filters, the content schema', async () => {
    const r = await create({ noteId, type: 'plugin:render-fixture:tally' });
    expect(r.status).toBe(201);
    expect(r.body.content).toEqual({ title: 'Untitled tally' });
    expect(r.body.state).toEqual({ n: 0 });
    const fenced = await create({ noteId, type: 'plugin:render-fixture:fenced' });
    expect(fenced.status).toBe(400);
    expect(fenced.body.error).toContain('not available for this note');
    expect((await create({ noteId, type: 'plugin:render-fixture:tally', content: {} })).status).toBe(400);
    const bad = await lib.json('PATCH', `/v1/note/block/state?id=${r.body.id}`, { state: { n: 'many' } });
    expect(bad.status).toBe(400);
  });

  it('T-119 rendering leaves escaping to the plugin, and follows state', async () => {
    const b = (await create({ noteId, type: 'plugin:render-fixture:tally', content: { title: '<script>alert(1)</script>' } })).body;
    const view = await render(`blockId=${b.id}&mode=view`);
    expect(view.status).toBe(200);
    expect(view.type).toContain('text/html');
    expect(view.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(view.text).toContain(' 0</div>');
    expect(view.text).not.toContain('<script>');
    expect((await lib.json('PATCH', `/v1/note/block/state?id=${b.id}`, { state: { n: 3 } })).status).toBe(200);
    expect((await render(`blockId=${b.id}&mode=view`)).text).toContain(' 3</div>');
    expect((await render(`blockId=${b.id}&mode=edit`)).text).toContain(`data-block="${b.id}"`);
    const page = await (await lib.fetch(`/note?id=${noteId}`)).text();
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</b> 3</div>');
  });

  it('T-120 render errors and a disabled plugin', async () => {
    const b = (await create({ noteId, type: 'plugin:render-fixture:tally', content: { title: 't' } })).body;
    expect(await render(`blockId=${b.id}&mode=preview`)).toMatchObject({ status: 400, text: "mode must be 'view' or 'edit'" });
    expect(await render('mode=view')).toMatchObject({ status: 400, text: 'blockId required' });
    expect(await render('blockId=999999&mode=view')).toMatchObject({ status: 404, text: 'block not found' });
    const text = (await create({ noteId, type: 'text' })).body;
    expect(await render(`blockId=${text.id}&mode=view`)).toMatchObject({ status: 400, text: 'block type does not belong to this plugin' });
    expect((await render(`blockId=${b.id}&mode=view`, 'other-plugin')).status).toBe(400);
    expect((await lib.disable('render-fixture')).status).toBe(200);
    try {
      expect((await render(`blockId=${b.id}&mode=view`)).status).toBe(500);
      expect(await (await lib.fetch(`/note?id=${noteId}`)).text()).toContain('This block needs the render-fixture plugin');
      const again = await create({ noteId, type: 'plugin:render-fixture:tally' });
      expect(again.status).toBe(400);
      expect(again.body.error).toContain('unknown block type');
      const list = (await lib.json<Record<string, unknown>[]>('GET', '/v1/note/block/types')).body;
      expect(list.some((t) => t.plugin)).toBe(false);
    } finally {
      expect((await lib.enable('render-fixture')).status).toBe(200);
    }
  });

  it('registration errors fail the enable', async () => {
    expect((await lib.enable('bad-schema')).body.error).toContain('not a valid JSON Schema');
    expect((await lib.enable('bad-filter')).body.error).toContain('filters.note_type_ids');
  });
});
