// /public/* static assets (companion §6.7): the project's public/ folder plus Alpine.js served
// from node_modules, so no front-end build step exists. Paths never leave their roots.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const PUBLIC_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../public');
const ALPINE = join(dirname(require.resolve('alpinejs/package.json')), 'dist', 'cdn.min.js');

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** `/public/*` alone; the share server serves these and nothing else of the main app. */
export function registerPublicAssets(app: FastifyInstance): void {
  app.get('/public/*', { config: { needs: 'public' } }, async (req, reply) => {
    let rel: string;
    try {
      rel = decodeURIComponent((req.params as { '*': string })['*']);
    } catch {
      return reply.callNotFound();
    }
    const file = rel === 'vendor/alpine.min.js' ? ALPINE : resolve(PUBLIC_ROOT, rel);
    if (file !== ALPINE && !file.startsWith(PUBLIC_ROOT + sep)) return reply.callNotFound();
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return reply.callNotFound();
    return reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Cache-Control', 'public, max-age=3600')
      .type(TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream')
      .send(createReadStream(file));
  });
}

export function registerAssets(app: FastifyInstance): void {
  registerPublicAssets(app);
  app.get('/', { config: { needs: 'read' } }, async (_req, reply) => reply.code(301).header('location', '/dashboard').send());
  app.get('/favicon.ico', { config: { needs: 'public' } }, async (_req, reply) => reply.code(301).header('location', '/public/favicon.svg').send());
}
