// Files that still build SQL or branch on the engine outside a repository or the dialect seam.
// Issue 11 empties this list feature by feature; the lint rules in eslint.config.js then apply
// everywhere. Never add to it.
export const LEGACY_SQL = [
  'src/clips/clips/metadata.ts',
  'src/clips/clips/service.ts',
  'src/clips/dedup/service.ts',
  'src/clips/keys/cli.ts',
  'src/clips/keys/service.ts',
  'src/clips/tags/assign.ts',
  'src/clips/tags/service.ts',
  'src/clips/tags/sql.ts',
];

// Import cycles that predate scripts/check-imports.mjs (issue 11 removes them; never add to it).
export const LEGACY_CYCLES = [
];
