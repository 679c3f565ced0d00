// Browser helpers for the clip interface tests: sign in by keyboard, reach a control by Tab,
// and the screens' hash routes.
import type { Page } from 'playwright-core';

export const SCREENS = ['clips', 'dedup', 'watch', 'serve', 'plugins', 'backup', 'keys'] as const;

/** Signs in the way a person does: the key field has focus on load; type, then Enter. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.waitForSelector('#key');
  await page.waitForFunction(() => document.activeElement?.id === 'key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#nav:not([hidden])');
}

/** Presses Tab until `matches` holds for the focused element; fails after `max` presses. */
export async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

export async function openScreen(page: Page, screen: (typeof SCREENS)[number]): Promise<void> {
  // A dialog a failed test left open would block every click of the tests after it.
  await page.evaluate(() => document.querySelectorAll('dialog[open]').forEach((d) => (d as HTMLDialogElement).close()));
  await page.evaluate((s) => (location.hash = s === 'clips' ? '#/' : `#/${s}`), screen);
  await page.waitForFunction((s) => document.querySelector('main')?.dataset.screen === s && !document.querySelector('main > p.hint'), screen);
  if (screen === 'clips') await page.waitForSelector('#results:not([aria-busy]) .summary');
}

export async function cardNames(page: Page): Promise<string[]> {
  return page.locator('.clip-card .clip-name').allTextContents();
}

/** Whether the page scrolls sideways at its viewport's width. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth);
}
