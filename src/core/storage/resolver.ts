// The one way a stored file is reached from a request (issue 12, defects 4 and 5). A location
// is checked as text first — no NUL, no backslash, no dot segment, no encoded separator left
// after the single decoding, no private folder — then opened with O_NOFOLLOW (a symlink as the
// file itself is refused) and the opened descriptor's real path must still lie under the real
// root (a symlinked folder leading out of the root is refused). Serving streams from that
// descriptor, so nothing can be swapped between the check and the read.
import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** A location that may not be served or registered; the message says why (for a 400). */
export class UnsafePathError extends Error {}

/** A checked, opened regular file; whoever receives it closes `handle` (or streams it). */
export interface OpenedFile {
  handle: FileHandle;
  /** The real path of the opened file (for tools that take a path: sharp, ffmpeg). */
  path: string;
  size: number;
  mtime: Date;
}

export interface LocationRules {
  /** Top-level folder names the service keeps for itself beyond `_…` and `.…` (e.g. `deleted`). */
  privateTop?: ReadonlySet<string>;
  /** Internal callers reaching the service's own folders (export downloads, the preview cache). */
  allowPrivate?: boolean;
}

// After the one decoding a request gets, a remaining %2F, %5C, %2E or %00 means the client
// encoded twice to smuggle a separator or a dot past a check.
const ENCODED_SPECIAL = /%(2f|5c|2e|00)/i;

/**
 * The segments of a location relative to a root, or UnsafePathError. Names starting with `.` or
 * `_` are the service's own folders (temporary parts, previews, exports, imports) and are
 * never served, in any position.
 */
export function checkedSegments(location: string, rules: LocationRules = {}): string[] {
  if (location.includes('\0')) throw new UnsafePathError('the path contains a NUL byte');
  if (location.includes('\\')) throw new UnsafePathError('the path contains a backslash');
  const segments = location.split('/').filter((s) => s !== '');
  if (segments.length === 0) throw new UnsafePathError('the path is empty');
  for (const s of segments) {
    if (s === '.' || s === '..') throw new UnsafePathError('the path contains a dot segment');
    if (ENCODED_SPECIAL.test(s)) throw new UnsafePathError('the path contains an encoded separator');
    if (!rules.allowPrivate && (s.startsWith('.') || s.startsWith('_'))) throw new UnsafePathError(`"${s}" is a folder the service keeps for itself`);
  }
  if (!rules.allowPrivate && rules.privateTop?.has(segments[0])) throw new UnsafePathError(`"${segments[0]}" is a folder the service keeps for itself`);
  return segments;
}

/**
 * The location named by the tail of a request URL, decoded exactly once per segment. `rawTail`
 * is the undecoded text after the route prefix (query removed); an encoded slash inside a
 * segment or a malformed escape is refused.
 */
export function locationFromUrl(rawTail: string): string {
  const parts = rawTail.split('/').map((part) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      throw new UnsafePathError('the path has a malformed escape');
    }
    if (decoded.includes('/')) throw new UnsafePathError('the path contains an encoded separator');
    return decoded;
  });
  return '/' + parts.join('/');
}

/** The undecoded path of a request after `prefix` (e.g. "/files/"), without its query. */
export function rawUrlTail(url: string, prefix: string): string {
  const path = url.split('?')[0].split('#')[0];
  if (!path.startsWith(prefix)) throw new UnsafePathError('the path does not belong to this route');
  return path.slice(prefix.length);
}

export const isInsideRoot = (root: string, full: string) => full === root || full.startsWith(root.endsWith(sep) ? root : root + sep);

// O_NONBLOCK keeps a FIFO placed in the root from hanging the open; regular files ignore it.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Flags for reading a file whose path the service built itself (blobs): never through a symlink. */
export const NO_FOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW;

/** Opens a checked location under `root`. Anything unsafe or absent is UnsafePathError or ENOENT. */
export async function openInside(root: string, location: string, rules: LocationRules = {}): Promise<OpenedFile> {
  const segments = checkedSegments(location, rules);
  const realRoot = await realpath(root);
  const path = join(realRoot, ...segments);
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UnsafePathError('the file is a symbolic link');
    throw e;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UnsafePathError('not a regular file');
    const actual = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
    if (!isInsideRoot(realRoot, actual)) throw new UnsafePathError('the path leads outside the storage root');
    return { handle, path: actual, size: info.size, mtime: info.mtime };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** Checks a location like openInside and returns the file's real path (for path-taking tools). */
export async function checkedPath(root: string, location: string, rules: LocationRules = {}): Promise<string> {
  const opened = await openInside(root, location, rules);
  await opened.handle.close();
  return opened.path;
}
