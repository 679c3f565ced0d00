// A person in a browser: builds a note with three block types in the block editor, reorders
// them, ticks a todo, shares the note and views the shared page; sorts a table and browses a
// calendar in view mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('notes in a browser', () => {
  let lib: TestLibrary;
  let browser: Browser;
  beforeAll(async () => {
    lib = await startTestLibrary(['-share-port', '0', '-share-bind-address', '127.0.0.1']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  const blockTypes = (page: Page) => page.$$eval('#note-blocks .blocks > section.block', (els) => els.map((e) => (e as HTMLElement).dataset.blockType));

  // The editor works in place: the page never reloads, the status line says what happened.
  async function addBlock(page: Page, type: string) {
    await page.selectOption('[data-testid="block-add"] select', type);
    await page.click('[data-testid="block-add"] button[type="submit"]');
    await page.waitForSelector('[data-testid="block-editor"]');
  }

  async function save(page: Page) {
    await page.click('[data-testid="block-editor"] button[type="submit"]');
    await page.waitForSelector('[data-testid="block-editor"]', { state: 'detached' });
  }

  it('builds, reorders and shares a note', async () => {
    const page = await browser.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${lib.url}/note/new`);
    await page.fill('input[name="Name"]', 'Weekend trip');
    await Promise.all([page.waitForURL(/\/note\?id=\d+$/), page.click('[data-testid="note-form"] button[type="submit"]')]);
    const noteId = Number(new URL(page.url()).searchParams.get('id'));

    await page.click('#edit-blocks');
    await addBlock(page, 'heading');
    await page.fill('[data-testid="block-editor"] input[name="text"]', 'Packing list');
    await save(page);
    await addBlock(page, 'text');
    await page.fill('[data-testid="block-editor"] textarea[name="text"]', 'Leave on Friday evening.');
    await save(page);
    await addBlock(page, 'todos');
    await page.click('[data-testid="block-editor"] button:has-text("Add item")');
    await page.fill('[data-testid="block-editor"] .todo-editor li:nth-child(1) input', 'Tent');
    await page.click('[data-testid="block-editor"] button:has-text("Add item")');
    await page.fill('[data-testid="block-editor"] .todo-editor li:nth-child(2) input', 'Boots');
    await save(page);
    expect(await blockTypes(page)).toEqual(['heading', 'text', 'todos']);

    // Move the todos to the top, one step at a time, then the text below the heading stays last.
    const todos = '#note-blocks section.block-todos';
    await page.click(`${todos} button[aria-label="Move up"]`);
    await expect.poll(() => blockTypes(page)).toEqual(['heading', 'todos', 'text']);
    await page.click(`${todos} button[aria-label="Move up"]`);
    await expect.poll(() => blockTypes(page)).toEqual(['todos', 'heading', 'text']);
    const api = await lib.json<{ type: string }[]>('GET', `/v1/note/blocks?noteId=${noteId}`);
    expect(api.body.map((b) => b.type)).toEqual(['todos', 'heading', 'text']);
    expect((await lib.json<{ Description: string }>('GET', `/v1/note?id=${noteId}`)).body.Description).toBe('Leave on Friday evening.');

    // View mode: ticking a todo saves the block's state.
    await page.click('#edit-blocks');
    await page.check(`${todos} li:has-text("Tent") input`);
    await expect.poll(async () => (await lib.json<{ state: { checked: string[] } }[]>('GET', `/v1/note/blocks?noteId=${noteId}`)).body[0].state.checked.length).toBe(1);
    const todoContent = (await lib.json<{ content: { items: { label: string }[] } }[]>('GET', `/v1/note/blocks?noteId=${noteId}`)).body[0].content;
    expect(todoContent.items.map((i) => i.label)).toEqual(['Tent', 'Boots']);

    // Share it and open the public page on the share server.
    await Promise.all([page.waitForEvent('load'), page.click('[data-testid="sharing"] button:has-text("Share")')]);
    const path = await page.getAttribute('[data-testid="sharing"] .share-link', 'data-share-url');
    expect(path).toMatch(/^\/s\/[A-Za-z0-9_-]{32}$/);
    const shared = await browser.newPage();
    await shared.goto(`${lib.shareUrl}${path}`);
    expect(await shared.textContent('h1')).toBe('Weekend trip');
    expect(await shared.$$eval('section.block', (els) => els.map((e) => (e as HTMLElement).dataset.blockType))).toEqual(['todos', 'heading', 'text']);
    expect(await shared.textContent('section.block-heading')).toContain('Packing list');
    expect(await shared.textContent('section.block-text')).toContain('Leave on Friday evening.');
    expect(await shared.isChecked('section.block-todos li:has-text("Tent") input')).toBe(true);
    expect(await shared.locator('#edit-blocks').count()).toBe(0);
    // Visitors may tick todos too.
    await shared.check('section.block-todos li:has-text("Boots") input');
    await expect.poll(async () => (await lib.json<{ state: { checked: string[] } }[]>('GET', `/v1/note/blocks?noteId=${noteId}`)).body[0].state.checked.length).toBe(2);
    await shared.close();
    await page.close();
  });

  it('sorts a table and shows a calendar while viewing', async () => {
    const noteId = (await lib.json<{ ID: number }>('POST', '/v1/note', { Name: 'Viewing' })).body.ID;
    const table = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type: 'table', content: { columns: ['city', 'people'], rows: [{ city: 'Oslo', people: 700 }, { city: 'Bergen', people: 290 }, { city: 'Tromsø', people: 77 }] } });
    const cal = await lib.json<{ id: number }>('POST', '/v1/note/block', { noteId, type: 'calendar' });
    await lib.json('PATCH', `/v1/note/block/state?id=${cal.body.id}`, { state: { view: 'month', currentDate: '2024-05-15', customEvents: [{ id: 'x', title: 'Fjord cruise', start: '2024-05-18T09:00:00Z', end: '2024-05-18T17:00:00Z', allDay: false }] } });
    const page = await browser.newPage();
    await page.goto(`${lib.url}/note?id=${noteId}`);
    const cities = () => page.$$eval('section.block-table tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
    expect(await cities()).toEqual(['Oslo', 'Bergen', 'Tromsø']);
    await page.click('section.block-table th[data-column="people"] button');
    expect(await cities()).toEqual(['Tromsø', 'Bergen', 'Oslo']);
    await page.click('section.block-table th[data-column="people"] button');
    expect(await cities()).toEqual(['Oslo', 'Bergen', 'Tromsø']);
    await expect.poll(async () => (await lib.json<{ state: Record<string, string> }>('GET', `/v1/note/block?id=${table.body.id}`)).body.state).toEqual({ sortColumn: 'people', sortDirection: 'desc' });
    // Sorting while viewing changes the state only, never the stored rows.
    const stored = await lib.json<{ content: { rows: { city: string }[] } }>('GET', `/v1/note/block?id=${table.body.id}`);
    expect(stored.body.content.rows.map((r) => r.city)).toEqual(['Oslo', 'Bergen', 'Tromsø']);
    // The page renders the saved sort (people, descending) on the next visit.
    await page.reload();
    expect(await page.getAttribute('section.block-table th[data-column="people"]', 'aria-sort')).toBe('descending');
    expect(await cities()).toEqual(['Oslo', 'Bergen', 'Tromsø']);
    await page.click('section.block-table th[data-column="city"] button');
    expect(await cities()).toEqual(['Bergen', 'Oslo', 'Tromsø']);

    await page.waitForSelector('section.block-calendar td[data-day="2024-05-18"] .event');
    expect(await page.textContent('section.block-calendar td[data-day="2024-05-18"]')).toContain('Fjord cruise');
    await page.click('section.block-calendar button:has-text("Agenda")');
    await page.waitForSelector('section.block-calendar .calendar-agenda');
    expect(await page.textContent('section.block-calendar .calendar-agenda')).toContain('Fjord cruise');
    await expect.poll(async () => (await lib.json<{ state: { view: string } }>('GET', `/v1/note/block?id=${cal.body.id}`)).body.state.view).toBe('agenda');
    await page.close();
  });
});
