// Plugin surfaces in Chromium (library-plugins.md §17, §22.3): an action button run from a
// resource page by keyboard, its parameter dialog and its reported outcome (sync, and an async
// job followed to its end), card and bulk actions on the resource table's rows, and a plugin block edited through window.mahBlock and saved without
// a reload. UPDATE_SCREENSHOTS=1 writes docs/screenshots/plugin-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { TEST_DB } from '../../helpers/library.js';
import { browserAvailable, launchBrowser, screenshotWidths } from '../../helpers/browser.js';
import { seriousViolations } from '../../helpers/axe.js';
import { png, upload } from '../../helpers/resources.js';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const serious = seriousViolations;
const shoot = (page: Page, name: string) => screenshotWidths(page, `plugin-${name}`);

const ACTIONS = `plugin = { name = "ui-actions", version = "1.0" }
function init()
  mah.action({ id = "greet", label = "Greet", entity = "resource", icon = "👋", placement = { "detail", "card", "bulk" },
    params = { { name = "greeting", type = "text", label = "Greeting", required = true, default = "Hello" } },
    handler = function(ctx) return { success = true, message = ctx.params.greeting .. ", resource " .. ctx.entity_id } end })
  mah.action({ id = "pair", label = "Pair", entity = "resource",
    params = { { name = "others", type = "entity_ref", entity = "resource", label = "Others", multi = true } },
    handler = function(ctx) return { success = true, message = "paired " .. #ctx.params.others .. " first " .. ctx.params.others[1] } end })
  mah.action({ id = "png-only", label = "PNG only", entity = "resource", placement = { "card" },
    filters = { content_types = { "image/png" } },
    handler = function(ctx) return { success = true, message = "png " .. ctx.entity_id } end })
  mah.action({ id = "later", label = "Later", entity = "resource", async = true,
    handler = function(ctx)
      mah.job_progress(ctx.job_id, 50, "half way")
      return { message = "all done" }
    end })
end`;

