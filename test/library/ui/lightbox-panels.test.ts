// The lightbox past the list page it was opened from, and its info (E) and quick-tag (T)
// panels (companion §6.5), in Chromium by keyboard. UPDATE_SCREENSHOTS=1 writes
// docs/screenshots/lightbox-*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { axeViolations } from '../../helpers/axe.js';
import { png, upload } from '../../helpers/resources.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'screenshots') : null;
const serious = async (page: Page) => (await axeViolations(page)).filter((v) => v.startsWith('serious') || v.startsWith('critical'));

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1400, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150); // layout settles after a resize (screenshots only)
      await page.screenshot({ path: join(SHOTS, `lightbox-${name}-${width === 390 ? 'phone' : 'wide'}-${scheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('lightbox paging and panels', () => {
  let lib: TestLibrary;
  let browser: Browser;
  const ids: Record<string, number> = {};
  let tagId = 0;

  beforeAll(async () => {
    lib = await startTestLibrary(['-hash-worker-disabled']);
    browser = await launchBrowser();
    for (const [name, seed] of [
      ['first.png', 31],
      ['second.png', 32],
      ['third.png', 33],
    ] as const) {
      const r = await upload(lib, [{ name, data: await png(300, 200, seed), type: 'image/png' }]);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids[name] = r.body[0].ID;
    }
    tagId = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'holiday' })).body.ID;
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  it('walks on into the next list page, and edits name and tags from its panels', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resources?MaxResults=2`);
    const onPage = await page.$$eval('[data-testid="resource-list"] [data-lightbox-id]', (els) => [...new Set(els.map((e) => e.getAttribute('data-lightbox-name')))]);
    expect(onPage).toHaveLength(2);
    const offPage = Object.keys(ids).find((n) => !onPage.includes(n))!;
    await page.locator('[data-testid="resource-list"] [data-lightbox-id]').first().click();
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(onPage[0]);
    expect(await page.textContent('.lightbox-count')).toBe('1 of 2+');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(onPage[1]);
    // Past the page's last resource the lightbox loads page 2 and goes on.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(offPage);
    expect(await page.textContent('.lightbox-count')).toBe('3 of 3');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(onPage[1]);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(offPage);

    // E: the info panel, with the name editable in place.
    await page.keyboard.press('e');
    const panel = page.locator('[data-testid="lightbox-panel"]');
    await panel.locator('input[name="Name"]').waitFor();
    expect(await panel.textContent()).toContain('300 × 200');
    await panel.locator('input[name="Name"]').fill('renamed.png');
    await panel.locator('input[name="Name"]').press('Enter');
    await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe('Name saved.');
    expect((await lib.json<{ Name: string }>('GET', `/v1/resource?id=${ids[offPage]}`)).body.Name).toBe('renamed.png');
    expect(await page.textContent('#lightbox-title')).toBe('renamed.png');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'info');

    // T: the quick-tag panel; a tag found by name is added, then comes back on key 1.
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('t');
    const search = panel.locator('input[name="tag-search"]');
    await search.waitFor();
    await search.pressSequentially('holi');
    await panel.getByRole('button', { name: 'Add holiday' }).click();
    await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe('Added holiday.');
    const tagsOf = async () => (await lib.json<{ Tags: { ID: number }[] }>('GET', `/v1/resource?id=${ids[offPage]}`)).body.Tags.map((t) => t.ID);
    expect(await tagsOf()).toEqual([tagId]);
    const slot = panel.locator('button.quick-tag[data-slot="1"]');
    expect(await slot.getAttribute('aria-pressed')).toBe('true');
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('1');
    await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe('Removed holiday.');
    expect(await tagsOf()).toEqual([]);
    expect(await panel.locator('button.quick-tag[data-slot="1"]').getAttribute('aria-pressed')).toBe('false');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'quick-tags');
    await page.close();
  });

  it('replaces the thumbnail with an image pasted on the resource page', async () => {
    const id = ids['first.png'];
    const etag = async () => (await lib.fetch(`/v1/resource/preview?ID=${id}`)).headers.get('etag');
    const before = await etag();
    expect(before).toBeTruthy();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resource?id=${id}`);
    const pasted = (await png(64, 64, 99)).toString('base64');
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, pasted);
    await expect.poll(() => page.textContent('[data-testid="thumbnail-status"]')).toBe('Thumbnail replaced with the pasted image.');
    expect(await etag()).not.toBe(before);
    // The page shows the new thumbnail without a reload, and made no new resource.
    expect(await page.getAttribute('img.preview', 'src')).toMatch(/[?&]v=\d+/);
    await page.waitForFunction(() => (document.querySelector('img.preview') as HTMLImageElement | null)?.complete === true);
    expect(await page.evaluate(() => (document.querySelector('img.preview') as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect((await lib.json<unknown[]>('GET', '/v1/resources')).body).toHaveLength(3);
    expect(await serious(page)).toEqual([]);
    await page.close();
  });
});
