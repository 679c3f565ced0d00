// A person in a browser with -auth: sign in, use a CSRF-protected form, make an API token shown
// once, change a display setting, administer accounts, sign out. Each page passes axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TEST_DB, type TestLibrary } from '../../helpers/library.js';
import { browserAvailable, launchBrowser } from '../../helpers/browser.js';
import { axeViolations } from '../../helpers/axe.js';
import { ADMIN, asBearer, startAuthLibrary } from '../../helpers/accounts.js';

describe.skipIf(!browserAvailable || TEST_DB !== 'sqlite')('accounts in a browser', () => {
  let lib: TestLibrary;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    lib = await startAuthLibrary();
    browser = await launchBrowser();
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lib.url });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await lib?.close();
  });

  it('signs in from a protected page and comes back to it', async () => {
    await page.goto(`${lib.url}/tags`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('input[name="username"]', ADMIN.username);
    await page.fill('input[name="password"]', 'not the password');
    await Promise.all([page.waitForURL(/\/login\?error=1/), page.click('button[type="submit"]')]);
    expect(await page.textContent('.error-banner')).toContain('Invalid username or password.');
    await page.fill('input[name="username"]', ADMIN.username);
    await page.fill('input[name="password"]', ADMIN.password);
    await Promise.all([page.waitForURL(/\/tags$/), page.press('input[name="password"]', 'Enter')]);
    expect(await page.textContent('[data-testid="account-menu"] summary')).toContain('admin');
  });

  it('creates a tag through a CSRF-protected form; a forged token is refused', async () => {
    await page.goto(`${lib.url}/tag/new`);
    await page.fill('input[name="Name"]', 'signed-in tag');
    await Promise.all([page.waitForURL(/\/tag\?id=\d+$/), page.click('main button[type="submit"]')]);
    expect(await page.textContent('h1')).toBe('signed-in tag');

    await page.goto(`${lib.url}/tag/new`);
    await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', 'forged'));
    await page.fill('input[name="Name"]', 'forged tag');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/v1/tag')), page.click('main button[type="submit"]')]);
    expect(response.status()).toBe(403);
    await page.waitForSelector('text=Your session could not be verified');
    const tags = await lib.json<{ Name: string }[]>('GET', '/v1/tags', undefined, { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') });
    expect(tags.body.map((t) => t.Name)).toEqual(['signed-in tag']);
  });

  it('shows a new API token once, and only a prefix afterwards', async () => {
    await page.goto(`${lib.url}/account`);
    expect(await axeViolations(page)).toEqual([]);
    await page.fill('[data-testid="token-form"] input[name="name"]', 'browser token');
    await page.selectOption('[data-testid="token-form"] select[name="expiresIn"]', '720h');
    await page.click('[data-testid="token-form"] button[type="submit"]');
    const value = page.locator('[data-testid="token-value"]');
    await value.waitFor();
    const token = await value.inputValue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.isVisible('[data-testid="token-form"]')).toBe(false); // no second token until dismissed
    await page.click('[data-testid="token-once"] .token-row button', { timeout: 5000 });
    await page.waitForSelector('[data-testid="token-once"] button:has-text("Copied")', { timeout: 5000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect((await lib.json<{ username: string }>('GET', '/v1/auth/me', undefined, asBearer(token))).body.username).toBe('admin');
    await Promise.all([page.waitForEvent('load', { timeout: 5000 }), page.click('text=I have stored it', { timeout: 5000 })]);
    await page.waitForSelector('[data-testid="token-list"]', { timeout: 5000 });
    expect(await page.textContent('[data-testid="token-list"]')).toContain(token.slice(0, 8));
    expect(await page.content()).not.toContain(token);
  });

  it('saves a display setting as soon as it changes', async () => {
    await page.goto(`${lib.url}/account`);
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes('/v1/account/settings/showDescriptions')), page.check('#set-desc')]);
    expect(res.status()).toBe(200);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await lib.json('GET', '/v1/account/settings', undefined, { cookie })).body).toEqual({ showDescriptions: true });
  });

  it('creates, edits and protects accounts on the administration pages', async () => {
    await page.goto(`${lib.url}/admin/users`);
    expect(await axeViolations(page)).toEqual([]);
    await page.click('summary:has-text("New account")');
    await page.fill('[data-testid="user-form"] input[name="username"]', 'grandma');
    await page.fill('[data-testid="user-form"] input[name="displayName"]', 'Grandma');
    await page.fill('[data-testid="user-form"] input[name="password"]', 'knitting-needles');
    await page.selectOption('[data-testid="user-form"] select[name="role"]', 'editor');
    await Promise.all([page.waitForURL(/\/admin\/users$/), page.click('[data-testid="user-form"] button[type="submit"]')]);
    expect(await page.textContent('[data-testid="user-list"]')).toContain('grandma');

    await page.click('[data-testid="user-list"] a:has-text("admin")');
    await page.waitForURL(/\/admin\/users\/edit\?id=\d+/);
    expect(await axeViolations(page)).toEqual([]);
    await page.selectOption('select[name="role"]', 'user');
    await Promise.all([page.waitForURL(/\/admin\/users\/edit\?/), page.click('[data-testid="user-form"] button[type="submit"]')]);
    expect(await page.textContent('.error-banner')).toContain('cannot remove the last enabled administrator');
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL(/\/admin\/users\/edit\?.*error=/), page.click('button:has-text("Delete account")')]);
    expect(await page.textContent('.error-banner')).toContain('cannot remove the last enabled administrator');
  });

  it('signs out from the account menu', async () => {
    await page.goto(`${lib.url}/dashboard`);
    await page.click('[data-testid="account-menu"] summary');
    await Promise.all([page.waitForURL(/\/login$/), page.click('text=Sign out')]);
    await page.goto(`${lib.url}/tags`);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