const BLOCKS = `plugin = { name = "ui-blocks", api_version = 1, capabilities = { "render" } }
function init()
  mah.block_type({
    type = "tally", label = "Tally",
    content_schema = { type = "object", properties = { title = { type = "string" } }, required = { "title" } },
    default_content = { title = "Untitled tally" }, default_state = { n = 0 },
    render_view = function(ctx)
      return '<div class="tally"><b>' .. mah.html_escape(ctx.block.content.title or "") .. '</b> ' .. tostring(ctx.block.state.n or 0) .. '</div>'
    end,
    render_edit = function(ctx)
      local id = ctx.block.id
      return '<label>Title <input id="tally-title-' .. id .. '" value="' .. mah.html_escape(ctx.block.content.title or "") .. '"></label> '
        .. '<button type="button" id="tally-save-' .. id .. '">Save title</button> '
        .. '<button type="button" id="tally-count-' .. id .. '">Count</button>'
        .. '<script>(function(){ var id = ' .. id .. ';'
        .. ' document.getElementById("tally-save-" + id).onclick = function(){ mahBlock.saveContent(id, { title: document.getElementById("tally-title-" + id).value }); };'
        .. ' document.getElementById("tally-count-" + id).onclick = function(){ var b = mahBlock.getBlock(id); mahBlock.updateState(id, { n: (b.state.n || 0) + 1 }); };'
        .. '})();</script>'
    end,
  })
end`;

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('plugin actions and blocks in the browser', () => {
  let lib: PluginTestLibrary;
  let browser: Browser;

  beforeAll(async () => {
    lib = await startWithPlugins({ 'ui-actions': ACTIONS, 'ui-blocks': BLOCKS }, ['-hash-worker-disabled']);
    for (const name of ['ui-actions', 'ui-blocks']) expect((await lib.enable(name)).status).toBe(200);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  it('runs an action from its button by keyboard and reports sync and async outcomes', async () => {
    const r = await upload(lib, [{ name: 'Harbour.png', data: await png(320, 200, 5), type: 'image/png' }]);
    const id = r.body[0].ID as number;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resource?id=${id}`);
    const greet = page.locator('[data-testid="plugin-actions"] button[data-plugin-action="greet"]');
    await greet.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog#plugin-action-detail-ui-actions-greet');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    const input = dialog.locator('input[name="greeting"]');
    expect(await input.inputValue()).toBe('Hello');
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'action-dialog');
    await input.fill('Howdy');
    await input.press('Enter');
    const status = page.locator('[data-testid="plugin-actions"] [data-testid="plugin-action-status"]');
    await expect.poll(() => status.textContent()).toBe(`Greet: Howdy, resource ${id}`);
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    // The dialog gives the focus back to the button that opened it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-plugin-action'))).toBe('greet');
    // An entity_ref parameter starts with the entity the action was run on, shown by name.
    await page.locator('button[data-plugin-action="pair"]').click();
    const pair = page.locator('dialog#plugin-action-detail-ui-actions-pair');
    await expect.poll(() => pair.locator('.chips .tag').allTextContents()).toEqual(['Harbour.png×']);
    await pair.locator('button[type="submit"]').click();
    await expect.poll(() => status.textContent()).toBe(`Pair: paired 1 first ${id}`);
    // An async action starts a job whose end the status line reports from the event stream.
    await page.locator('button[data-plugin-action="later"]').click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Later: completed — all done');
    await shoot(page, 'action-result');
    // The Downloads page's job panel lists the same job with its outcome, never its result table.
    await page.goto(`${lib.url}/downloads`);
    const job = page.locator('[data-testid="action-jobs"] tbody tr');
    await expect.poll(() => job.getAttribute('data-status')).toBe('completed');
    expect((await job.locator('td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['Later ui-actions · later', 'completed 100%', 'all done']);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'downloads-action-job');
    await page.getByRole('button', { name: 'Clear finished' }).press('Enter');
    await expect.poll(() => job.count()).toBe(0);
    expect(await page.locator('[data-testid="job-queue"] [role="status"]').textContent()).toBe('Cleared 1 finished job.');
    // The list shows the card menu on every card and the bulk bar once something is selected.
    await page.goto(`${lib.url}/resources`);
    expect(await page.locator('.resource-card .plugin-card-menu').count()).toBeGreaterThan(0);
    const bulk = page.locator('[data-testid="plugin-bulk-actions"]');
    expect(await bulk.isVisible()).toBe(false);
    await page.locator('.resource-card .select-box').first().check();
    await expect.poll(() => bulk.isVisible()).toBe(true);
    await bulk.locator('button[data-plugin-action="greet"]').click();
    await page.locator('dialog#plugin-action-bulk-ui-actions-greet button[type="submit"]').click();
    await expect.poll(() => page.locator('[data-testid="plugin-list-actions"] [data-testid="plugin-action-status"]').textContent()).toBe(`Greet: Hello, resource ${id}`);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'action-list');
    await page.close();
  });

  it('runs card actions from a resource table row and bulk actions from its selection bar, by keyboard', async () => {
    const uploaded = await upload(lib, [
      { name: 'Lighthouse.png', data: await png(200, 120, 9), type: 'image/png' },
      { name: 'Tide table.txt', data: Buffer.from('high water 06:12'), type: 'text/plain' },
    ]);
    const [image, text] = (uploaded.body as { ID: number }[]).map((r) => r.ID);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/resources/details`);
    const row = (id: number) => page.locator(`[data-testid="resource-table"] tr:has(.select-box[value="${id}"])`);
    const menuButtons = (id: number) => row(id).locator('.plugin-card-menu button[data-plugin-action]');
    // Every row offers the card actions unfiltered, as list pages do (§17.3).
    await expect.poll(() => menuButtons(image).evaluateAll((bs) => bs.map((b) => b.getAttribute('data-plugin-action')))).toEqual(['greet', 'png-only']);
    expect(await menuButtons(text).evaluateAll((bs) => bs.map((b) => b.getAttribute('data-plugin-action')))).toEqual(['greet', 'png-only']);
    const status = page.locator('[data-testid="plugin-list-actions"] [data-testid="plugin-action-status"]');
    // Row: from the selection box, Tab to the row's menu, open it, Tab to the action, run it.
    await row(image).locator('.select-box').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('details')?.classList.contains('plugin-card-menu'))).toBe(true);
    await page.keyboard.press('Enter');
    expect(await row(image).locator('.plugin-card-menu').getAttribute('open')).not.toBeNull();
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'action-table-row');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-plugin-action'))).toBe('png-only');
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toBe(`PNG only: png ${image}`);
    expect(await row(image).locator('.plugin-card-menu').getAttribute('open')).toBeNull();
    // Bulk: Space checks both rows, the bar appears, its action asks for its parameter.
    const bulk = page.locator('[data-testid="plugin-bulk-actions"]');
    expect(await bulk.isVisible()).toBe(false);
    for (const id of [image, text]) {
      await row(id).locator('.select-box').focus();
      await page.keyboard.press('Space');
    }
    await expect.poll(() => bulk.isVisible()).toBe(true);
    await bulk.locator('button[data-plugin-action="greet"]').focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog#plugin-action-bulk-ui-actions-greet');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toBe('Greet: 2 of 2 succeeded');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="plugin-bulk-actions"]') !== null)).toBe(true);
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'action-table-bulk');
    await page.close();
  });

  it('edits a plugin block through window.mahBlock and saves it without a reload', async () => {
    const note = await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Tally note' });
    const block = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId: note.body.ID, type: 'plugin:ui-blocks:tally' });
    expect(block.status).toBeLessThan(300);
    const b = block.body.id;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${lib.url}/note?id=${note.body.ID}`);
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    expect(await page.evaluate(() => Object.keys((window as unknown as { mahBlock: object }).mahBlock).sort())).toEqual(['getBlock', 'saveContent', 'updateState']);
    await page.click('#edit-blocks');
    await page.click(`#note-blocks section.block[data-block-id="${b}"] .block-edit`);
    const title = page.locator(`#tally-title-${b}`);
    await title.waitFor();
    // The plugin's editor receives the focus once it has loaded.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`tally-title-${b}`);
    await title.fill('Boats seen');
    await page.click(`#tally-save-${b}`);
    const view = page.locator(`#note-blocks section.block[data-block-id="${b}"] .tally`);
    await expect.poll(() => view.textContent()).toBe('Boats seen 0');
    expect(await page.locator('.block-status').textContent()).toBe('Saved the plugin:ui-blocks:tally block.');
    // The editor stays open on the fresh rendering; updateState replaces the state.
    await page.locator(`#tally-count-${b}`).click();
    await expect.poll(() => view.textContent()).toBe('Boats seen 1');
    expect(await page.evaluate((id) => (window as unknown as { mahBlock: { getBlock(id: number): unknown } }).mahBlock.getBlock(id), b)).toMatchObject({ id: b, content: { title: 'Boats seen' }, state: { n: 1 } });
    expect(await page.evaluate(() => (window as unknown as { mahBlock: { getBlock(id: number): unknown } }).mahBlock.getBlock(999999))).toBeNull();
    // A refused save (the schema requires a string title) is shown in the editor, and resolves.
    const answer = await page.evaluate((id) => (window as unknown as { mahBlock: { saveContent(id: number, c: unknown): Promise<unknown> } }).mahBlock.saveContent(id, { title: 5 }), b);
    expect(answer).toBeUndefined();
    await expect.poll(() => page.locator(`section.block[data-block-id="${b}"] .block-error`).textContent()).not.toBe('');
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    const saved = await lib.json<{ content: unknown; state: unknown }>('GET', `/v1/note/block?id=${b}`);
    expect(saved.body).toMatchObject({ content: { title: 'Boats seen' }, state: { n: 1 } });
    expect(await serious(page)).toEqual([]);
    await shoot(page, 'block-editor');
    await page.close();
  });
});
