// The MRQL page and the global search box, in a browser (mrql.md §14.9; companion §6.3).
process.env.TZ = 'UTC';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';

let t: TestLibrary;
beforeAll(async () => {
  t = await startTestLibrary();
  await loadFixture(t);
});
afterAll(async () => t?.close());

describe('MRQL page over HTTP', () => {
  it('serves the editor, the saved queries and the search box', async () => {
    const r = await t.fetch('/mrql?saved=1');
    const html = await r.text();
    expect(r.status).toBe(200);
    expect(html).toContain('data-testid="mrql-query"');
    expect(html).toContain('id="global-search"');
    const ctx = await t.json<{ query: string; autorun: boolean; saved: { name: string }[] }>('GET', '/mrql.json?saved=1');
    expect(ctx.body).toMatchObject({ query: 'type = resource AND tags = $tag ORDER BY id', autorun: false });
    expect(ctx.body.saved.map((s) => s.name)).toEqual(['broken', 'by tag']);
    const direct = await t.json<{ autorun: boolean; query: string }>('GET', `/mrql.json?q=${encodeURIComponent('type = note')}`);
    expect(direct.body).toMatchObject({ autorun: true, query: 'type = note' });
  });
});

describe('saved MRQL queries on /queries', () => {
  it('lists every saved MRQL query with a link that opens and runs it on /mrql', async () => {
    const saved = await t.json<{ id: number; name: string; params: string[] }[]>('GET', '/v1/mrql/saved?all=1');
    expect(saved.status).toBe(200);
    const r = await t.fetch('/queries');
    const html = await r.text();
    expect(r.status).toBe(200);
    const section = html.slice(html.indexOf('data-testid="saved-mrql"'));
    expect(section.length).toBeLessThan(html.length);
    for (const q of saved.body) {
      expect(section).toContain(`href="/mrql?saved=${q.id}"`);
      expect(section).toContain(q.params.length ? `Open ${q.name}` : `Run ${q.name}`);
    }
    // The link lands on the editor with that query loaded.
    const byTag = saved.body.find((q) => q.name === 'by tag')!;
    const ctx = await t.json<{ query: string; savedId: number }>('GET', `/mrql.json?saved=${byTag.id}`);
    expect(ctx.body.savedId).toBe(byTag.id);
  });
});

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('MRQL page in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('runs ?q= at once, validates as you type, completes, and renders CustomMRQLResult cards', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/mrql?q=${encodeURIComponent('type = resource AND category = 1 ORDER BY id')}`);
    const results = page.locator('[data-testid="mrql-results"]');
    await expect.poll(() => results.innerHTML()).toContain('<b>sunrise.jpg</b>');
    const query = page.locator('[data-testid="mrql-query"]');
    await query.fill('name = = "bad"');
    await expect.poll(() => page.locator('[data-testid="mrql-status"]').textContent()).toContain('expected value');
    await query.fill('type = resource AND tags.');
    await query.press('End');
    await query.press('Control+Space');
    await expect.poll(() => page.locator('[data-testid="mrql-suggestions"]').textContent()).toContain('count');
    await query.fill('type = resource AND tags = $tag');
    await page.waitForSelector('input[data-param="tag"]');
    await page.fill('input[data-param="tag"]', 'green');
    await page.click('[data-testid="mrql-run"]');
    await expect.poll(() => results.textContent()).toContain('notes.txt');
    await page.close();
  });

  it('suggests only what can follow at the cursor', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/mrql`);
    const query = page.locator('[data-testid="mrql-query"]');
    const list = page.locator('[data-testid="mrql-suggestions"] li span');
    const offered = async (text: string) => {
      await query.fill(text);
      await query.press('End');
      await query.press('Control+Space');
      await expect.poll(() => page.evaluate(() => document.querySelector('.mrql-page')?.getAttribute('data-completed-for'))).toBe(text);
      return list.allTextContents();
    };
    // A keyword being typed after a value completes as a keyword, not as a field name.
    expect(await offered('name = "x" ORD')).toEqual(['ORDER BY']);
    // Clauses already used, and those that may not come after them, are not offered again.
    expect(await offered('name = "x" SCOPE 3 ')).toEqual(['GROUP BY', 'ORDER BY', 'LIMIT']);
    expect(await offered('name = "x" ORDER BY name LIMIT 5 ')).toEqual(['OFFSET']);
    // Keywords inside quotes are text, not clauses.
    expect(await offered('name = "ORDER BY" ')).toEqual(['AND', 'OR', 'SCOPE', 'GROUP BY', 'ORDER BY', 'LIMIT']);
    // After a dot, the part after it is completed (relation counts).
    expect(await offered('type = resource AND tags.co')).toEqual(['count']);
    await page.close();
  });

  it('Ctrl+K focuses the global search, which offers results and a Run MRQL entry', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/groups`);
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('global-search');
    await page.keyboard.type('type = group');
    await expect.poll(() => page.locator('#global-search-results').textContent()).toContain('Run MRQL query');
    await page.fill('#global-search', 'studio');
    await expect.poll(() => page.locator('#global-search-results').textContent()).toContain('Studio');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/group\?id=1$/);
    await page.close();
  });
});
