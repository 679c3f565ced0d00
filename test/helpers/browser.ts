// Launches Debian's chromium through playwright-core. CI installs it (.ci/run); without it the
// browser tests fail under CI=true and are skipped, with a message, on a developer machine.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
