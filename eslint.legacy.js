// Files that still build SQL or branch on the engine outside a repository or the dialect seam.
// Issue 11 empties this list feature by feature; the lint rules in eslint.config.js then apply
// everywhere. Never add to it.
export const LEGACY_SQL = [
];

// Import cycles that predate scripts/check-imports.mjs (issue 11 removes them; never add to it).
export const LEGACY_CYCLES = [
];
