// Finding a file of the checkout when this code runs from an in-memory bundle (the clip
// service runs as one, see src/clips/bundled.mjs): import.meta.url is then a data: URL, so the
// checkout is looked for above the command line script (bin/stacks.mjs) and in the working
// directory.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The checkout path `relative` under the first root that has it; throws naming `what`. */
export function findInCheckout(relative: string, what: string): string {
  const roots: string[] = [];
  if (process.argv[1]) {
    try {
      roots.push(resolve(dirname(realpathSync(process.argv[1])), '..'));
    } catch {
      // not a file: fall through to the working directory
    }
  }
  roots.push(process.cwd());
  for (const root of roots) {
    const candidate = resolve(root, relative);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot find ${what} (${relative}); looked under ${roots.join(', ')}`);
}
