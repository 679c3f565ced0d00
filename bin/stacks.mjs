#!/usr/bin/env node
// Entry point for `npx stacks …`: loads the TypeScript CLI in-process through tsx's loader,
// so the checkout needs no build step and signals reach the service directly.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
