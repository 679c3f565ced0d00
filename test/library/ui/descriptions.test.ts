// Descriptions on detail pages (companion §5.2 item 6): Markdown, mentions, then shortcodes
// expanded against the entity; other bracket text and Markdown links stay as they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, upload } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

const described = (html: string) => {
  const at = html.indexOf('class="markdown description') >= 0 ? html.indexOf('class="markdown description') : html.indexOf('class="markdown block-text note-description');
  expect(at).toBeGreaterThan(0);
  const body = html.indexOf('>', at) + 1; // past the opening tag (its x-data holds the raw text)
  return html.slice(body, html.indexOf('</div>', body));
};

describe('shortcodes in descriptions', () => {
  it('expands built-in shortcodes in a group description after the Markdown', async () => {
    const desc = 'Run by **[property path="Name"]**, see [the site](https://example.org) and [not a shortcode].';
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'Ann & Bob <club>', Description: desc });
    expect(g.status).toBe(200);
    const part = described(await (await lib.fetch(`/group?id=${g.body.ID}`)).text());
    expect(part).toContain('<strong>Ann &#38; Bob &#60;club&#62;</strong>');
    expect(part).toContain('<a href="https://example.org"');
    expect(part).toContain('[not a shortcode]');
    expect(part).not.toContain('[property');
  });

  it('does the same for notes and resources', async () => {
    const n = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Minutes', Description: 'Note [property path="Name"]' });
    expect(described(await (await lib.fetch(`/note?id=${n.body.ID}`)).text())).toContain('Note Minutes');
    const r = await upload(lib, [{ name: 'desc.png', data: await png(10, 10, 3), type: 'image/png' }]);
    const id = r.body[0].ID;
    expect((await lib.json('POST', `/v1/resource/editDescription?id=${id}`, { Description: 'File _[property path="Name"]_' })).status).toBe(200);
    expect(described(await (await lib.fetch(`/resource?id=${id}`)).text())).toContain('File <em>desc.png</em>');
  });
});
