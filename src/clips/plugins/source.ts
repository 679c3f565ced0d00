// Where a plugin's source comes from (companion §8.2): a URL fetched through the guarded fetch
// (30 s, 1 MiB) or an absolute path to a .lua file on the server (1 MiB).
import { open } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import { text } from 'node:stream/consumers';
import { badRequest } from '../../core/http/errors.js';
import type { AddressPolicy } from '../../core/net/addresses.js';
import { FetchError, safeFetch } from '../../core/net/safe-fetch.js';

export const MAX_SOURCE_BYTES = 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

export const isUrlSource = (source: string) => /^https?:\/\//i.test(source);

/** Downloads a plugin source; throws FetchError (or a plain Error for a bad status). */
export async function fetchSource(url: string, policy: AddressPolicy): Promise<string> {
  const res = await safeFetch(url, { policy, connectTimeoutMs: FETCH_TIMEOUT_MS, overallTimeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_SOURCE_BYTES });
  if (res.status < 200 || res.status > 299) {
    res.body.resume();
    throw new FetchError('http', `HTTP ${res.status}`);
  }
  return text(res.body);
}

/** Reads a local plugin file: absolute, ending .lua, a regular file of at most 1 MiB. */
export async function readLocalSource(path: string): Promise<string> {
  if (!isAbsolute(path)) throw badRequest('source must be an absolute file path or an http(s) URL');
  if (!path.toLowerCase().endsWith('.lua')) throw badRequest('plugin file must end with .lua');
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw badRequest(`cannot read plugin file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw badRequest('plugin source is not a regular file');
    if (stat.size > MAX_SOURCE_BYTES) throw badRequest('plugin file exceeds 1 MiB');
    const buf = Buffer.alloc(stat.size);
    await handle.read(buf, 0, stat.size, 0);
    return buf.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The stored file name: the URL's last path segment (percent-decoded) or the file's base name,
 * characters outside [A-Za-z0-9._-] replaced by `_`, `.lua` appended when missing, and a
 * letter or digit first (the backup's plugin-file rule).
 */
export function storedFilename(source: string): string {
  let raw: string;
  if (isUrlSource(source)) {
    const path = new URL(source).pathname;
    const last = path.split('/').filter(Boolean).pop() ?? '';
    try {
      raw = decodeURIComponent(last);
    } catch {
      raw = last;
    }
  } else {
    raw = basename(source);
  }
  let name = raw.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 190);
  if (!name.endsWith('.lua')) name += '.lua';
  if (!/^[A-Za-z0-9]/.test(name)) name = `plugin${name}`;
  return name;
}
