// The worker's code, bundled once per process from worker/main.ts with esbuild (a dependency
// already) and started as an eval worker. Bundling keeps the worker independent of how the
// main thread loads TypeScript: tsx, vitest, or the clip service's in-memory bundle.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { findInCheckout } from '../checkout.js';

export interface WorkerSource {
  code: string;
  /** Lua's WebAssembly binary, from the wasmoon package. */
  wasmPath: string;
}

const ENTRY = 'worker/main.ts';
let pending: Promise<WorkerSource> | undefined;

export function workerSource(): Promise<WorkerSource> {
  pending ??= bundle().catch((e: unknown) => {
    pending = undefined; // let a later VM try again
    throw e;
  });
  return pending;
}

/**
 * Where worker/main.ts is. From source (tsx, vitest) this module has a file: URL. Inside an
 * in-memory bundle (the clip service runs as one, see src/clips/bundled.mjs) it has a data:
 * URL instead; the checkout is then found from the command line script (bin/stacks.mjs) or
 * the working directory.
 */
export function locateWorkerEntry(): string {
  if (import.meta.url.startsWith('file:')) return fileURLToPath(new URL(ENTRY, import.meta.url));
  return findInCheckout(`src/core/lua/${ENTRY}`, 'the Lua worker source');
}

async function bundle(): Promise<WorkerSource> {
  const entry = locateWorkerEntry();
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return {
    code: result.outputFiles[0].text,
    wasmPath: createRequire(entry).resolve('wasmoon/dist/glue.wasm'),
  };
}
