// Launches Debian's chromium through playwright-core. CI installs it (.ci/run); without it the
// browser tests fail under CI=true and are skipped, with a message, on a developer machine.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM) || process.env.CI === 'true';

if (!existsSync(CHROMIUM) && process.env.CI !== 'true') {
  console.warn(`browser tests skipped: ${CHROMIUM} not found (apt-get install chromium)`);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'screenshots') : null;

/**
 * With UPDATE_SCREENSHOTS=1, writes docs/screenshots/<name>-{wide,phone}-{light,dark}.png (1400
 * and 390 px); otherwise does nothing. Tests never compare them: they are for people to look at.
 */
export async function screenshotWidths(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of [1400, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150); // layout settles after a resize (screenshots only)
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width === 390 ? 'phone' : 'wide'}-${scheme}.png`) });
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}
