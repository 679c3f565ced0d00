// mah.http (library-plugins.md §13): outbound requests through the guarded fetch. The plugin's
// `network` list is checked before the request and on every redirect hop; every dialled address
// is checked after DNS, and a private one is reachable only when the manifest sets
// allow_private_hosts and names it with an IP or CIDR rule. Bodies are cut at 5 MiB, timeouts
// default to 10 s (at most 120 s) and a synchronous call never outlives its entry point's budget.
import { AsyncResource } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import { BlockList } from 'node:net';
import { currentLuaCall, LuaFunctionRef, luaText } from '../../core/lua/index.js';
import type { AddressPolicy } from '../../core/net/addresses.js';
import { FetchError, ForbiddenAddressError, safeFetch, TooManyRedirectsError, type SafeResponse } from '../../core/net/safe-fetch.js';
import { inPluginTransaction, refusedInTransaction } from './db-tx.js';
import { currentInvocation, invocations } from './invocation.js';
import type { MahPlugin } from './mah.js';
import { ruleMatchesHost, type NetworkRule } from './network.js';

export const HTTP_BODY_MAX = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_S = 10;
const MAX_TIMEOUT_S = 120;
const SYNC_HEADROOM_MS = 250;
const MAX_REDIRECTS = 10;
const MAX_ASYNC = 16;
const CALLBACK_BUDGET_MS = 5000;
const USER_AGENT = 'mahresources-plugin/1.0';
const SCHEME = /^https?:\/\//i;

const ADDRESS_REFUSED = "blocked request: the address it resolves to is not permitted by this plugin's `network` declaration";

type Response = Record<string, unknown>;

