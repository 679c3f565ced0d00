// The example plugins of examples/clip-plugins install and do what docs/clip-plugins.md says.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';
import { settled, storage } from './helper.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples', 'clip-plugins');
let t: TestClips;
let F: FixtureF;

beforeAll(async () => {
  t = await startTestClips();
  F = await fixtureF(t);
});
afterAll(async () => {
  await t.close();
});

describe('example plugins', () => {
  it('word-count.lua records counts of new text clips and shows them on demand', async () => {
    const p = await t.req<{ id: number; status: string }>(F.KA, 'POST', '/plugins', { source: join(EXAMPLES, 'word-count.lua') });
    expect(p.body.status).toBe('loaded');
    const clip = await t.upload(F.KE, { filename: 'poem.txt', type: 'text/plain', data: 'one two three\nfour five' });
    await settled(t);
    expect((await t.req(F.KE, 'GET', `/clips/${clip.body.id}/metadata`)).body).toEqual({ words: '5', lines: '2' });
    const shown = await t.req(F.KE, 'POST', `/plugins/${p.body.id}/actions/show_counts`, { clip_ids: [clip.body.id] });
    expect(shown.body).toEqual({ success: true, modal: { title: 'Word count', content: '**5** words on **2** lines', format: 'markdown' } });
  });

  it('tidy.lua archives old clips with task progress, or only counts them', async () => {
    const p = await t.req<{ id: number }>(F.KA, 'POST', '/plugins', { source: join(EXAMPLES, 'tidy.lua') });
    t.clock.advance(40 * 86_400_000);
    const dry = await t.req(F.KE, 'POST', `/plugins/${p.body.id}/actions/tidy_now`, { options: { days: 30, dry_run: true } });
    expect(dry.body).toEqual({ success: true });
    expect((await storage(t, p.body.id)).last_run).toMatch(/ would archive \d+$/);
    const before = (await t.req<{ total: number }>(F.KE, 'GET', '/clips?archived=false')).body.total;
    expect(before).toBeGreaterThan(0);
    await t.req(F.KE, 'POST', `/plugins/${p.body.id}/actions/tidy_now`, { options: { days: 30 } });
    expect((await t.req<{ total: number }>(F.KE, 'GET', '/clips?archived=false')).body.total).toBe(0);
    expect((await storage(t, p.body.id)).last_run).toMatch(new RegExp(` archived ${before}$`));
    const task = t.svc.services.pluginHost.activity.list().find((x) => x.plugin_id === p.body.id)!;
    expect(task).toMatchObject({ name: 'Archive old clips', status: 'completed', current: before, total: before });
  });
});
