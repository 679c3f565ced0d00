// Writes screenshots of the main pages to docs/screenshots/ (issue 16): 1400 px and 390 px
// wide, light and dark, over the small library of test/helpers/page-inventory.ts.
// Run: npm run screenshots (needs Debian's chromium at /usr/bin/chromium or CHROMIUM_PATH).
import { existsSync, mkdirSync } from 'node:fs';
import { startTestLibrary } from './helpers/library.js';
import { CHROMIUM, launchBrowser } from './helpers/browser.js';
import { buildInventory } from './helpers/page-inventory.js';

if (!existsSync(CHROMIUM)) {
  console.error(`screenshots need chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  process.exit(1);
}
const only = process.argv.slice(2);
const out = 'docs/screenshots';
mkdirSync(out, { recursive: true });
const lib = await startTestLibrary(['-hash-worker-disabled']);
const browser = await launchBrowser();
try {
  const pages = (await buildInventory(lib)).filter((p) => p.main && (only.length === 0 || only.includes(p.name)));
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1400, 390]) {
      const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 }, colorScheme: scheme, deviceScaleFactor: 1, isMobile: width < 800 });
      const page = await context.newPage();
      for (const p of pages) {
        await page.goto(lib.url + p.path);
        await page.waitForLoadState('networkidle');
        const file = `${out}/${p.name}-${width}-${scheme}.png`;
        await page.screenshot({ path: file, fullPage: false });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await lib.close();
}
