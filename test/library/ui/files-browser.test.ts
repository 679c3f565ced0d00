// Issue 16 items 3-5 in Chromium: the lightbox driven by the keyboard, drop and paste upload
// with a result per file, the note editor working in place (no reload) with keyboard reorder
// and @-mentions, and axe-core on each page touched. With UPDATE_SCREENSHOTS=1 it also writes
// docs/screenshots/files-*.png at 1400 px and 390 px, light and dark.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { seriousViolations } from '../../helpers/axe.js';
import { png, upload } from '../../helpers/resources.js';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'screenshots') : null;
const serious = seriousViolations;

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('viewing, uploading and editing in a browser', () => {
  let lib: TestLibrary;
  let browser: Browser;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    lib = await startTestLibrary(['-hash-worker-disabled']);
    browser = await launchBrowser();
    const add = async (name: string, data: Buffer, type: string) => {
      const r = await upload(lib, [{ name, data, type }]);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids[name] = r.body[0].ID;
    };
    await add('Holiday beach.png', await png(900, 600, 11), 'image/png');
    await add('Mountain lake.png', await png(640, 800, 12), 'image/png');
    await add('Trip notes.md', Buffer.from('# Trip notes\n\n- [x] book tickets\n- [ ] pack\n\n**Remember** the <script>alert(1)</script> [map](https://example.org/map).\n'), 'text/markdown');
    await add('budget.csv', Buffer.from('item,cost\nTrain,"1,200"\nHotel,800\n'), 'text/csv');
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  async function shoot(page: Page, name: string) {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    for (const [width, label] of [
      [1400, 'wide'],
      [390, 'phone'],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(150); // let layout settle after the resize (screenshots only)
        await page.screenshot({ path: join(SHOTS, `files-${name}-${label}-${scheme}.png`), fullPage: false });
      }
    }
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('opens the lightbox from a thumbnail and walks it with the keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resources`);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'resources');
    const order = await page.$$eval('[data-testid="resource-list"] [data-lightbox-id]', (els) => els.map((e) => e.getAttribute('data-lightbox-name')));
    expect(order).toHaveLength(4);

    const first = page.locator('[data-testid="resource-list"] [data-lightbox-id]').first();
    await first.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog.lightbox');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(order[0]);
    await page.waitForSelector('dialog.lightbox [data-testid="file-viewer"]');
    expect(await page.textContent('.lightbox-count')).toBe('1 of 4');

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(order[1]);
    expect(await page.textContent('.lightbox-count')).toBe('2 of 4');
    await page.keyboard.press('PageDown');
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(order[2]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft'); // wraps round to the last one
    await expect.poll(() => page.textContent('#lightbox-title')).toBe(order[3]);

    // Every file shows as itself: an image zooms, Markdown renders (escaped), CSV is a table.
    for (let i = 0; i < 4; i++) {
      const name = await page.textContent('#lightbox-title');
      await page.waitForFunction((id) => document.querySelector(`dialog.lightbox [data-resource-id="${id}"]`) !== null, ids[name!]);
      if (name?.endsWith('.png')) {
        await page.waitForFunction(() => (document.querySelector('dialog.lightbox .viewer-image') as HTMLImageElement | null)?.complete === true);
        await page.keyboard.press('+');
        expect(await page.getAttribute('dialog.lightbox .viewer-stage', 'data-zoom')).toBe('native');
        expect(await page.textContent('.lightbox-count')).toMatch(/ %$/);
        await page.keyboard.press('0');
        expect(await page.getAttribute('dialog.lightbox .viewer-stage', 'data-zoom')).toBe('fit');
        if (name === 'Holiday beach.png') await shoot(page, 'lightbox');
      } else if (name?.endsWith('.md')) {
        expect(await page.innerHTML('dialog.lightbox .viewer-markdown')).toContain('<strong>Remember</strong>');
        expect(await page.locator('dialog.lightbox .viewer-markdown script').count()).toBe(0);
        expect(await page.locator('dialog.lightbox .task-list input[type="checkbox"]').count()).toBe(2);
        expect(await serious(page)).toEqual([]);
      } else {
        expect(await page.textContent('dialog.lightbox .viewer-csv tbody tr:first-child td:nth-child(2)')).toBe('1,200');
      }
      await page.keyboard.press('ArrowRight');
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    // Focus goes back to the thumbnail that opened it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-lightbox-id'))).toBe(await first.getAttribute('data-lightbox-id'));
    await page.close();
  });

  it('shows the resource page with the file viewer and a download under the original name', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resource?id=${ids['Trip notes.md']}`);
    expect(await page.innerHTML('[data-testid="file-viewer"] .viewer-markdown')).toContain('<h1 id="trip-notes">Trip notes</h1>');
    expect(await page.getAttribute('.title-area a[download]', 'download')).toBe('Trip notes.md');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'resource-markdown');
    await page.goto(`${lib.url}/resource?id=${ids['Holiday beach.png']}`);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'resource-image');
    await page.close();
  });

  it('previews dropped and pasted files in a dialog, then uploads them with a result for each', async () => {
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Packing' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/note?id=${note.body.ID}`);
    // Bytes travel into the page as base64 (an array of numbers is slow to pass).
    const duplicate = (await png(900, 600, 11)).toString('base64');
    const fresh = (await png(200, 100, 77)).toString('base64');
    const broken = (await png(50, 50, 78)).subarray(0, 120).toString('base64');
    await page.evaluate(
      ([dup, fresh, broken]) => {
        const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes(fresh)], 'new photo.png', { type: 'image/png' }));
        dt.items.add(new File([bytes(dup)], 'same beach.png', { type: 'image/png' }));
        dt.items.add(new File([bytes(broken)], 'broken.png', { type: 'image/png' }));
        document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
        document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [duplicate, fresh, broken],
    );
    // Nothing is sent yet: the dialog previews the files and takes the focus.
    const dialog = page.locator('dialog#upload-dialog');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    const previews = page.locator('[data-testid="upload-preview-item"]');
    expect(await previews.count()).toBe(3);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('upload-start'))).toBe(true);
    expect(await page.textContent('#upload-dialog-title')).toBe('Upload 3 files');
    expect(await previews.first().locator('img.upload-thumb').count()).toBe(1);
    expect((await lib.json<{ Resources: unknown[] }>('GET', `/v1/note?id=${note.body.ID}`)).body.Resources).toHaveLength(0);
    expect(await page.locator('.drop-overlay').count()).toBe(0);

    // A paste outside a text field joins the batch (text becomes a text file).
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', 'a pasted thought');
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => previews.count()).toBe(4);
    expect(await previews.nth(3).locator('.upload-name').textContent()).toMatch(/^pasted-text-\d{8}T\d{6}\.txt$/);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'upload-preview');

    await page.keyboard.press('Enter'); // the focused Upload button
    const items = page.locator('[data-testid="upload-item"]');
    await expect.poll(() => items.count()).toBe(4);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="upload-item"]')].every((li) => (li as HTMLElement).dataset.result));
    const results = await items.evaluateAll((els) => els.map((e) => ({ name: e.querySelector('.upload-name')?.textContent, result: (e as HTMLElement).dataset.result, text: e.querySelector('.upload-result')?.textContent, href: e.querySelector('.upload-result a')?.getAttribute('href') })));
    expect(results[0]).toMatchObject({ name: 'new photo.png', result: 'created' });
    expect(results[1]).toMatchObject({ name: 'same beach.png', result: 'duplicate', href: `/resource?id=${ids['Holiday beach.png']}` });
    expect(results[2]).toMatchObject({ name: 'broken.png', result: 'refused' });
    expect(results[2].text).toMatch(/^Refused: .+/);
    expect(results[3]).toMatchObject({ result: 'created' });
    // Not every file made it, so the results stay, and the focus waits on Close.
    expect(await page.textContent('.upload-summary')).toBe('2 created, 1 already in the library, 1 refused.');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'upload');

    // Closing reloads the page to show what was added.
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Escape')]);
    const attached = await lib.json<{ Resources: { Name: string }[] }>('GET', `/v1/note?id=${note.body.ID}`);
    const names = attached.body.Resources.map((r) => r.Name).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('new photo.png');
    expect(names[1]).toMatch(/^pasted-text-/);
    await page.close();
  });

  it('uploads chosen files with tags, category and series by keyboard alone', async () => {
    const group = await lib.json<{ ID: number }>('POST', '/v1/group', { Name: 'Summer' });
    const tag = await lib.json<{ ID: number }>('POST', '/v1/tag', { Name: 'trips' });
    const category = await lib.json<{ ID: number }>('POST', '/v1/resourceCategory', { Name: 'Photos' });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${lib.url}/group?id=${group.body.ID}`);
    const dialog = page.locator('dialog#upload-dialog');
    const isOpen = () => dialog.evaluate((d) => (d as HTMLDialogElement).open);

    // Escape closes the dialog and sends nothing.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['draft'], 'draft.txt', { type: 'text/plain' }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await expect.poll(isOpen).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(isOpen).toBe(false);

    // The file field (the keyboard's way to files) opens the dialog too.
    await page.setInputFiles('#upload-target input[type="file"]', [
      { name: 'beach day.png', mimeType: 'image/png', buffer: await png(120, 80, 91) },
      { name: 'not this.txt', mimeType: 'text/plain', buffer: Buffer.from('leave me out') },
      { name: 'itinerary.txt', mimeType: 'text/plain', buffer: Buffer.from('day 1: beach') },
    ]);
    await expect.poll(isOpen).toBe(true);
    expect(await page.locator('[data-testid="upload-preview-item"]').count()).toBe(3);
    await page.getByRole('button', { name: 'Remove not this.txt' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.$$eval('[data-testid="upload-preview-item"] .upload-name', (els) => els.map((e) => e.textContent))).toEqual(['beach day.png', 'itinerary.txt']);

    // Focus stays in the dialog: Shift+Tab from its first control wraps to Cancel, Tab back.
    await page.getByRole('button', { name: 'Remove beach day.png' }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('upload-cancel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove beach day.png');

    // Tags and category by their pickers (Enter picks, Escape closes only the list).
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.focus();
    await page.keyboard.type('tri');
    await page.waitForSelector('dialog#upload-dialog .picker-results li[role="option"]');
    await page.keyboard.press('Escape');
    expect(await isOpen()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('dialog#upload-dialog .picker-results li[role="option"]');
    await page.keyboard.press('Enter');
    expect(await isOpen()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await page.keyboard.type('Pho');
    await page.waitForSelector('dialog#upload-dialog .picker-results li[role="option"]:has-text("Photos")');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('summer-2026');
    expect(await serious(page)).toEqual([]);
    // At 390 px neither the page nor the dialog scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    await shoot(page, 'upload-options');

    // Enter in the series field uploads; every file created, so the page reloads.
    await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
    const listed = await lib.json<{ ID: number; Name: string }[]>('GET', `/v1/resources?OwnerId=${group.body.ID}`);
    expect(listed.body.map((r) => r.Name).sort()).toEqual(['beach day.png', 'itinerary.txt']);
    for (const r of listed.body) {
      const full = await lib.json<{ Tags: { ID: number }[]; resourceCategoryId: number; series?: { Slug: string }; Groups: { ID: number }[] }>('GET', `/v1/resource?id=${r.ID}`);
      expect(full.body.Tags.map((t) => t.ID)).toEqual([tag.body.ID]);
      expect(full.body.resourceCategoryId).toBe(category.body.ID);
      expect(full.body.series?.Slug).toBe('summer-2026');
      expect(full.body.Groups.map((g) => g.ID)).toContain(group.body.ID);
    }
    await page.close();
  });

  it('edits note blocks in place, reorders them by keyboard and links mentions', async () => {
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Trip plan' });
    const noteId = note.body.ID;
    for (const text of ['First', 'Second', 'Third']) expect((await lib.json('POST', '/v1/note/block', { noteId, type: 'text', content: { text } })).status).toBeLessThan(300);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/note?id=${noteId}`);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const texts = () => page.$$eval('#note-blocks .blocks > section.block .block-text', (els) => els.map((e) => e.textContent?.trim()));
    await page.click('#edit-blocks');

    // Edit the second block: Markdown and a mention picked from the autocomplete.
    await page.click('#note-blocks section.block:nth-child(2) .block-edit');
    const area = page.locator('[data-testid="block-editor"] textarea[name="text"]');
    await area.fill('**Second**, see ');
    await area.press('End');
    await area.pressSequentially('@Holi');
    await page.waitForSelector('#mention-menu li[role="option"]');
    expect(await serious(page)).toEqual([]);
    await area.press('Enter');
    expect(await area.inputValue()).toBe(`**Second**, see @[resource:${ids['Holiday beach.png']}:Holiday beach.png] `);
    await page.click('[data-testid="block-editor"] button[type="submit"]');
    await page.waitForSelector('[data-testid="block-editor"]', { state: 'detached' });
    const second = page.locator('#note-blocks section.block:nth-child(2) .block-text');
    expect(await second.innerHTML()).toContain('<strong>Second</strong>');
    expect(await second.locator(`a.mention-resource[href="/resource?id=${ids['Holiday beach.png']}"]`).count()).toBe(1);
    await expect.poll(() => page.textContent('.block-status')).toBe('Saved the text block.');

    // Keyboard reorder: the handle's arrow keys move the block and keep the focus on it.
    const handle = page.locator('#note-blocks section.block:nth-child(3) .block-handle');
    await handle.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(texts).toEqual(['First', 'Third', 'Second, see Holiday beach.png']);
    await page.keyboard.press('ArrowUp');
    await expect.poll(texts).toEqual(['Third', 'First', 'Second, see Holiday beach.png']);
    expect(await page.evaluate(() => document.activeElement?.closest('section.block')?.querySelector('.block-text')?.textContent)).toBe('Third');
    expect(await page.textContent('.block-status')).toBe('Moved the text block to position 1 of 3.');
    const api = await lib.json<{ content: { text: string } }[]>('GET', `/v1/note/blocks?noteId=${noteId}`);
    expect(api.body.map((b) => b.content.text.slice(0, 5))).toEqual(['Third', 'First', '**Sec']);
    // The description follows the first text block.
    expect((await lib.json<{ Description: string }>('GET', `/v1/note?id=${noteId}`)).body.Description).toBe('Third');

    // Adding and deleting a block happen in place too.
    await page.selectOption('[data-testid="block-add"] select', 'text');
    await page.click('[data-testid="block-add"] button[type="submit"]');
    await page.waitForSelector('[data-testid="block-editor"]');
    await page.fill('[data-testid="block-editor"] textarea[name="text"]', '- [ ] buy sunscreen');
    await page.click('[data-testid="block-editor"] button[type="submit"]');
    await page.waitForSelector('#note-blocks .task-list');
    page.once('dialog', (d) => void d.accept());
    await page.click('#note-blocks section.block:nth-child(4) .block-controls button.danger');
    await expect.poll(() => page.locator('#note-blocks section.block').count()).toBe(3);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'note-editor');
    await page.close();
  });

  it('moves a block by dragging its handle', async () => {
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Drag' });
    for (const text of ['One', 'Two', 'Three']) await lib.json('POST', '/v1/note/block', { noteId: note.body.ID, type: 'text', content: { text } });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/note?id=${note.body.ID}`);
    await page.click('#edit-blocks');
    await page.dragAndDrop('#note-blocks section.block:nth-child(1) .block-handle', '#note-blocks section.block:nth-child(3)', { targetPosition: { x: 20, y: 40 } });
    await expect.poll(() => page.$$eval('#note-blocks .blocks > section.block .block-text', (els) => els.map((e) => e.textContent?.trim()))).toEqual(['Two', 'Three', 'One']);
    await page.close();
  });
});
