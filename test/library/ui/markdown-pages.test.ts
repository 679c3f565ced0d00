// Descriptions and text blocks render as sanitised Markdown on the pages (companion §5.2 item 6,
// §12.2): formatting, task lists and safe links survive; raw HTML and script URLs do not;
// mentions become links to the entity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

const HOSTILE = '**bold** <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) [ok](https://example.org)\n\n- [x] done';

function expectSafe(html: string) {
  expect(html).toContain('<strong>bold</strong>');
  expect(html).not.toContain('<script>alert');
  expect(html).not.toContain('<img src=x');
  expect(html).not.toMatch(/href="javascript:/i);
  expect(html).toContain('href="https://example.org"');
  expect(html).toContain('class="task-list"');
}

describe('Markdown on pages', () => {
  it('renders a group description safely, with mentions as links', async () => {
    const other = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'Other' });
    const g = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'Trips', Description: `${HOSTILE}\n\nsee @[group:${other.body.ID}:Other <b>group</b>]` });
    const html = await (await lib.fetch(`/group?id=${g.body.ID}`)).text();
    expectSafe(html);
    expect(html).toContain(`<a class="mention mention-group" href="/group?id=${other.body.ID}">Other &#60;b&#62;group&#60;/b&#62;</a>`);
  });

  it('renders note text blocks and the note description safely', async () => {
    const n = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Plain', Description: HOSTILE });
    expectSafe(await (await lib.fetch(`/note?id=${n.body.ID}`)).text());
    const withBlock = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Blocks' });
    await lib.json('POST', '/v1/note/block', { noteId: withBlock.body.ID, type: 'text', content: { text: HOSTILE } });
    const html = await (await lib.fetch(`/note?id=${withBlock.body.ID}`)).text();
    expectSafe(html);
    expectSafe(await (await lib.fetch(`/note/text?id=${withBlock.body.ID}`)).text());
  });

  it('renders a resource mention alone on its line as a card with a thumbnail', async () => {
    const n = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Card', Description: 'Look:\n\n@[resource:42:Sunset]\n\ninline @[Resource:42:Sunset] too' });
    const html = await (await lib.fetch(`/note?id=${n.body.ID}`)).text();
    expect(html).toContain('<a class="mention-card" href="/resource?id=42"><img src="/v1/resource/preview?ID=42&amp;Height=160"');
    expect(html).toContain('<a class="mention mention-resource" href="/resource?id=42">');
  });
});
