// The example plugins in examples/plugins/ load unchanged and do what docs/plugins.md says.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestLibrary } from '../../helpers/library.js';
import { withHelpers, type PluginTestLibrary } from '../../helpers/plugins.js';

let lib: PluginTestLibrary;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-examples-'));
  cpSync(join(import.meta.dirname, '../../../examples/plugins'), dir, { recursive: true });
  const logs: string[] = [];
  lib = withHelpers(await startTestLibrary(['-plugin-path', dir], { log: (m) => logs.push(m) }), dir, logs);
  for (const name of ['reading-list', 'note-stats', 'progress-bar']) expect((await lib.enable(name)).status).toBe(200);
}, 60_000);
afterAll(async () => lib?.close());

it('reading-list: page form, JSON endpoint, hook and asset', async () => {
  const added = await lib.form('/plugins/reading-list/list', [['title', 'Dune']]);
  expect(await added.text()).toContain('Added Dune.');
  expect((await lib.json('POST', '/v1/plugins/reading-list/items', { title: 'Emma' })).status).toBe(201);
  expect(await lib.json('POST', '/v1/plugins/reading-list/items', {})).toMatchObject({ status: 422, body: { error: 'title is required' } });
  expect((await lib.json('POST', '/v1/note', { Name: 'Read: Ulysses' })).status).toBe(200);
  expect(await lib.json('POST', '/v1/note', { Name: 'Read:' })).toMatchObject({ status: 400, body: { error: 'plugin aborted: a reading note needs a title after "Read:"' } });
  const items = (await lib.json<{ items: { title: string }[] }>('GET', '/v1/plugins/reading-list/items')).body.items.map((i) => i.title);
  expect(items).toEqual(['Ulysses', 'Emma', 'Dune']);
  expect((await lib.fetch('/plugins/reading-list/public/reading-list.css')).status).toBe(200);
  expect(await (await lib.fetch('/resources')).text()).toContain('href="/plugins/reading-list/list"');
});

it('note-stats: a sync action on a note and a background action job', async () => {
  const note = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Draft', Description: 'one two three' })).body;
  const run = (action: string, params: Record<string, unknown> = {}) => lib.json<Record<string, unknown>>('POST', '/v1/jobs/action/run', { plugin: 'note-stats', action, entity_ids: [note.ID], params });
  expect(await run('word-count')).toMatchObject({ status: 200, body: { success: true, message: 'Draft: 3 words', data: { words: 3 } } });
  expect((await run('word-count', { include_name: true })).body).toMatchObject({ message: 'Draft: 4 words' });
  const listed = (await lib.json<{ id: string }[]>('GET', '/v1/plugin/actions?entity=note')).body.map((a) => a.id);
  expect(listed).toEqual(expect.arrayContaining(['word-count', 'word-total']));
  const started = await run('word-total');
  expect(started.status).toBe(202);
  let job: Record<string, unknown> = {};
  for (let i = 0; i < 100 && job.status !== 'completed' && job.status !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await lib.json<Record<string, unknown>>('GET', `/v1/jobs/action/job?id=${String(started.body.job_id)}`)).body;
  }
  expect(job).toMatchObject({ status: 'completed', message: 'Counted Draft', result: { message: 'Counted Draft', words: 3 } });
});

it('progress-bar: a block type with schemas, its render, and a documented shortcode', async () => {
  const note = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Reading plan' })).body.ID;
  const created = await lib.json<{ id: number; content: unknown; state: unknown }>('POST', '/v1/note/block', { noteId: note, type: 'plugin:progress-bar:progress', content: { label: 'Chapters <1-12>', total: 12 } });
  expect(created).toMatchObject({ status: 201, body: { content: { label: 'Chapters <1-12>', total: 12 }, state: { done: 0 } } });
  expect((await lib.json('POST', '/v1/note/block', { noteId: note, type: 'plugin:progress-bar:progress', content: { label: 'x', total: 0 } })).status).toBe(400);
  expect((await lib.json('PATCH', `/v1/note/block/state?id=${created.body.id}`, { state: { done: 3 } })).status).toBe(200);
  const view = await (await lib.fetch(`/v1/plugins/progress-bar/block/render?blockId=${created.body.id}&mode=view`)).text();
  expect(view).toContain('<span>Chapters &lt;1-12&gt;</span>');
  expect(view).toContain('value="3"');
  expect(view).toContain(' 25%</div>');
  expect(await (await lib.fetch(`/note?id=${note}`)).text()).toContain(' 25%</div>');
  const docs = await (await lib.fetch('/plugins/progress-bar/docs/bar')).text();
  expect(docs).toContain('Draws a progress bar');
  expect(docs).toContain(' 40%</div>');
});
