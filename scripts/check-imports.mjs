// Checks the import graph of src/ (run by `npm run lint`): no import cycles, and the layers
// point one way — src/core imports nothing from library/ or clips/, and the two services never
// import each other. Imports are read as text (static `import … from` and `export … from`).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { LEGACY_CYCLES } from '../eslint.legacy.js';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+[^'";]*?\bfrom\s+['"]([^'"]+)['"]/g;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1];
    if (!spec.startsWith('.')) continue;
    let target = resolve(dirname(file), spec).replace(/\.js$/, '');
    const candidates = [`${target}.ts`, `${target}.tsx`, join(target, 'index.ts')];
    target = candidates.find((c) => all.has(c));
    if (target) out.push({ target });
  }
  return out;
}

const all = new Set(files(src));
const graph = new Map([...all].map((f) => [f, importsOf(f)]));
const rel = (f) => relative(root, f);
const area = (f) => rel(f).split('/')[1];
const problems = [];

for (const [file, deps] of graph) {
  for (const { target } of deps) {
    const from = area(file);
    const to = area(target);
    if (from === 'core' && (to === 'library' || to === 'clips')) problems.push(`${rel(file)} (core) imports ${rel(target)}`);
    if ((from === 'library' && to === 'clips') || (from === 'clips' && to === 'library')) problems.push(`${rel(file)} imports ${rel(target)} across services`);
  }
}

// Cycles, type-only imports included: a cycle of types is still two files that cannot be read apart.
const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const { target } of graph.get(file)) {
    if (state.get(target) === 'open') {
      const cycle = stack.slice(stack.indexOf(target)).concat(target);
      if (!cycle.every((f) => LEGACY_CYCLES.includes(rel(f)))) problems.push(`import cycle: ${cycle.map(rel).join(' → ')}`);
    } else if (!state.has(target)) visit(target);
  }
  stack.pop();
  state.set(file, 'done');
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} import problem(s)`);
  process.exit(1);
}
console.log(`imports: ${graph.size} files, no cycles, layers respected`);
