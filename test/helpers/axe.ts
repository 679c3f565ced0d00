// Runs axe-core (a dev dependency) in a playwright page and returns its violations, one line each.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
}

/** The violations a page must not have: serious and critical ones. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => v.startsWith('serious') || v.startsWith('critical'));
}
