// The clip interface in Chromium, the way people use it: sign in with a key (kept in the tab's
// session only), uploads by drop and paste with a result per file, search, the tag tree and a
// bulk action by keyboard, hidden tags, the other screens, escaping, and axe on every screen.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { axeViolations } from '../../helpers/axe.js';
import { startTestClips, type ClipJson, type TestClips } from '../helper.js';
import { HOSTILE_NAME, HOSTILE_TAG, sampleClips, type SampleClips } from './fixture.js';
import { cardNames, openScreen, SCREENS, signIn, tabTo } from './pages.js';

const seriousOnly = (violations: string[]) => violations.filter((v) => v.startsWith('serious') || v.startsWith('critical'));

describe.skipIf(!browserAvailable)('clip web interface in a browser', () => {
  let t: TestClips;
  let s: SampleClips;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    t = await startTestClips();
    s = await sampleClips(t);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Shorter than the test's own timeout, so a stuck step names itself.
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => void d.accept());
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const listed = async (query = '') => (await t.req<{ clips: ClipJson[] }>(t.admin, 'GET', `/clips${query}`)).body.clips;

  it('signs in with a key typed by keyboard and keeps it in the tab session only', async () => {
    await page.goto(`${t.url}/`);
    await page.waitForFunction(() => document.activeElement?.id === 'key');
    await page.keyboard.type('svc_000000000000000000000000000000000000000000000000');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#sign-in-error:not([hidden])');
    expect(await page.textContent('#sign-in-error')).toContain('not accepted');
    expect(await page.isVisible('#nav')).toBe(false);

    await page.fill('#key', '');
    await page.keyboard.type(t.admin);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.clip-card');
    expect(await page.textContent('#session-role')).toBe('admin');
    const kept = await page.evaluate(() => ({ session: sessionStorage.getItem('stacks.clips.key'), local: localStorage.length, cookie: document.cookie, url: location.href }));
    expect(kept.session).toBe(t.admin);
    expect(kept.local).toBe(0);
    expect(kept.cookie).toBe('');
    expect(kept.url).not.toContain(t.admin);
    expect(await page.context().cookies()).toEqual([]);

    // The same tab keeps the session across a reload; another tab does not have it.
    await page.reload();
    await page.waitForSelector('.clip-card');
    const other = await browser.newPage();
    await other.goto(`${t.url}/`);
    await other.waitForSelector('#key');
    await other.close();
    expect(errors).toEqual([]);
  });

  it('shows previews: images as pictures, text as text, other files by icon', async () => {
    await openScreen(page, 'clips');
    const card = (name: string) => page.locator('.clip-card', { has: page.locator('.clip-name', { hasText: name }) });
    await card('harbour.png').locator('.preview img').waitFor();
    expect(await card('harbour.png').locator('.preview img').getAttribute('src')).toMatch(/^blob:/);
    expect(await card('harbour.png').locator('.preview img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
    await card('pancakes.txt').locator('.text-snippet').waitFor();
    expect(await card('pancakes.txt').locator('.text-snippet').textContent()).toContain('200 g flour');
    expect(await card('invoice-2026-03.pdf').locator('.file-label').textContent()).toBe('PDF');
    expect(await card('archive.zip').locator('.file-label').textContent()).toBe('ZIP');
  });

  it('escapes clip names, tag names and text previews', async () => {
    await openScreen(page, 'clips');
    expect(await cardNames(page)).toContain(HOSTILE_NAME);
    const hostile = page.locator('.clip-card', { has: page.locator('.clip-name', { hasText: HOSTILE_NAME }) });
    await hostile.locator('.text-snippet').waitFor();
    expect(await hostile.locator('.text-snippet').textContent()).toContain('<script>window.pwned=2</script>');
    expect(await page.locator('.tag-tree').textContent()).toContain('<b>bold &amp; <i>');
    expect(await page.locator('.tag-tree b, .tag-tree i, img[src="x"], .clip-grid script').count()).toBe(0);
    await hostile.locator('.clip-name').click();
    await page.waitForSelector('dialog[open] .text-full');
    expect(await page.textContent('#clip-title')).toBe(HOSTILE_NAME);
    expect(await page.locator('dialog[open] .chip').first().textContent()).toContain(HOSTILE_TAG);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('uploads dropped files with a result per file: created, duplicate with a link, refused with the reason', async () => {
    await openScreen(page, 'clips');
    // The service refuses clips over 100 MiB; the browser is spared sending that many bytes.
    await page.route('**/api/v1/clips', async (route) => {
      if (route.request().postDataBuffer()?.includes('too-big.bin')) {
        return route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ error: 'clip exceeds 100 MiB limit' }) });
      }
      return route.continue();
    });
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['first dropped words'], 'dropped-one.txt', { type: 'text/plain' }));
      dt.items.add(new File(['second dropped words'], 'dropped-two.txt', { type: 'text/plain' }));
      dt.items.add(new File(['{"theme":"dark","retries":3,"endpoints":["a","b"]}'], 'same-as-config.json', { type: 'application/json' }));
      dt.items.add(new File(['pretend this is huge'], 'too-big.bin', { type: 'application/octet-stream' }));
      const target = document.querySelector('.clip-grid')!;
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Upload finished'));
    await page.unroute('**/api/v1/clips');
    expect(await page.textContent('#status')).toBe('Upload finished: 2 created, 1 duplicate, 1 refused.');
    const row = (name: string) => page.locator('.upload-row', { hasText: name }).locator('.upload-result');
    expect(await row('dropped-one.txt').textContent()).toBe('Created dropped-one.txt');
    expect(await row('dropped-two.txt').textContent()).toBe('Created dropped-two.txt');
    expect(await row('same-as-config.json').textContent()).toContain('Already stored as config.json');
    expect(await row('too-big.bin').textContent()).toBe('Refused: Clip exceeds 100 MiB limit');
    expect(await page.locator('.upload-row progress').first().evaluate((p: HTMLProgressElement) => p.value)).toBe(1);
    const names = (await listed()).map((c) => c.filename);
    expect(names).toEqual(expect.arrayContaining(['dropped-one.txt', 'dropped-two.txt']));
    expect(names).not.toContain('same-as-config.json');
    await page.waitForFunction(() => [...document.querySelectorAll('.clip-name')].some((b) => b.textContent === 'dropped-one.txt'));

    // The duplicate's link opens the clip that was already stored.
    await row('same-as-config.json').locator('button').click();
    await page.waitForSelector('dialog[open]');
    expect(await page.textContent('#clip-title')).toBe('config.json');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
  });

  it('uploads pasted text and pasted images', async () => {
    await openScreen(page, 'clips');
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', 'words pasted from somewhere');
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Upload finished: 1 created.');
    const text = (await listed('?search=pasted%20from')).map((c) => c.filename);
    expect(text).toHaveLength(1);
    expect(text[0]).toMatch(/^pasted \d{4}-\d\d-\d\d \d\d-\d\d-\d\d\.txt$/);

    const png = [...(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0392b' } }).png().toBuffer())];
    await page.evaluate((bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }));
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, png);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Upload finished: 1 created.' && document.querySelectorAll('.upload-row').length === 6);
    const images = (await listed()).filter((c) => c.content_type === 'image/png').map((c) => c.filename);
    expect(images.some((n) => /^pasted .*\.png$/.test(n))).toBe(true);

    // Text typed into a field stays in the field.
    const before = (await listed()).length;
    await page.focus('#search');
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', 'not a clip');
      document.getElementById('search')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    expect((await listed()).length).toBe(before);
    await page.click('#uploads-close');
  });

  it('uploads through the file chooser, reached by keyboard', async () => {
    await openScreen(page, 'clips');
    await page.locator('#main').focus();
    await tabTo(page, '#upload-button');
    // Enter goes to the button itself: a list refresh left over from the previous test can redraw
    // the toolbar after Tab reached it (seen once under CI load), and a key pressed on the page
    // would then land on nothing.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#upload-button').press('Enter')]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles([
      { name: 'chosen-a.txt', mimeType: 'text/plain', buffer: Buffer.from('chosen by keyboard a') },
      { name: 'chosen-b.txt', mimeType: 'text/plain', buffer: Buffer.from('chosen by keyboard b') },
    ]);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Upload finished: 2 created.');
    expect((await listed('?search=chosen%20by%20keyboard')).map((c) => c.filename).sort()).toEqual(['chosen-a.txt', 'chosen-b.txt']);
    await page.click('#uploads-close');
  });

  it('searches by keyboard', async () => {
    await openScreen(page, 'clips');
    await page.locator('#main').focus();
    await tabTo(page, '#search');
    await page.keyboard.type('kick-off');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('result-summary')?.textContent?.includes('kick-off'));
    expect(await cardNames(page)).toEqual(['meeting notes.md']);
    expect(await page.textContent('#result-summary')).toBe('1 clip matching “kick-off”');
    await page.fill('#search', '');
    await page.press('#search', 'Enter');
    await page.waitForFunction(() => !document.getElementById('result-summary')?.textContent?.includes('matching'));
  });

  it('walks the tag tree by keyboard: arrows move, Enter filters, Left and Right fold', async () => {
    await openScreen(page, 'clips');
    await page.locator('#main').focus();
    await tabTo(page, '.tag-link.all');
    for (let i = 0; i < 20; i++) {
      if ((await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)) === 'personal/travel') break;
      await page.keyboard.press('ArrowDown');
    }
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('personal/travel');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('result-summary')?.textContent?.includes('tagged personal/travel'));
    expect((await cardNames(page)).sort()).toEqual(['forest.png', 'harbour.png']);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('personal/travel');

    await page.keyboard.press('ArrowLeft'); // to the parent
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('personal');
    await page.keyboard.press('ArrowLeft'); // folds it
    expect(await page.isVisible('.tag-link[data-path="personal/travel"]')).toBe(false);
    await page.keyboard.press('ArrowRight'); // unfolds it
    expect(await page.isVisible('.tag-link[data-path="personal/travel"]')).toBe(true);
  });

  it('archives the selected clip with the bulk bar, by keyboard', async () => {
    // Still filtered to personal/travel.
    await page.locator('#main').focus();
    await tabTo(page, '.clip-card input.select');
    const name = await page.evaluate(() => document.activeElement!.closest('.clip-card')!.querySelector('.clip-name')!.textContent);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('.bulk-count')?.textContent === '1 clip selected');
    await tabTo(page, '.bulk-bar button[data-op="archive"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Archived 1 clip.');
    const archived = (await listed('?archived=true')).map((c) => c.filename);
    expect(archived).toContain(name);
    expect(await cardNames(page)).not.toContain(name);
  });

  it('tags the selected clips in bulk', async () => {
    await openScreen(page, 'clips');
    await page.click('.tag-link.all');
    await page.waitForFunction(() => !document.getElementById('result-summary')?.textContent?.includes('tagged'));
    for (const name of ['dropped-one.txt', 'dropped-two.txt']) {
      await page.locator('.clip-card', { has: page.locator('.clip-name', { hasText: name }) }).locator('input.select').check();
    }
    await page.selectOption('#bulk-tag', String(s.tags['work/client-b']));
    await page.click('.bulk-bar button[data-op="tag"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Tagged 2 clips with work/client-b.');
    const tagged = (await listed(`?tag=${s.tags['work/client-b']}`)).map((c) => c.filename).sort();
    expect(tagged).toEqual(['dropped-one.txt', 'dropped-two.txt', 'invoice-2026-03.pdf']);
  });

  it('hides the clips of a hidden tag and says how many were withheld', async () => {
    await openScreen(page, 'clips');
    expect(await cardNames(page)).toContain('diary.txt');
    await page.click('.tag-link[data-path="private"] + .hide-toggle');
    await page.waitForFunction(() => document.querySelector('.hidden-info')?.textContent?.includes('hidden by the tag private'));
    expect(await cardNames(page)).not.toContain('diary.txt');
    expect(await page.textContent('.hidden-info p')).toContain('1 clip hidden by the tag private.');
    expect((await t.req<{ ids: number[] }>(t.admin, 'GET', '/tags/hidden')).body.ids).toEqual([s.tags.private]);
    await page.click('.hidden-info button');
    await page.waitForFunction(() => [...document.querySelectorAll('.clip-name')].some((b) => b.textContent === 'diary.txt'));
    await page.click('.hidden-info button'); // hide them again
    await page.waitForFunction(() => ![...document.querySelectorAll('.clip-name')].some((b) => b.textContent === 'diary.txt'));
  });

  it('renames and tags a clip in its details', async () => {
    await openScreen(page, 'clips');
    await page.click('.clip-name:text-is("dropped-two.txt")');
    await page.waitForSelector('dialog[open] #rename');
    await page.fill('#rename', 'renamed.txt');
    await page.press('#rename', 'Enter');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Renamed to renamed.txt.');
    expect(await page.textContent('#clip-title')).toBe('renamed.txt');
    expect(await page.inputValue('#rename')).toBe('renamed.txt');
    // The dialog was drawn again with the new name; the keyboard is still on the name field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rename');
    await page.fill('#rename', 'bad/name');
    await page.press('#rename', 'Enter');
    await page.waitForFunction(() => document.getElementById('status')?.className.includes('error'));
    expect(await page.textContent('#status')).toMatch(/^Could not rename: /);
    await page.keyboard.press('Escape');
  });

  it('sets and cancels the expiry of a clip in its details', async () => {
    await openScreen(page, 'clips');
    await page.click('.clip-name:text-is("renamed.txt")');
    await page.waitForSelector('dialog[open] #expire-after');
    const calls: string[] = [];
    const seen = (r: import('playwright-core').Request) => {
      if (r.url().includes('/expiration')) calls.push(`${r.method()} ${r.postData() ?? ''}`.trim());
    };
    page.on('request', seen);
    await page.selectOption('#expire-after', { label: '1 day' });
    await page.click('dialog[open] .expiry button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'renamed.txt will be deleted automatically in 1 day.');
    await page.click('dialog[open] .expiry button:text-is("Never expire")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'renamed.txt will not expire.');
    // Redrawn without that button: the keyboard lands inside the dialog, not on the page behind it.
    expect(await page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null)).toBe(true);
    page.off('request', seen);
    expect(calls).toEqual(['PUT {"minutes":1440}', 'DELETE']);
    await page.keyboard.press('Escape');
  });

  it('makes a key, shows its secret once, and revokes it (admin)', async () => {
    await openScreen(page, 'keys');
    await page.fill('#key-name', 'laptop <sync>');
    await page.selectOption('#key-role', 'viewer');
    await page.press('#key-name', 'Enter');
    const secret = await (await page.waitForSelector('[data-testid="new-key"]')).textContent();
    expect(secret).toMatch(/^svc_/);
    expect(await page.textContent('#status')).toBe('Created the key laptop <sync>; copy it from the box above.');
    type Key = { id: number; name: string; role: string; is_revoked: boolean; key_prefix: string };
    const made = (await t.req<Key[]>(t.admin, 'GET', '/keys')).body.find((k) => k.name === 'laptop <sync>')!;
    expect(made).toMatchObject({ role: 'viewer', is_revoked: false, key_prefix: secret!.slice(0, 8) });
    // The new key works, and the table lists it by name (escaped).
    expect((await t.req(secret!, 'GET', '/tags')).status).toBe(200);
    expect(await page.textContent('.keys-list')).toContain('laptop <sync>');
    await page.click('button[aria-label="Revoke laptop <sync>"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Revoked laptop <sync>.');
    expect((await t.req<Key[]>(t.admin, 'GET', '/keys')).body.find((k) => k.id === made.id)?.is_revoked).toBe(true);
    expect((await t.req(secret!, 'GET', '/tags')).status).toBe(401);
  });

  it('merges duplicates on the dedup screen', async () => {
    await openScreen(page, 'dedup');
    expect(await page.locator('.dedup-group').count()).toBe(1);
    expect(await page.textContent('.dedup-group')).toContain('2 copies');
    await page.click('.dedup-group button:text-is("Keep oldest, merge")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Merged 2 copies'));
    expect(await page.textContent('main')).toContain('No duplicates');
    expect((await t.req<{ total: number }>(t.admin, 'GET', '/dedup')).body.total).toBe(0);
  });

  it('manages watch folders', async () => {
    await openScreen(page, 'watch');
    expect(await page.textContent('.watch-list')).toContain(s.watchDir);
    await page.click('.watch-folder button:text-is("Pause")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Paused'));
    expect(await page.textContent('.watch-folder .badge')).toBe('paused');
    const dir = join(t.dir, 'scans');
    mkdirSync(dir);
    await page.fill('#watch-path', dir);
    await page.selectOption('#watch-mode', 'presets');
    await page.check('fieldset.presets input[value="images"]');
    await page.click('form button:text-is("Watch folder")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Now watching'));
    await page.waitForFunction(() => document.querySelectorAll('.watch-folder').length === 2);
    expect(await page.textContent('.watch-list')).toContain('Imports only images');
    await page.fill('#watch-path', 'relative/path');
    await page.click('form button:text-is("Watch folder")');
    await page.waitForFunction(() => document.getElementById('status')?.className.includes('error'));
    expect(await page.textContent('#status')).toMatch(/^Could not watch the folder: /);
  });

  it('starts and stops serving a tag', async () => {
    await openScreen(page, 'serve');
    expect(await page.textContent('main')).toContain('No tag is served');
    await page.selectOption('#serve-tag', String(s.tags['personal/travel']));
    await page.click('form button:text-is("Start serving")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Serving personal/travel at http://127.0.0.1:'));
    const href = await page.getAttribute('.serve-item a', 'href');
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await page.click('.serve-item button');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Stopped serving personal/travel.');
    expect((await t.req<{ servers: unknown[] }>(t.admin, 'GET', '/serve')).body.servers).toEqual([]);
  });

  it('downloads a backup and restores it', async () => {
    await openScreen(page, 'backup');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#backup-download')]);
    expect(download.suggestedFilename()).toMatch(/^clip-service-backup-\d{8}-\d{6}\.zip$/);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Backup saved as'));
    const saved = join(t.dir, 'backup.zip');
    await download.saveAs(saved);

    const extra = await t.upload(t.admin, { filename: 'after-the-backup.txt', type: 'text/plain', data: 'made after the backup' });
    expect(extra.status).toBe(201);
    await page.setInputFiles('#restore-file', saved);
    await page.click('form button:text-is("Restore")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Restored.'));
    const names = (await listed('?archived=false')).map((c) => c.filename);
    expect(names).not.toContain('after-the-backup.txt');
    expect(names).toContain('meeting notes.md');

    // A file that is not a backup changes nothing and says why.
    const junk = join(t.dir, 'junk.zip');
    writeFileSync(junk, 'not a zip at all');
    await page.setInputFiles('#restore-file', junk);
    await page.click('form button:text-is("Restore")');
    await page.waitForFunction(() => document.getElementById('status')?.className.includes('error'));
    expect(await page.textContent('#status')).toMatch(/^Nothing was changed: Invalid backup file/);
  });

  it('renames, recolours and deletes a tag (admin)', async () => {
    await openScreen(page, 'clips');
    await page.click('.edit-tags summary');
    await page.selectOption('#edit-tag', String(s.tags['work/client-b']));
    expect(await page.inputValue('#edit-tag-name')).toBe('work/client-b');
    await page.fill('#edit-tag-name', 'work/client-c');
    await page.fill('#edit-tag-color', '#c0392b');
    await page.click('.edit-tag button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Saved tag work/client-c.');
    expect(await page.isVisible('.tag-link[data-path="work/client-c"]')).toBe(true);
    const tag = (await t.req<{ id: number; name: string; color: string }[]>(t.admin, 'GET', '/tags')).body.find((x) => x.id === s.tags['work/client-b'])!;
    expect(tag).toMatchObject({ name: 'work/client-c', color: '#c0392b' });
    expect(await page.inputValue('#edit-tag')).toBe(String(tag.id));

    await page.click('.edit-tag button:text-is("Delete tag")');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Deleted tag work/client-c.');
    expect(await page.locator('.tag-link[data-path="work/client-c"]').count()).toBe(0);
    expect((await t.req<{ name: string }[]>(t.admin, 'GET', '/tags')).body.map((x) => x.name)).not.toContain('work/client-c');
  });

  it('shows a viewer what it may do and refuses its uploads before sending them', async () => {
    const viewer = await t.key('viewer', 'viewer');
    const p = await browser.newPage();
    p.setDefaultTimeout(10_000);
    await signIn(p, t.url, viewer);
    await p.waitForSelector('.clip-card');
    expect(await p.textContent('#session-role')).toBe('viewer');
    expect(await p.locator('#upload-button, .bulk-bar button:text-is("Delete"), .new-tag').count()).toBe(0);
    await p.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['x'], 'nope.txt', { type: 'text/plain' }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await p.waitForFunction(() => document.getElementById('status')?.textContent?.includes('uploading needs an editor'));
    await p.close();
  });

  it('shows a tag-scoped key its own subtree only', async () => {
    const scoped = await t.key('scoped', 'editor', s.tags.personal);
    const p = await browser.newPage();
    p.setDefaultTimeout(10_000);
    await signIn(p, t.url, scoped);
    await p.waitForSelector('.clip-card');
    expect(await p.textContent('#session-role')).toBe('editor · scoped');
    const paths = await p.locator('.tag-link[data-path]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.path));
    expect(paths.every((x) => x === 'personal' || x!.startsWith('personal/'))).toBe(true);
    expect(await cardNames(p)).not.toContain('config.json');
    await openScreen(p, 'dedup');
    expect(await p.textContent('main')).toContain('not available to a key limited to one tag');
    await p.close();
  });

  it('goes back to sign-in when the key is revoked, and signs out on request', async () => {
    const key = await t.key('short-lived', 'editor');
    const p = await browser.newPage();
    p.setDefaultTimeout(10_000);
    await signIn(p, t.url, key);
    await p.waitForSelector('.clip-card');
    expect(await p.textContent('#session-role')).toBe('editor');
    const info = (await t.req<{ id: number; name: string }[]>(t.admin, 'GET', '/keys')).body.find((k) => k.name === 'short-lived')!;
    await t.req(t.admin, 'DELETE', `/keys/${info.id}`);
    // A preview still loading may meet the revoked key first and bring the sign-in back before
    // this click, so the click does not wait for the link to stay on screen.
    await p.evaluate(() => document.querySelector<HTMLElement>('.tag-link.all')?.click());
    await p.waitForSelector('#sign-in-error:not([hidden])');
    expect(await p.evaluate(() => sessionStorage.getItem('stacks.clips.key'))).toBeNull();
    await signIn(p, t.url, t.admin);
    await p.click('#sign-out');
    await p.waitForSelector('#key');
    expect(await p.evaluate(() => sessionStorage.length)).toBe(0);
    await p.close();
  });

  it('passes axe on every screen, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      // axe is injected as an inline script, which the page's CSP would refuse.
      const p = await browser.newPage({ colorScheme: scheme, bypassCSP: true });
      await p.goto(`${t.url}/`);
      await p.waitForSelector('#key');
      expect(seriousOnly(await axeViolations(p)), `sign-in ${scheme}`).toEqual([]);
      await signIn(p, t.url, t.admin);
      for (const screen of SCREENS) {
        await openScreen(p, screen);
        expect(seriousOnly(await axeViolations(p)), `${screen} ${scheme}`).toEqual([]);
      }
      await openScreen(p, 'clips');
      await p.click('.clip-name:text-is("meeting notes.md")');
      await p.waitForSelector('dialog[open] .text-full');
      expect(seriousOnly(await axeViolations(p)), `details ${scheme}`).toEqual([]);
      await p.close();
    }
    expect(errors).toEqual([]);
  }, 60_000);
});
