// Carrier template slots on pages: shortcodes expanded by the engine, Alpine's `entity` scope,
// list headers with the carrier as entity, CSS kept as CSS, and the restricted share mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-share-port', '0', '-share-bind-address', '127.0.0.1']);
});
afterAll(async () => lib?.close());

async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await lib.json<T>(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const page = async (path: string) => (await lib.fetch(path)).text();

describe('category slots on group pages', () => {
  let category: number;
  let group: number;
  beforeAll(async () => {
    category = (
      await ok<{ ID: number }>('POST', '/v1/category', {
        Name: 'Venue',
        CustomHeader: '<p class="hdr">Venue: [property path="Name"] in [meta path="city"]</p>',
        CustomSidebar: '<p class="side" x-text="entity.Name"></p>',
        CustomDetailFooter: '<p class="foot">[mrql query="type = group AND category = 0" format="count"] others</p>',
        CustomOwnEntities: '<p class="own">Nothing of its own to show</p>',
        CustomListHeader: '<p class="lhead">All of [property path="Name"]</p>',
        CustomListFooter: '<p class="lfoot">end</p>',
        CustomCSS: '.hdr a[href] { color: red; } </style><script>alert(1)</script>',
      })
    ).ID;
    group = (await ok<{ ID: number }>('POST', '/v1/group', { Name: 'Main Hall', CategoryId: category, Meta: '{"city":"Bergen"}' })).ID;
  });

  it('renders header, sidebar, own entities and footer on the detail page through the engine', async () => {
    const html = await page(`/group?id=${group}`);
    expect(html).toContain('<p class="hdr">Venue: Main Hall in');
    expect(html).toContain('data-path="city"');
    expect(html).toContain('class="side"');
    expect(html).toMatch(/x-data="\{ entity: \{&#34;ID&#34;:\d+/);
    expect(html).toContain('<p class="own">Nothing of its own to show</p>');
    expect(html).not.toContain('Sub-groups');
    expect(html).toContain('class="foot"');
    expect(html).not.toContain('[property');
  });

  it('keeps CustomCSS as CSS and never lets it close its style element', async () => {
    const html = await page(`/group?id=${group}`);
    expect(html).toContain('.hdr a[href] { color: red; }');
    expect(html).not.toContain('</style><script>alert(1)</script>');
  });

  it('shows the list header and footer only when the list is filtered to that one category', async () => {
    const filtered = await page(`/groups?CategoryId=${category}`);
    expect(filtered).toContain('<p class="lhead">All of Venue</p>');
    expect(filtered).toContain('<p class="lfoot">end</p>');
    expect(await page(`/groups?Categories=${category}`)).toContain('class="lhead"');
    expect(await page('/groups')).not.toContain('class="lhead"');
    // UI-only members stay out of the JSON form of the page.
    const json = await ok<Record<string, unknown>>('GET', `/groups.json?CategoryId=${category}`);
    expect(Object.keys(json).some((k) => k.startsWith('_'))).toBe(false);
  });
});

describe('note type slots on shared pages', () => {
  it('renders the header in restricted mode: no MRQL, meta printed read-only', async () => {
    const type = await ok<{ ID: number }>('POST', '/v1/note/noteType', {
      Name: 'Minutes',
      ApplyTemplatesToShares: true,
      CustomHeader: '<p class="share-hdr">[property path="Name"] · [meta path="room"] · [mrql query="type = note" format="count"]</p>',
      CustomCSS: '.share-hdr { font-weight: bold; }',
    });
    const note = await ok<{ ID: number }>('POST', '/v1/note', { Name: 'Board meeting', NoteTypeId: type.ID, Meta: '{"room":"B2"}' });
    const shared = await ok<{ shareUrl: string }>('POST', `/v1/note/share?noteId=${note.ID}`);
    const html = await (await fetch(lib.shareUrl + shared.shareUrl)).text();
    expect(html).toContain('<p class="share-hdr">Board meeting · <span class="shortcode-meta" data-path="room">B2</span> · <!-- mr:mrql unavailable in this context --></p>');
    expect(html).toContain('.share-hdr { font-weight: bold; }');
    const own = await page(`/note?id=${note.ID}`);
    expect(own).toContain('<meta-shortcode');
  });
});
