// Plugin actions in the clip web interface (issue 17 item 4): the Plugins screen lists plugins
// and runs global actions; a clip's dialog offers the clip actions that fit it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { fixtureF, startTestClips, type FixtureF, type TestClips } from '../helper.js';
import { openScreen, signIn } from '../ui/pages.js';
import { HELLO, install } from './helper.js';

const NOTE = `Plugin = { name = "Note", version = "2.0.0", description = "says <b>hi</b>",
  ui = { global_actions = { {id = "say", label = "Say something", options = {{id = "who", type = "text", label = "Who", required = true}}} } } }
function on_ui_action(id, clip_ids, options)
  modal.show({title = "Hello", content = "hi <b>" .. options.who .. "</b>"})
  return { success = true }
end`;

describe.skipIf(!browserAvailable)('plugins in the clip web interface', () => {
  let t: TestClips;
  let F: FixtureF;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    t = await startTestClips();
    F = await fixtureF(t);
    await install(t, 'hello.lua', HELLO);
    await install(t, 'note.lua', NOTE);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await signIn(page, t.url, F.KA);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists plugins, runs a global action with its form, and shows the dialog text as text', async () => {
    await openScreen(page, 'plugins');
    expect(await page.locator('.plugin h2').allTextContents()).toEqual(['Hello 1.0.0', 'Note 2.0.0']);
    expect(await page.locator('.plugin b').count()).toBe(0);
    await page.fill('input[id^="opt-2-say-who"]', '<i>you</i>');
    await page.click('form.plugin-action button[type=submit]');
    await page.waitForSelector('.plugin-modal-text');
    expect(await page.textContent('.plugin-modal-text')).toBe('hi <b><i>you</i></b>');
    expect(await page.locator('.plugin-modal b, .plugin-modal i').count()).toBe(0);
    expect(await page.textContent('#status')).toBe('Say something: done.');
  });

  it('disables and enables a plugin from its card', async () => {
    await page.locator('.plugin', { hasText: 'Hello' }).locator('button', { hasText: 'Disable' }).click();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Hello disabled.');
    expect((await t.req<{ plugins: { name: string; status: string }[] }>(F.KA, 'GET', '/plugins')).body.plugins[0].status).toBe('disabled');
    await page.locator('.plugin', { hasText: 'Hello' }).locator('button', { hasText: 'Enable' }).click();
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Hello enabled.');
  });

  it("offers a clip's fitting plugin actions in its dialog and says what happened", async () => {
    await openScreen(page, 'clips');
    await page.locator('.clip-card', { has: page.locator('.clip-name', { hasText: 'notes.txt' }) }).locator('.clip-name').click();
    await page.waitForSelector('dialog[open] .plugin-action');
    await page.fill('dialog[open] .plugin-action input', '!');
    await page.click('dialog[open] .plugin-action button[type=submit]');
    await page.waitForFunction(() => /^Uppercase: done\. It made clip \d+\.$/.test(document.getElementById('status')?.textContent ?? ''));
    const made = Number(/clip (\d+)/.exec((await page.textContent('#status')) ?? '')![1]);
    expect((await t.raw(F.KA, 'GET', `/clips/${made}/data`)).text).toBe('HELLO WORLD!');
    await page.keyboard.press('Escape');
    // A PNG does not fit the text/* action: no plugin section in its dialog.
    await page.locator('.clip-card', { has: page.locator('.clip-name', { hasText: 'shot.png' }) }).locator('.clip-name').click();
    await page.waitForSelector('dialog[open] .dialog-actions');
    expect(await page.locator('dialog[open] .plugin-action').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
