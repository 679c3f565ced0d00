import { defineConfig } from 'vitest/config';

// Server code uses classic JSX with h/Fragment (see src/core/html/jsx.ts).
export default defineConfig({
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallel servers modest.
    maxWorkers: 2,
  },
});
