// Keyboard-only and phone flows in Chromium (issue 16, items 1, 2 and 6): the search pickers
// (arrows, Enter picks without submitting, Escape closes, ARIA combobox state), the Admin menu
// closing on an outside click, the phone menu and the filter drawer, and the flash message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('keyboard and phone', () => {
  let lib: TestLibrary;
  let browser: Browser;
  beforeAll(async () => {
    lib = await startTestLibrary(['-hash-worker-disabled']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  it('picks with arrows and Enter without submitting the form, and closes with Escape', async () => {
    const ids: Record<string, number> = {};
    for (const name of ['kb-alpha', 'kb-beta']) ids[name] = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: name })).body.ID;
    const page = await browser.newPage();
    await page.goto(`${lib.url}/group/new`);
    await page.fill('input[name="Name"]', 'keyboard group');
    const box = page.locator('.picker', { hasText: 'Tags' }).locator('input[role="combobox"]');
    await box.focus();
    await page.keyboard.type('kb-');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    const listId = await box.getAttribute('aria-controls');
    expect(await page.locator(`#${listId} [role="option"]`).count()).toBe(2);
    const first = await page.locator(`#${await box.getAttribute('aria-activedescendant')}`).textContent();
    await page.keyboard.press('ArrowDown');
    const active = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`#${active}`).getAttribute('aria-selected')).toBe('true');
    const chosen = (await page.locator(`#${active}`).textContent())!;
    expect(chosen).not.toBe(first);
    await page.keyboard.press('Enter');
    // Still on the form: Enter picked, it did not submit.
    expect(new URL(page.url()).pathname).toBe('/group/new');
    await page.locator('.picker', { hasText: 'Tags' }).locator('.chips .tag', { hasText: chosen }).waitFor();
    // The live region is written right after the chip; poll rather than race the update.
    await expect.poll(() => page.locator('[role="status"]', { hasText: `${chosen} added` }).count()).toBe(1);
    // Escape closes an open list.
    await page.keyboard.type('kb-');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('false');
    // Submitting by keyboard from the name field saves the pick and confirms it.
    await page.focus('input[name="Name"]');
    await Promise.all([page.waitForURL(/\/group\?id=\d+$/), page.keyboard.press('Enter')]);
    expect(await page.textContent('[data-testid="flash"]')).toContain('Saved');
    const id = Number(new URL(page.url()).searchParams.get('id'));
    const g = await lib.json<{ Tags: { ID: number }[] }>('GET', `/v1/group?id=${id}`);
    expect(g.body.Tags.map((t) => t.ID)).toEqual([ids[chosen]]);
    await page.close();
  });

  it('closes the Admin menu on an outside click and on Escape', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/dashboard`);
    const menu = page.locator('details.menu', { hasText: 'Admin' });
    await menu.locator('summary').click();
    expect(await menu.getAttribute('open')).not.toBeNull();
    await page.click('h1');
    expect(await menu.getAttribute('open')).toBeNull();
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('open')).not.toBeNull();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('open')).toBeNull();
    await page.close();
  });

  it('collapses the menu and puts the filters in a drawer on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${lib.url}/groups`);
    expect(await page.isVisible('#main-menu')).toBe(false);
    await page.click('#menu-toggle');
    expect(await page.isVisible('#main-menu')).toBe(true);
    expect(await page.getAttribute('#menu-toggle', 'aria-expanded')).toBe('true');
    expect(await page.isVisible('#sidebar')).toBe(false);
    await page.click('#sidebar-toggle');
    expect(await page.isVisible('#sidebar')).toBe(true);
    expect(await page.getAttribute('#sidebar-toggle', 'aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await page.isVisible('#sidebar')).toBe(false);
    await context.close();
  });

  it('follows the system colour scheme', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${lib.url}/dashboard`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(18, 22, 28)');
    await context.close();
  });
});
