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
  'src/clips/tags/hidden.ts',
  'src/clips/tags/service.ts',
  'src/clips/tags/sql.ts',
  'src/library/categories/service.ts',
  'src/library/common/content.ts',
  'src/library/common/crud.ts',
  'src/library/common/list.ts',
  'src/library/common/named-repository.ts',
  'src/library/groups/filters.ts',
  'src/library/groups/hierarchy.ts',
  'src/library/groups/loaders.ts',
  'src/library/groups/pages.tsx',
  'src/library/groups/service.ts',
  'src/library/massEdit/engine.ts',
  'src/library/meta/editMeta.ts',
  'src/library/metaKeys/routes.ts',
  'src/library/partials/service.ts',
  'src/library/queries/readonly.ts',
  'src/library/queries/service.ts',
  'src/library/relations/pages.tsx',
  'src/library/relations/service.ts',
  'src/library/relations/types.ts',
  'src/library/series/service.ts',
];

// Import cycles that predate scripts/check-imports.mjs (issue 11 removes them; never add to it).
export const LEGACY_CYCLES = [
  'src/library/groups/service.ts',
  'src/library/groups/content.ts',
];
