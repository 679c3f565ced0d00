// The clip service's web interface (issue 16 item 8): `/` answers the page shell and `/ui/*`
// its scripts and styles from public/clips/. Everything here is static: no clip, tag or key
// data is ever rendered on the server; the page asks the API with the key the person typed,
// which it keeps in sessionStorage. Files are read once at start, so a request never touches
// the disk and no path from a request is ever resolved.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findInCheckout } from '../../core/checkout.js';

/** Where the UI's files live inside the checkout. */
const UI_DIR = 'public/clips';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Scripts only from this origin (no inline code, no eval); previews are blob: URLs made from
 * fetched clip bytes; the page talks to its own origin only and may not be framed.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': UI_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  // Revalidate every time (the ETag makes that a 304), so an upgraded service never runs
  // yesterday's script against today's API.
  'Cache-Control': 'no-cache',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The checkout's public/clips. From source (tsx, vitest) this module has a file: URL; inside
 * the clip service's in-memory bundle (src/clips/bundled.mjs) it has a data: URL, and the
 * checkout is found from the command line script (bin/stacks.mjs) or the working directory.
 */
export function locateUiDir(): string {
  if (import.meta.url.startsWith('file:')) return resolve(dirname(fileURLToPath(import.meta.url)), '../../..', UI_DIR);
  return findInCheckout(UI_DIR, 'the clip web interface');
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(dir, name));
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` });
  }
  return assets;
}

function send(req: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.headers(SECURITY_HEADERS).header('ETag', asset.etag).type(asset.type);
  if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.send(asset.body);
}

/** `GET /` (the page) and `GET /ui/<file>`; unknown files fall through to the JSON 404. */
export function registerClipUi(app: FastifyInstance, dir = locateUiDir()): void {
  const assets = loadAssets(dir);
  const page = assets.get('index.html');
  if (!page) throw new Error(`clip web interface incomplete: ${dir}/index.html missing`);
  app.get('/', async (req, reply) => send(req, reply, page));
  app.get('/ui/:file', async (req, reply) => {
    const asset = assets.get((req.params as { file: string }).file);
    if (!asset) return reply.callNotFound();
    return send(req, reply, asset);
  });
}
