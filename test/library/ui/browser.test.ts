// A person in a browser: create a tag through the form and find it in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { slowBody, startStubServer } from '../../helpers/stub-server.js';

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('browser', () => {
  let lib: TestLibrary;
  let browser: Browser;
  beforeAll(async () => {
    lib = await startTestLibrary(['-allow-private-hosts']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  it('creates a tag through the form and sees it listed', async () => {
    const page = await browser.newPage();
    await page.goto(`${lib.url}/tag/new`);
    await page.fill('input[name="Name"]', 'made in a browser');
    await page.fill('textarea[name="Description"]', 'typed by a person');
    await Promise.all([page.waitForURL(/\/tag\?id=\d+$/), page.click('button[type="submit"]')]);
    expect(await page.textContent('h1')).toBe('made in a browser');

    await page.goto(`${lib.url}/tags`);
    const list = page.locator('[data-testid="tag-list"]');
    await expect.poll(() => list.textContent()).toContain('made in a browser');

    // A duplicate from the form comes back to the form with the message and the typed value.
    await page.goto(`${lib.url}/tag/new`);
    await page.fill('input[name="Name"]', 'made in a browser');
    await Promise.all([page.waitForURL(/\/tag\/new\?/), page.click('button[type="submit"]')]);
    expect(await page.textContent('.error-banner')).toContain('already exists');
    expect(await page.inputValue('input[name="Name"]')).toBe('made in a browser');
    await page.close();
  });

  it('expands the group tree on demand', async () => {
    const root = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'tree-root' });
    const child = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'tree-child', OwnerId: root.body.ID });
    await lib.json('POST', '/v1/group', { Name: 'tree-grandchild', OwnerId: child.body.ID });
    const page = await browser.newPage();
    await page.goto(`${lib.url}/group/tree`);
    expect(await page.locator('#group-tree').textContent()).not.toContain('tree-child');
    await page.click(`li[data-id="${root.body.ID}"] > button.toggle`);
    await page.waitForSelector('text=tree-child');
    expect(await page.locator('#group-tree').textContent()).not.toContain('tree-grandchild');
    await page.goto(`${lib.url}/group/tree?containing=${child.body.ID}`);
    await page.waitForSelector('li.highlight >> text=tree-child');
    await page.close();
  });

  it('picks tags and an owner with the search pickers on the group form', async () => {
    const tag = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'picked-tag' });
    const parent = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'picker-parent' });
    const page = await browser.newPage();
    await page.goto(`${lib.url}/group/new`);
    await page.fill('input[name="Name"]', 'picked group');
    const tags = page.locator('.picker', { hasText: 'Tags' });
    await tags.locator('input[type="text"]').fill('picked');
    await tags.locator('.picker-results [role="option"]', { hasText: 'picked-tag' }).click();
    const owner = page.locator('.picker', { hasText: 'Owner' });
    await owner.locator('input[type="text"]').fill('picker-par');
    await owner.locator('.picker-results [role="option"]', { hasText: 'picker-parent' }).click();
    await Promise.all([page.waitForURL(/\/group\?id=\d+$/), page.click('button[type="submit"]')]);
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const g = await lib.json<{ Tags: { ID: number }[]; OwnerId: number }>('GET', `/v1/group?id=${id}`);
    expect(g.body.Tags.map((t) => t.ID)).toEqual([tag.body.ID]);
    expect(g.body.OwnerId).toBe(parent.body.ID);

    // Removing every chip on edit clears the tags instead of keeping them.
    await page.goto(`${lib.url}/group/edit?id=${id}`);
    await page.locator('.picker', { hasText: 'Tags' }).locator('.chip-remove').click();
    await Promise.all([page.waitForURL(/\/group\?id=\d+$/), page.click('button[type="submit"]')]);
    expect((await lib.json<{ Tags: unknown[] }>('GET', `/v1/group?id=${id}`)).body.Tags).toEqual([]);
    await page.close();
  });

  it('shows a download progressing live on the downloads page', async () => {
    const stub = await startStubServer();
    stub.routes.set('/slow.bin', slowBody(Buffer.alloc(32 * 1024, 1), 16, 100));
    const page = await browser.newPage();
    try {
      await page.goto(`${lib.url}/downloads`);
      await page.waitForSelector('[data-testid="job-queue"] p.empty:visible');
      // Submitted elsewhere: the page learns of it only through the event stream.
      await lib.json('POST', '/v1/jobs/download/submit', { URL: `${stub.url}/slow.bin` });
      const row = page.locator('[data-testid="job-queue"] tbody tr');
      await row.first().waitFor();
      await page.waitForSelector('[data-testid="job-queue"] tbody tr[data-status="downloading"]');
      expect(await row.first().locator('progress').getAttribute('value')).not.toBeNull();
      await page.waitForSelector('[data-testid="job-queue"] tbody tr:is([data-status="completed"], [data-status="failed"])', { timeout: 15_000 });
    } finally {
      await page.close();
      await stub.close();
    }
  }, 30_000);
});
