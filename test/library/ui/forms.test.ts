// Every browser action ends on a page (issue 16, item 2): failed forms come back filled in with
// the message (and a link to the duplicate), successes carry a one-line confirmation, and
// failures without a form still answer an HTML page, never JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { png, postMultipart } from '../../helpers/resources.js';

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-hash-worker-disabled']);
});
afterAll(async () => lib?.close());

const HTML = { accept: 'text/html,application/xhtml+xml' };

function cookieOf(res: Response): string {
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('form outcomes', () => {
  it('confirms a successful write on the page it leads to, once', async () => {
    const res = await lib.form('/v1/tag', [['Name', 'flash tag'], ['_form', '/tag/new']], HTML);
    expect(res.status).toBe(303);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^stacks_flash=/);
    const page = await lib.fetch(res.headers.get('location')!, { headers: { ...HTML, cookie } });
    const html = await page.text();
    expect(html).toContain('data-testid="flash"');
    expect(html).toContain('Saved.');
    // The page that showed it clears it.
    expect(page.headers.get('set-cookie')).toMatch(/stacks_flash=;.*Max-Age=0/);
    const again = await (await lib.fetch('/tags', { headers: HTML })).text();
    expect(again).not.toContain('data-testid="flash"');
  });

  it('names the action in the confirmation', async () => {
    const tag = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'to delete' })).body.ID;
    const res = await lib.form(`/v1/tag/delete?Id=${tag}`, [], HTML);
    expect(res.status).toBe(303);
    expect(decodeURIComponent(cookieOf(res))).toBe('stacks_flash=Deleted.');
  });

  it('sends a failed form back to itself with the input kept and the message shown', async () => {
    await lib.json('POST', '/v1/tag', { Name: 'taken name' });
    const res = await lib.form('/v1/tag', [['Name', 'taken name'], ['Description', 'typed text'], ['_form', '/tag/new']], HTML);
    expect(res.status).toBe(302);
    const back = res.headers.get('location')!;
    expect(back).toMatch(/^\/tag\/new\?/);
    const html = await (await lib.fetch(back, { headers: HTML })).text();
    expect(html).toContain('class="error-banner"');
    expect(html).toContain('already exists');
    expect(html).toContain('typed text');
  });

  it('links a duplicate upload to the resource that already holds the file', async () => {
    const data = await png(30, 30, 4);
    const first = await postMultipart(lib, '/v1/resource', 'resource', [{ name: 'one.png', data }]);
    const existing = (first.body as { ID: number }[])[0].ID;
    const res = await postMultipart(lib, '/v1/resource', 'resource', [{ name: 'two.png', data }], { _form: '/resource/new', Name: 'my name' }, HTML);
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!, lib.url);
    expect(back.pathname).toBe('/resource/new');
    expect(back.searchParams.get('errorLink')).toBe(`/resource?id=${existing}`);
    expect(back.searchParams.get('Name')).toBe('my name');
    const html = await (await lib.fetch(back.pathname + back.search, { headers: HTML })).text();
    expect(html).toContain(`href="/resource?id=${existing}"`);
    expect(html).toContain('value="my name"');
  });

  it('answers a browser write without a form with an HTML page, not JSON', async () => {
    const res = await lib.form('/v1/tag/delete?Id=987654', [], HTML);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('Back to the dashboard');
  });

  it('ignores an errorLink that leaves the site', async () => {
    const html = await (await lib.fetch('/tag/new?error=x&errorLink=//evil.example/', { headers: HTML })).text();
    expect(html).toContain('class="error-banner"');
    expect(html).not.toContain('href="//evil.example/"');
  });

  it('bulk edits from a form with picked ids and comes back to the list', async () => {
    const t = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'bulk picked' })).body.ID;
    const g = (await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'bulk group' })).body.ID;
    const res = await lib.form('/v1/groups/addTags', [['ID', g], ['EditedId', t], ['_form', '/groups']], HTML);
    expect(res.status).toBe(303);
    expect(decodeURIComponent(cookieOf(res))).toBe('stacks_flash=Tags added.');
    const group = (await lib.json<{ Tags: { ID: number }[] }>('GET', `/v1/group?id=${g}`)).body;
    expect(group.Tags.map((x) => x.ID)).toEqual([t]);
  });
});

describe('pickers instead of ids', () => {
  it('offers search pickers, never an id box, on the list bulk bars and the tag merge', async () => {
    const t = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'merge target' })).body.ID;
    for (const path of ['/resources', '/notes', '/groups', `/tag?id=${t}`]) {
      const html = await (await lib.fetch(path, { headers: HTML })).text();
      expect(html, path).toContain('role="combobox"');
      expect(html, path).not.toMatch(/placeholder="[^"]*ids"/);
      expect(html, path).not.toContain('<select name="Losers"');
    }
  });
});
