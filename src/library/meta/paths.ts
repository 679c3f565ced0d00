// Dot-path edits of an entity's Meta (contract: Edit meta): intermediate objects are created
// as needed, siblings are kept at every level, and a scalar standing where an object is needed
// is replaced by one.
import { badRequest } from '../../core/http/errors.js';

export type MetaObject = Record<string, unknown>;

/** Splits "a.b.c"; empty segments ("a..b", ".a", "a.") are malformed. */
export function parseMetaPath(path: string): string[] {
  const segments = path.split('.');
  if (path.trim() === '' || segments.some((s) => s.trim() === '')) {
    throw badRequest(`path "${path}" is malformed: segments must not be empty`);
  }
  return segments;
}

function isObject(v: unknown): v is MetaObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Returns a copy of `meta` with `value` at `path`; the input is not modified. */
export function setMetaPath(meta: MetaObject, path: string[], value: unknown): MetaObject {
  const [head, ...rest] = path;
  const copy: MetaObject = { ...meta };
  if (rest.length === 0) {
    copy[head] = value;
    return copy;
  }
  const child = meta[head];
  copy[head] = setMetaPath(isObject(child) ? child : {}, rest, value);
  return copy;
}

/** Parses stored meta text; anything but a JSON object is corrupt (400, nothing changes). */
export function storedMeta(text: unknown): MetaObject {
  if (isObject(text)) return text;
  if (typeof text === 'string') {
    try {
      const parsed: unknown = JSON.parse(text === '' ? '{}' : text);
      if (isObject(parsed)) return parsed;
    } catch {
      /* reported below */
    }
  }
  throw badRequest('the stored meta is corrupt (not a JSON object); replace it with a full edit first');
}

/** The `value` field: JSON text of any JSON value. */
export function parseMetaValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`value is not valid JSON: ${(e as Error).message}`);
  }
}
