// The `http` Lua module and `clips.create_from_url` (companion §8.6, §8.9): every request and
// every redirect hop must name a host of the manifest's allow-list with the method listed for
// it, redirects must use https, and the guarded fetch refuses private addresses unless the
// service allows them. At most 100 requests a minute per plugin.
import type { AddressPolicy } from '../../../core/net/addresses.js';
import { FetchError, safeFetch, type SafeResponse } from '../../../core/net/safe-fetch.js';
import type { ClipApi } from './clips.js';
import { MAX_CREATE_BYTES } from './clips.js';
import { bytesArg, guard, PluginApiError, textArg, withinRate, type PluginInstance } from './common.js';

export const MAX_HTTP_BODY = 10 * 1024 * 1024;
const HTTP_TIMEOUT_MS = 5 * 60_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;
const REQUESTS_PER_MINUTE = 100;

/** Whether `host` matches an allow-list entry: exact, or `*.domain` with exactly one more label. */
export function matchEntry(entry: string, host: string): boolean {
  if (!entry.startsWith('*.')) return entry === host;
  const base = entry.slice(2);
  if (!host.endsWith(`.${base}`)) return false;
  const label = host.slice(0, -base.length - 1);
  return label.length > 0 && !label.includes('.');
}

/** Throws the plugin-facing refusal unless the manifest allows `method` on this URL's host. */
export function checkAllowed(network: Record<string, string[]>, url: URL, method: string): void {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const entries = Object.keys(network).filter((e) => matchEntry(e, host));
  if (entries.length === 0) throw new FetchError('blocked', `domain not in allowlist: ${host}`);
  if (!entries.some((e) => network[e].includes(method))) throw new FetchError('blocked', `method ${method} not allowed for ${host}: ${method} not allowed`);
}

/** `Content-Type` style casing of a header name. */
function canonical(name: string): string {
  return name.split('-').map((p) => (p ? p[0].toUpperCase() + p.slice(1).toLowerCase() : p)).join('-');
}

async function readCapped(res: SafeResponse, cap: number, truncate: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > cap) {
      if (!truncate) {
        res.body.destroy();
        throw new PluginApiError(`response exceeds ${cap / 1024 / 1024} MiB limit`);
      }
      chunks.push(chunk.subarray(0, chunk.length - (total - cap)));
      res.body.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export interface HttpApiDeps {
  policy: AddressPolicy;
  clipApi: ClipApi;
}

export function httpModules(plugin: PluginInstance, deps: HttpApiDeps) {
  const network = plugin.manifest.network;

  const request = async (method: string, rawUrl: unknown, rawOpts: unknown) => {
    const target = textArg(rawUrl, 'url');
    const opts = rawOpts && typeof rawOpts === 'object' && !Array.isArray(rawOpts) ? (rawOpts as Record<string, unknown>) : {};
    let first = true;
    const checkUrl = (url: URL) => {
      if (!first && url.protocol !== 'https:') throw new FetchError('blocked', 'redirect to a non-https URL refused');
      first = false;
      checkAllowed(network, url, method);
    };
    try {
      checkUrl(new URL(target));
    } catch (e) {
      if (e instanceof TypeError) throw new PluginApiError(`invalid URL: ${target.slice(0, 200)}`);
      throw e;
    }
    first = true;
    if (!withinRate(plugin, 'http', REQUESTS_PER_MINUTE)) throw new PluginApiError('rate limit exceeded: at most 100 requests per minute');
    const headers: Record<string, string> = {};
    if (opts.headers && typeof opts.headers === 'object') {
      for (const [k, v] of Object.entries(opts.headers as Record<string, unknown>)) if (v !== null) headers[k] = textArg(v, `header ${k}`);
    }
    const body = opts.body === undefined || opts.body === null ? undefined : bytesArg(opts.body, 'body');
    const res = await safeFetch(target, { policy: deps.policy, method, body, headers, checkUrl, connectTimeoutMs: HTTP_TIMEOUT_MS, overallTimeoutMs: HTTP_TIMEOUT_MS, maxRedirects: 10 });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[canonical(k)] = Array.isArray(v) ? v[0] : v;
    return { status: res.status, headers: out, body: await readCapped(res, MAX_HTTP_BODY, true) };
  };

  const verb = (method: string) => guard((url: unknown, opts: unknown) => request(method, url, opts));

  const createFromUrl = guard(async (rawUrl: unknown, rawOpts: unknown) => {
    const target = textArg(rawUrl, 'url');
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      throw new PluginApiError(`invalid URL: ${target.slice(0, 200)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new PluginApiError('only http and https URLs are supported');
    const checkUrl = (url: URL) => checkAllowed(network, url, 'GET');
    const opts = rawOpts && typeof rawOpts === 'object' && !Array.isArray(rawOpts) ? (rawOpts as Record<string, unknown>) : {};
    const res = await safeFetch(target, { policy: deps.policy, checkUrl, connectTimeoutMs: DOWNLOAD_TIMEOUT_MS, overallTimeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: MAX_CREATE_BYTES });
    if (res.status < 200 || res.status > 299) {
      res.body.resume();
      throw new PluginApiError(`download failed: HTTP ${res.status}`);
    }
    const data = await readCapped(res, MAX_CREATE_BYTES, false);
    // Here the aliases win when both of a pair are given (reference).
    const nameRaw = opts.name ?? opts.filename;
    const typeRaw = opts.mime_type ?? opts.content_type ?? res.headers['content-type'];
    const fromPath = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '');
    const filename = nameRaw === undefined || nameRaw === null ? [...fromPath].filter((c) => c >= ' ' && c !== '/' && c !== '\\').join('') : textArg(nameRaw, 'name');
    const type = typeRaw === undefined || typeRaw === null ? null : textArg(typeRaw, 'content_type').split(';')[0].trim().toLowerCase() || null;
    return { id: await deps.clipApi.store(data, filename.slice(0, 255), type === 'application/octet-stream' ? null : type) };
  });

  return {
    http: { get: verb('GET'), post: verb('POST'), put: verb('PUT'), patch: verb('PATCH'), delete: verb('DELETE') },
    createFromUrl,
  };
}
