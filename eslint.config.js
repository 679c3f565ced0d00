// ESLint: typescript-eslint with type information, so floating promises are caught.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { LEGACY_SQL } from './eslint.legacy.js';

// Where SQL may be written: repositories, the dialect seam and the migrations (issue 11).
const SQL_HOMES = ['src/**/repository.ts', 'src/**/*.repository.ts', 'src/core/db/**', 'src/*/schema/**'];

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'public/vendor/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        jsxPragma: 'h',
        jsxFragmentName: 'Fragment',
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Layers: SQL lives in repositories, engine differences in the dialect seam.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: [...SQL_HOMES, ...LEGACY_SQL],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom|executeQuery)$/]',
          message: "SQL belongs in the feature's repository (repository.ts); call a repository method instead.",
        },
        {
          selector: 'BinaryExpression[right.value=/^(sqlite|postgres)$/], BinaryExpression[left.value=/^(sqlite|postgres)$/]',
          message: 'Do not branch on the engine: ask the dialect (src/core/db/dialect) for the fragment.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['sql', 'Kysely', 'CompiledQuery', 'expressionBuilder'],
              allowTypeImports: true,
              message: "SQL belongs in the feature's repository (repository.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // byEngine() is for DDL whose whole shape differs; queries get a named dialect member.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/*/schema/**', 'src/core/db/**'],
    rules: {
      'no-restricted-properties': ['error', { property: 'byEngine', message: 'byEngine is for migrations; add a named member to the dialect instead.' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Scripts served to the browser from /public.
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
