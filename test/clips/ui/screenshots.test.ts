// The clip interface's main screens at 1400 px and 390 px, light and dark: none scrolls
// sideways. With UPDATE_SCREENSHOTS=1 the pictures are written to docs/screenshots/clips-*.png
// (the ones the README and docs/clips.md show).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { startTestClips, type TestClips } from '../helper.js';
import { sampleClips, type SampleClips } from './fixture.js';
import { openScreen, scrollsSideways, signIn } from './pages.js';
import { HELLO, install } from '../plugins/helper.js';

const OUT = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
const WRITE = process.env.UPDATE_SCREENSHOTS === '1';
const SIZES = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
];

describe.skipIf(!browserAvailable)('clip web interface screenshots', () => {
  let t: TestClips;
  let s: SampleClips;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestClips();
    s = await sampleClips(t);
    await t.req(t.admin, 'PUT', '/tags/hidden', { ids: [s.tags.private] });
    await t.req(t.admin, 'POST', '/serve', { tag_id: s.tags['personal/travel'], api_access: 'read' });
    await install(t, 'hello.lua', HELLO);
    browser = await launchBrowser();
    if (WRITE) mkdirSync(OUT, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function shot(page: Page, name: string, size: { width: number }, scheme: string) {
    expect(await scrollsSideways(page), `${name} at ${size.width} px, ${scheme}, scrolls sideways`).toBe(false);
    if (WRITE) await page.screenshot({ path: join(OUT, `clips-${name}-${size.width}-${scheme}.png`) });
  }
  const quiet = (page: Page) => page.evaluate(() => (document.getElementById('status')!.textContent = ''));

  for (const size of SIZES) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`renders every screen at ${size.width} px, ${scheme}`, async () => {
        const page = await browser.newPage({ viewport: size, colorScheme: scheme });
        await page.goto(`${t.url}/`);
        await page.waitForSelector('#key');
        await shot(page, 'sign-in', size, scheme);

        await signIn(page, t.url, t.admin);
        await openScreen(page, 'clips');
        await page.waitForSelector('.clip-card');
        await page.waitForLoadState('networkidle');
        await quiet(page);
        await shot(page, 'browse', size, scheme);

        await page.click('.clip-name:text-is("harbour.png")');
        await page.waitForSelector('dialog[open] .image-full');
        await page.waitForFunction(() => (document.querySelector('dialog[open] .image-full') as HTMLImageElement).complete);
        await shot(page, 'details', size, scheme);
        await page.keyboard.press('Escape');

        // Uploads: two new files and one the store already holds.
        const label = `${size.width}-${scheme}`;
        await page.evaluate((l) => {
          const dt = new DataTransfer();
          dt.items.add(new File([`holiday plan ${l}`], `holiday plan ${l}.txt`, { type: 'text/plain' }));
          dt.items.add(new File([`packing list ${l}`], `packing list ${l}.md`, { type: 'text/markdown' }));
          dt.items.add(new File(['Pancakes: 200 g flour, 2 eggs, 300 ml milk, a pinch of salt. Rest 20 minutes.'], 'pancakes again.txt', { type: 'text/plain' }));
          document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, label);
        await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Upload finished'));
        await shot(page, 'uploads', size, scheme);
        await page.click('#uploads-close');
        // The next picture starts from the same clips.
        const made = (await t.req<{ clips: { id: number; filename: string }[] }>(t.admin, 'GET', `/clips?search=${encodeURIComponent(label)}`)).body.clips;
        await t.req(t.admin, 'POST', '/clips/bulk/delete', { ids: made.map((c) => c.id) });

        for (const screen of ['dedup', 'watch', 'serve', 'plugins', 'backup'] as const) {
          await openScreen(page, screen);
          await quiet(page);
          await shot(page, screen, size, scheme);
        }
        await page.close();
      }, 60_000);
    }
  }
});
