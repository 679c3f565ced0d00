// The lightbox past the list page it was opened from, its info (E) and quick-tag (T) panels
// with the QUICK 1–4 slots, zoom presets and CustomLightbox (companion §6.5), in Chromium by
// keyboard. UPDATE_SCREENSHOTS=1 writes
// docs/screenshots/lightbox-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser, screenshotWidths } from '../../helpers/browser.js';
import { seriousViolations } from '../../helpers/axe.js';
import { png, upload } from '../../helpers/resources.js';

const serious = seriousViolations;
const shoot = (page: Page, name: string) => screenshotWidths(page, `lightbox-${name}`);

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
    // B: the RECENT tab, where the tag just used waits on key 1.
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('b');
    expect(await panel.locator('[role="tab"][aria-selected="true"]').textContent()).toBe('Recent B');
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

  it('fills a QUICK slot with two tags, toggles it, and opens it by holding its key', async () => {
    const sea = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'sea' })).body.ID;
    const sand = (await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'sand' })).body.ID;
    const id = ids['second.png'];
    const tagsOf = async () => (await lib.json<{ Tags: { ID: number }[] }>('GET', `/v1/resource?id=${id}`)).body.Tags.map((t) => t.ID).sort();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resource?id=${id}`);
    await page.locator('[data-lightbox-id]').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog.lightbox [data-testid="file-viewer"]');

    // X: the panel opens on QUICK 2; Edit slots, key 5 picks the slot, the search fills it.
    await page.keyboard.press('x');
    const panel = page.locator('[data-testid="lightbox-panel"]');
    await expect.poll(() => panel.locator('[role="tab"][aria-selected="true"]').textContent()).toBe('Quick 2 X');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Quick 2 X');
    await panel.getByRole('button', { name: 'Edit slots' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('5');
    const search = panel.locator('input[name="tag-search"]');
    await expect.poll(() => search.evaluate((n) => n === document.activeElement)).toBe(true);
    for (const name of ['sea', 'sand']) {
      await search.fill('');
      await search.pressSequentially(name);
      const put = panel.getByRole('button', { name: `Put ${name} in slot 5` });
      await put.waitFor();
      await put.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe(`${name} put in slot 5.`);
    }
    expect(await panel.locator('.quick-slot-edit li').count()).toBe(2);
    await panel.getByRole('button', { name: 'Done editing slots' }).focus();
    await page.keyboard.press('Enter');
    const slot5 = panel.locator('button.quick-tag[data-slot="5"]');
    expect(await slot5.getAttribute('data-state')).toBe('none');
    // The slots sit in numpad order: 7 8 9 on top, 1 2 3 at the bottom.
    expect(await panel.locator('.quick-tags button.quick-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-slot')))).toEqual(['7', '8', '9', '4', '5', '6', '1', '2', '3']);
    expect(await serious(page)).toEqual([]);

    // A short press of 5 adds both tags; the slot turns green.
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('5');
    await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe('Added sea, sand.');
    expect(await tagsOf()).toEqual([sea, sand].sort());
    expect(await slot5.getAttribute('data-state')).toBe('all');
    expect(await slot5.getAttribute('aria-pressed')).toBe('true');

    // Held, 5 opens the slot: its key 2 takes sand off alone, and the slot turns amber.
    await page.keyboard.down('5');
    await panel.locator('.quick-slot-tags').waitFor();
    await page.keyboard.up('5');
    expect(await tagsOf()).toEqual([sea, sand].sort()); // releasing after the hold changes nothing
    await page.keyboard.press('2');
    await expect.poll(() => panel.locator('[role="status"]').textContent()).toBe('Removed sand.');
    expect(await tagsOf()).toEqual([sea]);
    expect(await serious(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await panel.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1400, height: 900 });
    await shoot(page, 'quick-slot');
    await page.keyboard.press('Escape'); // closes the slot, not the lightbox
    await expect.poll(() => panel.locator('.quick-slot-tags').count()).toBe(0);
    expect(await page.locator('dialog.lightbox').evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await slot5.getAttribute('data-state')).toBe('some');
    expect(await slot5.getAttribute('aria-pressed')).toBe('mixed');

    // The slots live in browser storage: a new page finds them, and the last tab, again.
    await page.goto(`${lib.url}/resource?id=${id}`);
    await page.locator('[data-lightbox-id]').first().click();
    await page.waitForSelector('dialog.lightbox [data-testid="file-viewer"]');
    await page.keyboard.press('t');
    await expect.poll(() => panel.locator('button.quick-tag[data-slot="5"] .quick-tag-names').textContent()).toBe('sea, sand');
    await page.close();
  });

  it('zooms to the presets and shows the category\'s CustomLightbox in the info panel', async () => {
    const withLightbox = await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: 'Prints', CustomLightbox: '<p class="lb-test">Print of <span x-text="entity.Name"></span></p>' });
    const withSidebar = await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: 'Scans', CustomSidebar: '<p class="sb-test">Scanned</p>' });
    const a = await upload(lib, [{ name: 'print.png', data: await png(400, 300, 41), type: 'image/png' }], { ResourceCategoryId: withLightbox.body.ID });
    const b = await upload(lib, [{ name: 'scan.png', data: await png(400, 300, 42), type: 'image/png' }], { ResourceCategoryId: withSidebar.body.ID });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resource?id=${a.body[0].ID}`);
    await page.locator('[data-lightbox-id]').first().click();
    await page.waitForFunction(() => (document.querySelector('dialog.lightbox .viewer-image') as HTMLImageElement | null)?.complete === true);
    const stage = page.locator('dialog.lightbox .viewer-stage');
    const presets = page.getByRole('combobox', { name: 'Zoom (0 fits)' });
    expect(await presets.inputValue()).toBe('fit');
    await presets.selectOption('stretch');
    expect(await stage.getAttribute('data-zoom')).toBe('stretch');
    // Stretch fills the window: a 400 px wide image is drawn wider than it is.
    expect(await page.locator('dialog.lightbox .viewer-image').evaluate((img) => img.clientWidth)).toBeGreaterThan(400);
    await presets.selectOption('2');
    expect(await stage.getAttribute('data-zoom')).toBe('native');
    expect(await page.locator('dialog.lightbox .viewer-image').evaluate((img) => img.clientWidth)).toBe(800);
    expect(await page.textContent('.lightbox-count')).toMatch(/200 %$/);
    await page.locator('dialog.lightbox .lightbox-close').focus();
    await page.keyboard.press('-');
    expect(await presets.inputValue()).toBe('1.5');
    await page.keyboard.press('0');
    expect(await presets.inputValue()).toBe('fit');
    expect(await stage.getAttribute('data-zoom')).toBe('fit');

    // Ctrl + wheel zooms in keeping the image point under the cursor where it was.
    await presets.selectOption('3');
    const img = page.locator('dialog.lightbox .viewer-image');
    const box = (await img.boundingBox())!;
    const stageBox = (await stage.boundingBox())!;
    const at = { x: box.x + box.width * 0.75, y: stageBox.y + 300 };
    const fraction = async () =>
      img.evaluate((n, p) => {
        const r = n.getBoundingClientRect();
        return [(p.x - r.left) / r.width, (p.y - r.top) / r.height];
      }, at);
    const [bx, by] = await fraction();
    await page.mouse.move(at.x, at.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect.poll(() => presets.inputValue()).toBe('4');
    expect(await stage.evaluate((n) => n.scrollLeft)).toBeGreaterThan(0);
    const [ax, ay] = await fraction();
    expect(ax).toBeCloseTo(bx, 2);
    expect(ay).toBeCloseTo(by, 2);
    await page.keyboard.press('0');

    await page.keyboard.press('e');
    const custom = page.locator('[data-testid="lightbox-custom"]');
    await custom.locator('.lb-test').waitFor();
    await expect.poll(() => custom.locator('.lb-test').textContent()).toBe('Print of print.png');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'custom');
    await page.keyboard.press('Escape');

    // Without a CustomLightbox the panel falls back to the CustomSidebar.
    await page.goto(`${lib.url}/resource?id=${b.body[0].ID}`);
    await page.locator('[data-lightbox-id]').first().click();
    await page.keyboard.press('e');
    await expect.poll(() => custom.locator('.sb-test').textContent()).toBe('Scanned');
    await page.close();
  });

  it('replaces the thumbnail with an image pasted on the resource page', async () => {
    const id = ids['first.png'];
    const etag = async () => (await lib.fetch(`/v1/resource/preview?ID=${id}`)).headers.get('etag');
    const before = await etag();
    expect(before).toBeTruthy();
    const count = (await lib.json<unknown[]>('GET', '/v1/resources')).body.length;
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
    expect((await lib.json<unknown[]>('GET', '/v1/resources')).body).toHaveLength(count);
    expect(await serious(page)).toEqual([]);
    await page.close();
  });
});