interface RequestSpec {
  method: string;
  url: string;
  body?: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** The address policy of a plugin (§13.5 (c)): only its own IP and CIDR rules lift the deny. */
function policyOf(rules: readonly NetworkRule[] | null, allowPrivate: boolean): AddressPolicy {
  const allowed = new BlockList();
  if (allowPrivate) {
    for (const r of rules ?? []) {
      const type = r.kind === 'ip' || r.kind === 'cidr' ? (r.family === 4 ? 'ipv4' : 'ipv6') : null;
      if (r.kind === 'ip' && type) allowed.addAddress(r.canonical, type);
      if (r.kind === 'cidr' && type) allowed.addSubnet(r.canonical.split('/')[0], r.bits, type);
    }
  }
  return { allowPrivate: false, allowed };
}

/** Everything a request needs to know about the plugin's network declaration. */
export interface Egress {
  rules: readonly NetworkRule[] | null;
  policy: AddressPolicy;
}

/** What is left of the current entry point's budget for a synchronous fetch, capped at `capMs`. */
export function remainingBudget(capMs: number): number {
  const call = currentLuaCall();
  return call && Number.isFinite(call.deadline) ? Math.min(capMs, call.deadline - Date.now() - SYNC_HEADROOM_MS) : capMs;
}

export function egressOf(plugin: MahPlugin): Egress {
  const manifest = plugin.header?.manifest ?? null;
  const rules = manifest?.network ?? null;
  return { rules, policy: policyOf(rules, manifest?.allowPrivateHosts ?? false) };
}

/** Layer (a) of §13.5: the host must match a rule when the plugin declares `network`. */
export function checkHost(egress: Egress, url: URL): void {
  if (egress.rules === null) return;
  const host = url.hostname;
  if (!egress.rules.some((r) => ruleMatchesHost(r, host))) {
    throw new FetchError('blocked', `blocked request to ${host.replace(/^\[|\]$/g, '')}: the plugin's manifest does not list this host in \`network\``);
  }
}

async function readCapped(body: NodeJS.ReadableStream & { destroy(): void }): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = HTTP_BODY_MAX - total;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/** Runs one request; failures come back as `{error, url, method}`, never as exceptions. */
export async function performRequest(plugin: MahPlugin, egress: Egress, spec: RequestSpec, log: (m: string) => void, signal?: AbortSignal): Promise<Response> {
  const failed = (error: string) => ({ error, url: spec.url, method: spec.method });
  if (!SCHEME.test(spec.url)) return failed('unsupported URL scheme (only http and https are allowed)');
  let parsed: URL;
  try {
    parsed = new URL(spec.url);
  } catch {
    return failed(`blocked request to ${spec.url}: could not be parsed as a URL`);
  }
  if (!parsed.hostname) return failed(`blocked request to ${spec.url}: names no host`);
  if (spec.timeoutMs <= 0) return failed('request timed out: the entry point has no time left');
  try {
    const res = await safeFetch(spec.url, {
      policy: egress.policy,
      method: spec.method,
      body: spec.body,
      headers: spec.headers,
      overallTimeoutMs: spec.timeoutMs,
      connectTimeoutMs: spec.timeoutMs,
      idleTimeoutMs: spec.timeoutMs,
      maxRedirects: MAX_REDIRECTS,
      signal,
      checkUrl: (u) => checkHost(egress, u),
    });
    const { bytes, truncated } = await readCapped(res.body);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    return {
      status_code: res.status,
      status: `${res.status} ${STATUS_CODES[res.status] ?? ''}`.trim(),
      body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      truncated,
      headers,
      url: spec.url,
      method: spec.method,
    };
  } catch (e) {
    return failed(e instanceof FetchError ? refusalText(plugin, spec.method, spec.url, e, log) : (e as Error).message);
  }
}

/**
 * The text a plugin sees for a failed fetch; refusals are logged with their detail for the
 * administrator, and address refusals never name the resolved address (§13.5).
 */
function refusalText(plugin: MahPlugin, method: string, url: string, e: FetchError, log: (m: string) => void): string {
  if (e instanceof TooManyRedirectsError) return `stopped after ${MAX_REDIRECTS} redirects`;
  if (e.reason !== 'blocked') return e.message;
  log(`plugins: "${plugin.name}" ${method} ${url} refused: ${JSON.stringify(e.detail)} ${e.message}`);
  return e instanceof ForbiddenAddressError ? ADDRESS_REFUSED : e.message;
}

/**
 * A GET under the plugin's full egress policy for the URL-fetching writers of mah.db (§11.9):
 * the answer with its body still to read, or an Error carrying the text the plugin sees.
 */
export async function egressGet(plugin: MahPlugin, url: string, opts: { timeoutMs: number; maxBytes?: number }, log: (m: string) => void): Promise<SafeResponse> {
  if (!SCHEME.test(url)) throw new Error('unsupported URL scheme (only http and https are allowed)');
  if (opts.timeoutMs <= 0) throw new Error('request timed out: the entry point has no time left');
  const egress = egressOf(plugin);
  try {
    return await safeFetch(url, {
      policy: egress.policy,
      headers: { 'User-Agent': USER_AGENT },
      overallTimeoutMs: opts.timeoutMs,
      connectTimeoutMs: opts.timeoutMs,
      idleTimeoutMs: opts.timeoutMs,
      maxRedirects: MAX_REDIRECTS,
      maxBytes: opts.maxBytes,
      signal: currentLuaCall()?.signal,
      checkUrl: (u) => checkHost(egress, u),
    });
  } catch (e) {
    if (e instanceof FetchError) throw new Error(refusalText(plugin, 'GET', url, e, log));
    throw e;
  }
}

/** A failure while reading a fetched body (size cap, timeout) as the text the plugin sees. */
export function egressFailure(plugin: MahPlugin, url: string, e: unknown, log: (m: string) => void): Error {
  return e instanceof FetchError ? new Error(refusalText(plugin, 'GET', url, e, log)) : (e as Error);
}

function timeoutOf(options: Record<string, unknown>): number {
  const t = typeof options.timeout === 'number' ? Math.trunc(options.timeout) : 0;
  return (t > 0 ? Math.min(MAX_TIMEOUT_S, t) : DEFAULT_TIMEOUT_S) * 1000;
}

function headersOf(options: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = { 'User-Agent': USER_AGENT };
  const given = options.headers;
  if (given && typeof given === 'object') {
    for (const [k, v] of Object.entries(given)) {
      for (const existing of Object.keys(out)) if (existing.toLowerCase() === k.toLowerCase()) delete out[existing];
      out[k] = luaText(v) ?? String(v);
    }
  }
  return out;
}

/** A context with no Lua call on it: callbacks are entry points of their own. */
const detached = new AsyncResource('mah.http callback');

/** At most 16 asynchronous requests at once across all plugins (§13.3). */
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_ASYNC) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function installHttp(plugin: MahPlugin, mah: Record<string, unknown>, log: (m: string) => void): void {
  if (!plugin.capabilities.includes('http')) return;
  const egress = egressOf(plugin);
  /** Each plugin's callbacks are delivered one at a time, in order. */
  let callbacks: Promise<void> = Promise.resolve();

  const sync = async (fn: string, method: string, url: unknown, body: unknown, opts: unknown): Promise<Response> => {
    const options = (opts && typeof opts === 'object' ? opts : {}) as Record<string, unknown>;
    const target = luaText(url) ?? '';
    if (inPluginTransaction()) return { error: refusedInTransaction(`mah.http.${fn}`, 'it would hold the database transaction open across network I/O'), url: target, method };
    if (plugin.revoked) return { error: 'this plugin has been disabled', url: target, method };
    let timeoutMs = timeoutOf(options);
    const call = currentLuaCall();
    if (call && Number.isFinite(call.deadline)) timeoutMs = Math.min(timeoutMs, call.deadline - Date.now() - SYNC_HEADROOM_MS);
    return performRequest(plugin, egress, { method, url: target, body: luaText(body), headers: headersOf(options), timeoutMs }, log, call?.signal);
  };

  const later = (fn: string, method: string, url: unknown, body: unknown, options: Record<string, unknown>, callback: LuaFunctionRef) => {
    if (inPluginTransaction()) {
      throw new Error(refusedInTransaction(`mah.http.${fn}`, 'it sends the request immediately and a rollback cannot recall it; make the request after the transaction'));
    }
    const invocation = currentInvocation();
    const target = luaText(url) ?? '';
    const spec = { method, url: target, body: luaText(body), headers: headersOf(options), timeoutMs: timeoutOf(options) };
    const response = plugin.revoked ? Promise.resolve({ error: 'this plugin has been disabled', url: target, method }) : slot(() => performRequest(plugin, egress, spec, log));
    detached.runInAsyncScope(() => {
      callbacks = callbacks.then(async () => {
        const r = await response;
        if (plugin.revoked) return;
        try {
          await invocations.run({ actor: invocation.actor }, () => callback.call([r], { entry: `mah.http.${fn} callback`, budgetMs: CALLBACK_BUDGET_MS }));
        } catch (e) {
          log(`plugins: "${plugin.name}" http callback failed: ${(e as Error).message}`);
        }
      });
    });
  };

  /** get/post: the argument after url (and body) is the callback, or options then the callback. */
  const split = (a: unknown, b: unknown): { options: Record<string, unknown>; callback: LuaFunctionRef } => {
    if (a instanceof LuaFunctionRef) return { options: {}, callback: a };
    if (a && typeof a === 'object' && b instanceof LuaFunctionRef) return { options: a as Record<string, unknown>, callback: b };
    throw new Error('callback function required');
  };

  mah.http = {
    get_sync: (url: unknown, opts: unknown) => sync('get_sync', 'GET', url, undefined, opts),
    post_sync: (url: unknown, body: unknown, opts: unknown) => sync('post_sync', 'POST', url, body, opts),
    get: (url: unknown, a: unknown, b: unknown) => {
      const { options, callback } = split(a, b);
      later('get', 'GET', url, undefined, options, callback);
    },
    post: (url: unknown, body: unknown, a: unknown, b: unknown) => {
      const { options, callback } = split(a, b);
      later('post', 'POST', url, body, options, callback);
    },
    request: (method: unknown, url: unknown, opts: unknown, callback: unknown) => {
      if (!opts || typeof opts !== 'object') throw new Error("bad argument #3 to 'request' (options table required)");
      if (!(callback instanceof LuaFunctionRef)) throw new Error('callback function required');
      const options = opts as Record<string, unknown>;
      later('request', (luaText(method) ?? 'GET').toUpperCase(), url, options.body, options, callback);
    },
  };
}
