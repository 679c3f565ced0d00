// The export and import pages: their HTML and JSON forms, the menu and group-page links, and a
// person exporting groups in one library and importing the archive into another in a browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestLibrary, TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { png, upload } from '../../helpers/resources.js';
import { exportArchive, parseArchive } from '../../helpers/transfer.js';

let a: TestLibrary;
let b: TestLibrary;
let root: number;
let child: number;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestLibrary(['-hash-worker-disabled']), startTestLibrary(['-hash-worker-disabled'])]);
  const tag = (await a.json<{ ID: number }>('POST', '/v1/tag', { Name: 'pagetag' })).body.ID;
  root = (await a.json<{ ID: number }>('POST', '/v1/group', { Name: 'Page root', Tags: [tag] })).body.ID;
  child = (await a.json<{ ID: number }>('POST', '/v1/group', { Name: 'Page child', OwnerId: root })).body.ID;
  expect((await upload(a, [{ name: 'page.png', data: await png(30, 20, 5) }], { OwnerId: root })).status).toBe(200);
  await a.json('POST', '/v1/note', { Name: 'Page note', OwnerId: child });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('pages', () => {
  it('renders the export page with the groups named in ?groups= picked', async () => {
    const res = await a.fetch(`/admin/export?groups=${root},999999,x`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="export-page"');
    expect(html).toContain('Page root');
    expect(html).toContain('/public/transfer.js');
    const json = await a.json<{ pageTitle: string; selected: { id: number; name: string }[]; defaults: { scope: Record<string, boolean> }; retentionMs: number }>('GET', `/admin/export.json?groups=${root}`);
    expect(json.body).toMatchObject({ pageTitle: 'Export groups', selected: [{ id: root, name: 'Page root' }], retentionMs: 24 * 3_600_000 });
    expect(json.body.defaults.scope.subtree).toBe(true);
    expect((await a.fetch('/public/transfer.js')).status).toBe(200);
  });

  it('renders the import page with the staged imports', async () => {
    const { bytes } = await exportArchive(a, { rootGroupIds: [root] });
    const { id } = await parseArchive(b, bytes);
    const json = await b.json<{ importId: string | null; staged: { id: string; status: string; archiveName: string }[]; maxImportSize: number }>('GET', `/admin/import.json?id=${id}`);
    expect(json.body.importId).toBe(id);
    expect(json.body.staged).toEqual([expect.objectContaining({ id, status: 'ready', archiveName: 'archive.tar' })]);
    expect(json.body.maxImportSize).toBe(10737418240);
    const html = await (await b.fetch('/admin/import')).text();
    expect(html).toContain('data-testid="import-page"');
    expect(html).toContain(`/admin/import?id=${id}`);
    expect((await b.json<{ importId: string | null }>('GET', '/admin/import.json?id=../../x')).body.importId).toBeUndefined();
    await b.fetch(`/v1/imports/${id}`, { method: 'DELETE' });
  });

  it('links Export and Import from the admin menu and Export from the group page', async () => {
    const html = await (await a.fetch(`/group?id=${root}`)).text();
    expect(html).toContain(`href="/admin/export?groups=${root}"`);
    expect(html).toContain('href="/admin/export"');
    expect(html).toContain('href="/admin/import"');
  });
});

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('exports from one library and imports into another, with choices', async () => {
    const page = await browser.newPage();
    await page.goto(`${a.url}/admin/export?groups=${root}`);
    await page.click('[data-testid="estimate"]');
    await page.waitForSelector('[data-testid="estimate-result"] >> text=groups');
    expect(await page.textContent('[data-testid="estimate-result"]')).toMatch(/groups\s*2/);
    await page.check('text=Compress the archive (gzip)');
    await page.click('[data-testid="export"]');
    const link = page.locator('[data-testid="download"]');
    await link.waitFor({ state: 'visible', timeout: 15_000 });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/v1\/exports\/[0-9a-f]{16}\/download$/);
    const archive = Buffer.from(await (await a.fetch(href!)).arrayBuffer());
    expect([archive[0], archive[1]]).toEqual([0x1f, 0x8b]);
    expect(await page.textContent('[data-testid="recent-exports"]')).toContain('completed');

    await page.goto(`${b.url}/admin/import`);
    await page.setInputFiles('input[type="file"]', { name: 'from-a.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await page.click('text=Upload and read');
    await page.waitForSelector('[data-testid="review"] >> text=Page child', { timeout: 15_000 });
    expect(page.url()).toMatch(/\/admin\/import\?id=[0-9a-f]{16}$/);
    // Leave out the child group and the tag.
    await page.uncheck('[data-testid="items"] li:has-text("Page child") input[type="checkbox"]');
    await page.uncheck('[data-testid="mappings"] tr:has-text("pagetag") input[type="checkbox"]');
    await page.click('[data-testid="apply"]');
    await page.waitForSelector('[data-testid="result"] >> text=created groups', { timeout: 15_000 });
    expect(await page.textContent('[data-testid="result"]')).toMatch(/created resources\s*1/);
    const groups = (await b.json<{ Name: string }[]>('GET', '/v1/groups')).body.map((g) => g.Name);
    expect(groups).toEqual(['Page root']);
    expect((await b.json<unknown[]>('GET', '/v1/tags')).body).toEqual([]);
    expect((await b.json<unknown[]>('GET', '/v1/notes')).body).toEqual([]);
    await page.close();
  });
});
