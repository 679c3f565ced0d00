// Walks every page of the inventory in Chromium (issue 16): no serious or critical axe-core
// violation in the light or the dark theme, and no sideways scrolling on a 390 px phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { axeViolations } from '../../helpers/axe.js';
import { buildInventory, type InventoryPage } from '../../helpers/page-inventory.js';

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('page inventory', () => {
  let lib: TestLibrary;
  let browser: Browser;
  let pages: InventoryPage[];
  beforeAll(async () => {
    lib = await startTestLibrary(['-hash-worker-disabled']);
    pages = await buildInventory(lib);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical accessibility violations on any page (${scheme})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      const found: string[] = [];
      for (const p of pages) {
        await page.goto(lib.url + p.path);
        await page.waitForLoadState('networkidle');
        for (const v of await axeViolations(page)) if (/^(serious|critical) /.test(v)) found.push(`${p.path}: ${v}`);
      }
      await context.close();
      if (found.length > 0) console.error(found.join('\n'));
      expect(found).toEqual([]);
    }, 300_000);
  }

  it('never scrolls sideways on a 390 px phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const wide: string[] = [];
    for (const p of pages) {
      await page.goto(lib.url + p.path);
      await page.waitForLoadState('networkidle');
      const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      if (scroll > width) {
        const culprits = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && getComputedStyle(el).position !== 'fixed')
            .slice(0, 3)
            .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
        );
        wide.push(`${p.path}: ${scroll}px (${culprits.join(', ')})`);
      }
    }
    await context.close();
    if (wide.length > 0) console.error(wide.join('\n'));
    expect(wide).toEqual([]);
  }, 300_000);
});
