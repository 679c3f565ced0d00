// The shortcode engine (companion §5.3, mrql.md §19): every built-in shortcode against the §24
// fixture, the [mrql] formats, scopes, slots, budget and cache.
process.env.TZ = 'UTC';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import type { EntityContext, Shortcodes } from '../../../src/library/templates/index.js';
import { goLayout } from '../../../src/library/templates/format.js';
import { withScope } from '../../../src/library/templates/mrql.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';

let t: TestLibrary;
let shortcodes: Shortcodes;
beforeAll(async () => {
  t = await startTestLibrary();
  await loadFixture(t);
  shortcodes = t.mrql.shortcodes;
  await api('POST', '/v1/templatePartial', { Name: 'hello', Content: 'Hi [property path="Name"]' });
});
afterAll(async () => t?.close());

const alpha: EntityContext = { type: 'group', entity: { ID: 3, Name: 'Alpha', Description: '', OwnerId: 2, CategoryId: 8, Meta: { region: 'us', list: [{ n: 'a' }, { n: 'b' }], size: 1536, when: '2024-03-10T15:04:05Z' } } };
const r1: EntityContext = { type: 'resource', entity: { ID: 1, Name: 'sunrise.jpg', Description: 'Morning <light>', OwnerId: 3, ResourceCategoryId: 1, FileSize: 2000000, CreatedAt: '2024-03-10T12:00:00Z', Meta: { rating: 5 }, Tags: [{ Name: 'red' }, { Name: 'blue' }] } };
const render = (text: string, ctx = alpha, state = shortcodes.state()) => shortcodes.render(text, ctx, state);

