// The one way the server fetches a URL a client named (URL imports, the download queue,
// calendar feeds): http and https only, every resolved address checked against the policy at
// connect time (so DNS rebinding cannot slip past) and again on every redirect hop, with
// connect, idle and overall timeouts and a size cap enforced while streaming.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { isForbiddenAddress, type AddressPolicy } from './addresses.js';

/** Why a fetch failed; download history buckets failures by these. */
export type FetchFailure = 'blocked' | 'timeout' | 'limit' | 'http' | 'unsupported' | 'other';

export class FetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    message: string,
    /** Detail for administrators (the audit log), never for the client. */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The host is, or resolves to, an address the policy forbids; the address stays in `detail`. */
export class ForbiddenAddressError extends FetchError {
  constructor(detail: Record<string, unknown>) {
    super('blocked', 'blocked request: it resolves to an address this server is not permitted to fetch from', detail);
  }
}

/** The redirect chain was longer than `maxRedirects`. */
export class TooManyRedirectsError extends FetchError {
  constructor() {
    super('http', 'too many redirects');
  }
}

export interface SafeFetchOptions {
  policy: AddressPolicy;
  /** Dial plus response headers, per hop. */
  connectTimeoutMs?: number;
  /** Longest pause between two chunks of the body. */
  idleTimeoutMs?: number;
  /** The whole fetch, body included. */
  overallTimeoutMs?: number;
  /** Body size cap in bytes; 0 or absent means none. */
  maxBytes?: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Request method (default GET); 301/302/303 redirects continue with GET and no body. */
  method?: string;
  body?: string | Buffer;
  /** Extra check of the first URL and of every redirect target; throw a FetchError to refuse it. */
  checkUrl?: (url: URL) => void;
}

export interface SafeResponse {
  /** The final URL after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** Content-Length when the server sent one. */
  contentLength: number | null;
  /** The body; errors with a FetchError on timeout or when it exceeds maxBytes. */
  body: Readable;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address, policy));
      if (bad || list.length === 0) {
        const e = new ForbiddenAddressError({ host: hostname, address: bad?.address });
        return callback(e as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
}

function parseTarget(text: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchError('unsupported', `not a valid URL: ${text.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('unsupported', `unsupported URL scheme ${url.protocol} (only http and https)`);
  }
  // Literal IPs never reach the resolver, so they are judged here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) && isForbiddenAddress(host, policy)) {
    throw new ForbiddenAddressError({ url: url.href, address: host });
  }
  return url;
}

function requestOnce(url: URL, opts: SafeFetchOptions, signal: AbortSignal, method: string, body: string | Buffer | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method,
      headers: { 'user-agent': 'Stacks/1', accept: '*/*', ...opts.headers },
      lookup: guardedLookup(opts.policy),
      signal,
    });
    const timer = opts.connectTimeoutMs
      ? setTimeout(() => req.destroy(new FetchError('timeout', `timed out: no response within ${opts.connectTimeoutMs} ms`)), opts.connectTimeoutMs)
      : undefined;
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

function asFetchError(err: unknown): FetchError {
  if (err instanceof FetchError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError') return new FetchError('timeout', 'the fetch was aborted');
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return new FetchError('http', `host not found: ${e.message}`);
  if (e?.code === 'ETIMEDOUT') return new FetchError('timeout', 'connection timed out');
  return new FetchError('other', e?.message ?? String(err));
}

/** Fetches `target`, following redirects; every hop passes the address policy. */
export async function safeFetch(target: string, opts: SafeFetchOptions): Promise<SafeResponse> {
  const abort = new AbortController();
  const overall = opts.overallTimeoutMs
    ? setTimeout(() => abort.abort(new FetchError('timeout', `timed out: the download took longer than ${opts.overallTimeoutMs} ms`)), opts.overallTimeoutMs)
    : undefined;
  const onOuterAbort = () => abort.abort(new FetchError('other', 'cancelled'));
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const finish = () => {
    clearTimeout(overall);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  };

  try {
    let url = parseTarget(target, opts.policy);
    opts.checkUrl?.(url);
    let method = (opts.method ?? 'GET').toUpperCase();
    let body = opts.body;
    for (let hop = 0; ; hop++) {
      let res: IncomingMessage;
      try {
        res = await requestOnce(url, opts, abort.signal, method, body);
      } catch (err) {
        throw abort.signal.aborted && abort.signal.reason instanceof FetchError ? abort.signal.reason : asFetchError(err);
      }
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode ?? 0) && location) {
        res.resume();
        if (hop >= (opts.maxRedirects ?? 10)) throw new TooManyRedirectsError();
        url = parseTarget(new URL(location, url).href, opts.policy);
        opts.checkUrl?.(url);
        if (res.statusCode !== 307 && res.statusCode !== 308 && method !== 'HEAD') {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const length = Number(res.headers['content-length']);
      const contentLength = Number.isFinite(length) && length >= 0 ? length : null;
      if (opts.maxBytes && contentLength !== null && contentLength > opts.maxBytes) {
        res.destroy();
        throw new FetchError('limit', `the file is larger than the limit of ${opts.maxBytes} bytes`);
      }
      return { url: url.href, status: res.statusCode ?? 0, headers: res.headers, contentLength, body: guardBody(res, opts, abort, finish) };
    }
  } catch (err) {
    finish();
    throw asFetchError(err);
  }
}

/** Counts bytes, enforces the cap and the idle timeout, and reports aborts as FetchErrors. */
function guardBody(res: IncomingMessage, opts: SafeFetchOptions, abort: AbortController, finish: () => void): Readable {
  let seen = 0;
  let idle: NodeJS.Timeout | undefined;
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (opts.maxBytes && seen > opts.maxBytes) return done(new FetchError('limit', `the file is larger than the limit of ${opts.maxBytes} bytes`));
      armIdle();
      done(null, chunk);
    },
  });
  const armIdle = () => {
    if (!opts.idleTimeoutMs) return;
    clearTimeout(idle);
    idle = setTimeout(() => out.destroy(new FetchError('timeout', `timed out: no data received for ${opts.idleTimeoutMs} ms`)), opts.idleTimeoutMs);
  };
  const stop = () => {
    clearTimeout(idle);
    finish();
  };
  armIdle();
  const onAbort = () => out.destroy(abort.signal.reason instanceof FetchError ? abort.signal.reason : new FetchError('other', 'cancelled'));
  abort.signal.addEventListener('abort', onAbort, { once: true });
  res.on('error', (err) => out.destroy(asFetchError(err)));
  // A consumer that already gave up (a pipeline torn down by the same abort) no longer listens;
  // a late error must not become an uncaught exception that stops the process.
  out.on('error', () => undefined);
  out.on('close', () => {
    stop();
    abort.signal.removeEventListener('abort', onAbort);
    res.destroy();
  });
  res.pipe(out);
  return out;
}
