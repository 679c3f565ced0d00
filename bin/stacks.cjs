#!/usr/bin/env node
// The command's entry (`npx stacks …`). CommonJS on purpose: Node reads an ES module entry
// through libuv's thread pool, which starts the pool — and reads UV_THREADPOOL_SIZE, once —
// before the module's first line runs. A CommonJS entry runs before any pool work, so it can
// still size the pool for the clip service, whose small uploads wait on fsyncs queued on it
// (bench/README.md, "Clip service"). A size set in the environment is kept.
'use strict';

const CLIP_THREADPOOL_SIZE = '16';

if (process.argv[2] === 'clips' && !process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = CLIP_THREADPOOL_SIZE;
import('./stacks.mjs').catch((e) => {
  console.error(e);
  process.exit(1);
});
