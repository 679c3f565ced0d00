// The worker's code, bundled once per process from worker/main.ts with esbuild (a dependency
// already) and started as an eval worker. Bundling keeps the worker independent of how the
// main thread loads TypeScript: tsx, vitest, or the clip service's in-memory bundle.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
  const roots: string[] = [];
  if (process.argv[1]) {
    try {
      roots.push(resolve(dirname(realpathSync(process.argv[1])), '..'));
    } catch {
      // not a file: fall through to the working directory
    }
  }
  roots.push(process.cwd());
  for (const root of roots) {
    const candidate = resolve(root, 'src/core/lua', ENTRY);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot find the Lua worker source (${ENTRY}); looked under ${roots.join(', ')}`);
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
