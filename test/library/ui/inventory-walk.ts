// Walks every page of the inventory in Chromium (issue 16): no serious or critical axe-core
// violation in the light or the dark theme, and no sideways scrolling on a 390 px phone.
// Each walk is its own test file (inventory-*.test.ts) so the three walks, the slowest browser
// work of the suite, run on different workers instead of one after another in one file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { axeViolations } from '../../helpers/axe.js';
import { buildInventory, type InventoryPage } from '../../helpers/page-inventory.js';

export type InventoryWalk = 'light' | 'dark' | 'phone';

/** Visits every inventory page with `page` and collects what `check` finds wrong on each. */
async function visitAll(lib: TestLibrary, pages: InventoryPage[], page: Page, check: (p: InventoryPage) => Promise<string[]>): Promise<string[]> {
  const found: string[] = [];
  for (const p of pages) {
    await page.goto(lib.url + p.path);
    await page.waitForLoadState('networkidle');
    found.push(...(await check(p)));
  }
  if (found.length > 0) console.error(found.join('\n'));
  return found;
}

async function seriousViolationsOf(page: Page, p: InventoryPage): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => /^(serious|critical) /.test(v)).map((v) => `${p.path}: ${v}`);
}

async function sidewaysScrollOf(page: Page, p: InventoryPage): Promise<string[]> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  if (scroll <= width) return [];
  const culprits = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && getComputedStyle(el).position !== 'fixed')
      .slice(0, 3)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
  );
  return [`${p.path}: ${scroll}px (${culprits.join(', ')})`];
}

export function describeInventoryWalk(walk: InventoryWalk): void {
  describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')(`page inventory (${walk})`, () => {
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

    if (walk === 'phone') {
      it('never scrolls sideways on a 390 px phone', async () => {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
        const page = await context.newPage();
        const wide = await visitAll(lib, pages, page, (p) => sidewaysScrollOf(page, p));
        await context.close();
        expect(wide).toEqual([]);
      }, 300_000);
    } else {
      it(`has no serious or critical accessibility violations on any page (${walk})`, async () => {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: walk });
        const page = await context.newPage();
        const found = await visitAll(lib, pages, page, (p) => seriousViolationsOf(page, p));
        await context.close();
        expect(found).toEqual([]);
      }, 300_000);
    }
  });
}