/** A fixture change through the API (it must succeed). */
async function api(method: string, path: string, body: unknown): Promise<void> {
  const r = await t.json(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('[property], [meta], [link], [each]/[item], [partial]', () => {
  it('reads fields with dot paths, escapes by default, formats times and sizes', async () => {
    expect(await render('[property path="Name"]|[property path="Description"]|[property path="Description" raw="true"]', r1)).toBe('sunrise.jpg|Morning &#60;light&#62;|Morning <light>');
    expect(await render('[property path="Tags.1.Name"] [property path="Tags.9.Name" default="none"] [property path="Owner.Name"]', r1)).toBe('blue none ');
    expect(await render('[property path="CreatedAt" format="date"] [property path="CreatedAt" layout="Jan 2, 2006 3:04PM"] [property path="FileSize" format="filesize"]', r1)).toBe('2024-03-10 Mar 10, 2024 12:00PM 1.9 MB');
    expect(goLayout(new Date('2024-03-05T07:08:09Z'), 'Monday 02/01/06 15:04:05 -07:00')).toBe('Tuesday 05/03/24 07:08:09 +00:00');
  });
  it('[meta] emits the web component with escaped data', async () => {
    const html = await render('[meta path="region" editable="true"]');
    expect(html).toBe('<meta-shortcode data-path="region" data-editable="true" data-hide-empty="false" data-default="" data-entity-type="group" data-entity-id="3" data-schema="" data-value="&#34;us&#34;"></meta-shortcode>');
    expect(await render('[meta]')).toBe('');
  });
  it('[link] to self, owner, root and category; inline and block', async () => {
    expect(await render('[link to="self"] [link to="owner"] [link to="root"] [link to="category"]')).toBe('/group?id=3 /group?id=2 /group?id=1 /category?id=8');
    expect(await render('[link to="owner"]up[/link]', r1)).toBe('<a href="/group?id=3">up</a>');
    expect(await render('[link to="owner"]none[/link]', { type: 'resource', entity: { ID: 4, OwnerId: null } })).toBe('none');
  });
  it('[each] repeats over a meta list with [item]; [else] when empty', async () => {
    expect(await render('[each path="list"][item index="true"]:[item path="n"];[/each]')).toBe('1:a;2:b;');
    expect(await render('[each path="missing"]x[else]none[/each]')).toBe('none');
  });
  it('[partial] expands by name; unknown names leave a comment', async () => {
    expect(await render('[partial name="hello"]')).toBe('Hi Alpha');
    expect(await render('[partial name="nope"]')).toBe('<!-- partial "nope" not found -->');
  });
  it('unknown bracket text is left alone; the depth limit stops recursion', async () => {
    expect(await render('[b]bold[/b] [x y="1"]')).toBe('[b]bold[/b] [x y="1"]');
    await api('POST', '/v1/templatePartial', { Name: 'loop', Content: 'L[partial name="loop"]' });
    expect(await render('[partial name="loop"]')).toContain('<!-- mr:shortcode depth limit reached -->');
  });
  it('[details] and [lazy] render inline here; [reload] refuses nesting; a plugin that is not loaded is a marker', async () => {
    expect(await render('[details summary="More"]body[/details][lazy]lazy[/lazy]')).toBe('<details class="shortcode-details"><summary>More</summary>body</details>lazy');
    expect(await render('[reload label="Again"]')).toContain('>Again</button>');
    expect(await render('[reload][reload]x[/reload][/reload]')).toContain('⚠ reload');
    // library-plugins.md §25: the plugin system is on, so a plugin that is not loaded is named in an error marker.
    expect(await render('[plugin:maps:pin lat=1]')).toMatch(/^<span class="shortcode-error" title="[^"]*not found">⚠ plugin:maps:pin<\/span>$/);
  });
});

describe('[conditional]', () => {
  it('path, field and numbered sources with every operator', async () => {
    expect(await render('[conditional path="region" eq="us"]yes[else]no[/conditional]')).toBe('yes');
    expect(await render('[conditional path="size" gt="1000" lte="1536"]yes[else]no[/conditional]')).toBe('yes');
    expect(await render('[conditional field="Name" in="Beta, Alpha"]yes[/conditional]')).toBe('yes');
    expect(await render('[conditional field="Name" matches="^Al"]yes[/conditional][conditional field="Name" matches="(?=A)"]re2[else]no[/conditional]')).toBe('yesno');
    expect(await render('[conditional path="nope" empty="true"]e[/conditional][conditional path="list" not-empty="true"]n[/conditional]')).toBe('en');
    expect(await render('[conditional path="region" eq="eu" field2="Name" eq2="Alpha" combine="any"]any[/conditional]')).toBe('any');
    expect(await render('[conditional path="region" eq="eu" field2="Name" eq2="Alpha"]all[else]not all[/conditional]')).toBe('not all');
    expect(await render('[conditional path="region" eq="eu"]a[elseif field="Name" contains="lph"]b[else]c[/conditional]')).toBe('b');
    expect(await render('[conditional path="region" eq="us"]unclosed')).toContain('⚠ conditional');
  });
  it('mrql sources: item count, bucket count and aggregated columns', async () => {
    expect(await render('[conditional mrql="type = resource" scope="global" gte="5"]five[/conditional]')).toBe('five');
    expect(await render('[conditional mrql="type = resource GROUP BY contentType" scope="global" eq="5"]five buckets[/conditional]')).toBe('five buckets');
    expect(await render('[conditional mrql="type = resource GROUP BY category COUNT() ORDER BY category" scope="global" aggregate="count" eq="3"]three[/conditional]')).toBe('three');
    expect(await render('[conditional mrql="type = resource GROUP BY category COUNT()" scope="global" eq="3"]x[/conditional]')).toContain('aggregate=');
  });
});

describe('[mrql]', () => {
  it('formats: compact, list, table, custom cards with CSS once, aggregated table, bucket headers', async () => {
    const q = `query='type = resource AND category = 1 ORDER BY id' scope="global"`;
    expect(await render(`[mrql ${q} format="compact"]`)).toBe('<div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=1">sunrise.jpg</a>, <a href="/resource?id=2">sunset.png</a>, <a href="/resource?id=5">Clip 100%.mp4</a></span></div>');
    expect(await render(`[mrql ${q} format="list"]`)).toContain('<ul class="mrql-list"><li><a href="/resource?id=1">sunrise.jpg</a> <span class="mrql-description">Morning light over the harbor</span></li>');
    expect(await render(`[mrql ${q} format="table"]`)).toContain('<tr data-id="1"><td><a href="/resource?id=1">sunrise.jpg</a></td><td>resource</td>');
    const cards = await render(`[mrql ${q}]`);
    expect(cards).toBe('<div class="mrql-results"><div class="mrql-cards"><style data-mr-custom-css="resource:1">.rc1{}</style><b>sunrise.jpg</b><b>sunset.png</b><b>Clip 100%.mp4</b></div></div>');
    expect(await render(`[mrql query='type = resource AND category = 2 ORDER BY id' scope="global"]`)).toContain('<div class="mrql-card" data-type="resource" data-id="3"><a href="/resource?id=3">report_q1.pdf</a>');
    expect(await render(`[mrql query='type = resource GROUP BY category COUNT() ORDER BY category' scope="global"]`)).toBe('<div class="mrql-results"><table class="mrql-table mrql-aggregated"><thead><tr><th>category</th><th>count</th></tr></thead><tbody><tr><td>1</td><td>3</td></tr><tr><td>2</td><td>2</td></tr></tbody></table></div>');
    const buckets = await render(`[mrql query='type = resource GROUP BY category ORDER BY id' scope="global" format="compact" buckets="1"]`);
    expect(buckets).toContain('<span class="mrql-bucket-key">category: 1</span> <span class="mrql-bucket-count">3</span>');
    expect(buckets).not.toContain('category: 2');
  });
  it('limit always replaces LIMIT; value= scalars; empty results; errors never fail the page', async () => {
    expect(await render(`[mrql query='type = resource LIMIT 1' scope="global" value="count" limit="3"]`)).toBe('3');
    expect(await render(`[mrql query='type = resource GROUP BY category SUM(fileSize) ORDER BY category' scope="global" value="sum_fileSize"]`)).toBe('3223725472');
    expect(await render(`[mrql query='type = resource AND id = 99' scope="global"]`)).toBe('<div class="mrql-results"><p class="mrql-empty">No results.</p></div>');
    expect(await render(`[mrql query='type = resource AND bogus = 1' value="count"]`)).toBe('<span class="mrql-error">validation error at position 20: unknown or invalid field &#34;bogus&#34; for entity type resource</span>');
    expect(await render(`[mrql query='name = = 1']`)).toContain('<div class="mrql-results mrql-error">parse error at position 7');
    expect(await render(`[mrql saved="nope"]`)).toContain('saved MRQL query &#34;nope&#34; not found');
    expect(await render(`[mrql]`)).toBe('');
  });
  it('scope resolves against the context entity; SCOPE in the query wins', async () => {
    const names = async (scope: string, ctx = alpha) => render(`[mrql query='type = resource ORDER BY id' scope="${scope}" format="compact"]`, ctx);
    expect(await names('entity')).toBe('<div class="mrql-results"><span class="mrql-compact"><a href="/resource?id=1">sunrise.jpg</a></span></div>');
    expect(await names('parent')).toContain('sunset.png');
    expect(await names('parent')).not.toContain('teaser');
    expect(await names('root')).toContain('Clip 100%.mp4');
    expect(await names('4')).toContain('report_q1.pdf');
    expect(await names('entity', { type: 'resource', entity: { ID: 4, OwnerId: null } })).toContain('No results.');
    expect(await render(`[mrql query='type = resource SCOPE 4' format="compact"]`)).toContain('report_q1.pdf');
  });
  it('block mode: item template, header/footer with {count} {total} {link-all}, [else]', async () => {
    const html = await render(`[mrql query='type = resource ORDER BY id' scope="root" limit="2"][header]{count} of {total} <a href="{link-all}">all</a>[/header]<i>[property path="Name"]</i>[footer]end[/footer][/mrql]`);
    expect(html).toBe('<div class="mrql-results">2 of 3 <a href="/mrql?q=type%20%3D%20resource%20SCOPE%201%20ORDER%20BY%20id">all</a><i>sunrise.jpg</i><i>sunset.png</i>end</div>');
    expect(await render(`[mrql query='type = resource AND id = 99' scope="global"]x[else]nothing here[/mrql]`)).toBe('nothing here');
    expect(await render(`[mrql saved="by tag" param-tag="red" scope="global" link-all="true" format="compact"]`)).toContain('href="/mrql?saved=1"');
  });
  it('identical queries run once per render; distinct ones stop at the budget', async () => {
    const stats = { statements: 0, rows: 0 };
    const state = shortcodes.state(undefined, stats);
    state.budget = 2;
    const html = await shortcodes.render(
      `[mrql query='type = note' scope="global" value="count"][mrql query='type = note' scope="global" value="count"][mrql query='type = group' scope="global" value="count"][mrql query='type = resource' scope="global" value="count"]`,
      alpha,
      state,
    );
    expect(html).toBe('335<span class="mrql-error">inline query budget exceeded (2 per page); the remaining inline queries of this page were not run</span>');
    expect(stats.statements).toBe(2);
  });
  it('withScope splices SCOPE before the first top-level clause, ignoring strings', () => {
    expect(withScope('name = "ORDER BY" ORDER BY id LIMIT 2', 7)).toBe('name = "ORDER BY" SCOPE 7 ORDER BY id LIMIT 2');
    expect(withScope('type = note  ', 7)).toBe('type = note SCOPE 7');
    expect(withScope('type = note SCOPE 2', 7)).toBe('type = note SCOPE 2');
  });
});

describe('deferred [lazy] and [details] on pages', () => {
  it('seals the body and renders it through /v1/shortcodes/deferred under the caller scope', async () => {
    const html = await shortcodes.render('[lazy]Hi [property path="Name"][/lazy][details summary="More" open="true"][mrql query="type = resource" value="count"][/details]', alpha, shortcodes.pageState());
    const tokens = [...html.matchAll(/data-token="([^"]+)"/g)].map((m) => m[1]);
    expect(tokens.length).toBe(2);
    expect(html).toContain('<details class="shortcode-details" data-token=');
    expect(html).toContain(' open><summary>More</summary><noscript>');
    const lazy = await t.json<{ html: string }>('POST', '/v1/shortcodes/deferred', { token: tokens[0] });
    expect(lazy.body).toEqual({ html: 'Hi Alpha' });
    expect((await t.json<{ html: string }>('POST', '/v1/shortcodes/deferred', { token: tokens[1] })).body).toEqual({ html: '1' });
    const bad = tokens[0].slice(0, -4) + (tokens[0].endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.json('POST', '/v1/shortcodes/deferred', { token: bad })).body).toEqual({ error: 'invalid shortcode token' });
    const gone = await shortcodes.render('[lazy]x[/lazy]', { type: 'group', entity: { ID: 999, Meta: {} } }, shortcodes.pageState());
    const token = /data-token="([^"]+)"/.exec(gone)![1];
    expect((await t.json('POST', '/v1/shortcodes/deferred', { token })).status).toBe(404);
  });
});

