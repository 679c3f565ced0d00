// Runs the command line from an esbuild bundle held in memory instead of through tsx's loader.
// On Node 20 the loader runs on its own thread with its own heap and caches, which costs about
// 60 MB; the clip service must stream a 100 MiB upload within 150 MB of resident memory. The
// bundle is rebuilt at every start (about 0.1 s) from the checkout, so nothing is built ahead.
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';

const builtins = new Set(builtinModules);

const result = await build({
  entryPoints: [fileURLToPath(new URL('./entry.ts', import.meta.url))],
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'error',
  plugins: [
    {
      // Packages stay outside the bundle, imported by absolute URL (a data: module has no
      // node_modules of its own to resolve bare names against).
      name: 'packages-by-url',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('node:') || builtins.has(args.path)) return { path: args.path, external: true };
          return { path: import.meta.resolve(args.path), external: true };
        });
      },
    },
  ],
});

// The bundler's helper process is not needed once the bundle exists.
await stop();
await import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].contents).toString('base64')}`);
