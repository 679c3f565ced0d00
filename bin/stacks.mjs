#!/usr/bin/env node
// Entry point for `npx stacks …`: loads the TypeScript CLI in-process through tsx's loader
// (the clip service through an in-memory bundle instead), so the checkout needs no build step
// and signals reach the service directly.
import { register } from 'tsx/esm/api';

if (process.argv[2] === 'clips') {
  // The clip service runs from an in-memory bundle to stay small (see src/clips/bundled.mjs).
  await import('../src/clips/bundled.mjs');
} else {
  register();
  await import('../src/cli.ts');
}
