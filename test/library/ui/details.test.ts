// The details people expect (issue 16, item 7), as the server renders them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

const page = async (path: string) => (await lib.fetch(path, { headers: { accept: 'text/html' } })).text();

describe('tags', () => {
  it('lists usage counts on the tag list and what carries the tag on its page', async () => {
    const tag = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'counted' })).body.ID;
    await lib.json('POST', '/v1/tag', { Name: 'idle tag' });
    await lib.json('POST', '/v1/group', { Name: 'carrier group', Tags: [tag] });
    await lib.json('POST', '/v1/note', { Name: 'carrier note one', Tags: [tag] });
    await lib.json('POST', '/v1/note', { Name: 'carrier note two', Tags: [tag] });
    await upload(lib, [{ name: 'carried.png', data: await png(10, 10, 9) }], { Tags: tag });

    const list = await page('/tags');
    expect(list).toContain(`href="/notes?Tags=${tag}">2 notes</a>`);
    expect(list).toContain(`href="/groups?Tags=${tag}">1 group</a>`);
    expect(list).toContain(`href="/resources?Tags=${tag}">1 resource</a>`);
    expect(list).toContain('unused');

    const detail = await page(`/tag?id=${tag}`);
    expect(detail).toContain('data-testid="tag-carriers"');
    for (const name of ['carrier group', 'carrier note one', 'carrier note two', 'carried.png']) expect(detail).toContain(name);
    const json = (await lib.json<{ usage: { note: number } }>('GET', `/tag.json?id=${tag}`)).body;
    expect(json.usage.note).toBe(2);
  });
});

describe('settings', () => {
  it('shows durations and sizes in human units and on/off settings as switches', async () => {
    const html = await page('/admin/settings');
    expect(html).toMatch(/data-key="download_history_retention"[^]*?value="\d+(d|h)/);
    expect(html).not.toMatch(/value="\d{9,}"/);
    expect(html).toMatch(/data-key="hash_backfill_paused"[^]*?role="switch"/);
    expect(html).toMatch(/data-key="max_upload_size"/);
  });
});

describe('dates', () => {
  it('shows one date format: relative while recent, exact time in the tooltip', async () => {
    const tag = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'dated' })).body.ID;
    const html = await page(`/tag?id=${tag}`);
    expect(html).toMatch(/<time datetime="[^"]+" title="\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC">(just now|\d+ min ago)<\/time>/);
  });
});