describe('carrier slots for pages', () => {
  it('renders a Custom* slot of the entity carrier', async () => {
    await api('POST', '/v1/category', { ID: 8, CustomHeader: '<h2>[property path="Name"] ([mrql query="type = resource" value="count"])</h2>' });
    expect(await shortcodes.carrierSlot('group', alpha.entity, 'custom_header')).toBe('<h2>Alpha (1)</h2>');
    expect(await shortcodes.carrierSlot('group', { ID: 4, CategoryId: null }, 'custom_header')).toBe('');
    expect(await shortcodes.carrierSlot('resource', r1.entity, 'custom_own_entities')).toBe('');
  });
  it('a slot with a [reload] button becomes a region the button re-renders', async () => {
    await api('POST', '/v1/category', { ID: 8, CustomSidebar: '[property path="Name"] [reload label="Again"]' });
    const html = await shortcodes.carrierSlot('group', alpha.entity, 'custom_sidebar');
    const token = /data-shortcode-region="([^"]+)"/.exec(html)![1];
    expect(html).toContain('Alpha <button type="button" class="shortcode-reload" data-shortcode-reload>Again</button></div>');
    const again = await t.json<{ html: string }>('POST', '/v1/shortcodes/deferred', { token });
    expect(again.body.html).toBe('Alpha <button type="button" class="shortcode-reload" data-shortcode-reload>Again</button>');
  });
});
