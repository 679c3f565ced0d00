// Prints the statements (values inlined, for reading only) each direct scenario of mrql.md §23.3
// would run, so their plans can be inspected with the engine's own EXPLAIN.
// Run: npx tsx bench/mrql/explain.ts --backend sqlite|postgres --db <file or url> [--only id,id]
import { parseLibraryArgs } from '../../src/library/config.js';
import { startLibrary } from '../../src/library/main.js';
import { QUERIES } from './scenarios.js';
import { argText as arg } from '../args.js';

const backend = arg('backend', 'sqlite');
const only = arg('only', '').split(',').filter(Boolean);
const args = ['-bind-address', '127.0.0.1:0', '-quiet', '-mrql-default-limit', '500', '-db-dsn', arg('db', '')];
if (backend === 'postgres') args.push('-db-type', 'POSTGRES');
const lib = await startLibrary(parseLibraryArgs(args, {}).config, { log: () => undefined });
try {
  for (const [id, query, opts] of QUERIES) {
    if (only.length && !only.includes(id)) continue;
    const out = await lib.mrql.service.engine.explain(query, opts, false);
    for (const st of out.statements as { label: string; interpolated: string }[]) console.log(`-- ${id} (${st.label})\n${st.interpolated};\n`);
  }
} finally {
  await lib.close();
}
