import { defineConfig } from 'vitest/config';

// Server code uses classic JSX with h/Fragment (see src/core/html/jsx.ts).
export default defineConfig({
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Migrates the run's template databases once (see test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Two cores: keep parallel servers modest.
    maxWorkers: 2,
    // Test files reuse their worker's loaded modules: evaluating the app's module graph again for
    // each file cost about 2.5 s of CPU per file (half the CPU of a typical file). Files must
    // therefore leave no global state behind (fake timers, spies: restore them in afterAll/afterEach).
    isolate: false,
  },
});
