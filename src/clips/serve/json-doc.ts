// The JSON documents behind a tag server's /_api routes (companion §9.4): navigation by path
// segments (object keys; in arrays the element whose `id` equals the segment), and the edits
// of POST, PUT, PATCH and DELETE. Pure functions over parsed JSON; errors carry their status.
import { HttpError } from '../../core/http/errors.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets an own key, also "__proto__", without touching the object's prototype. */
function setKey(object: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

const missingKey = (k: string) => new HttpError(404, `key "${k}" not found`);
const missingElement = (k: string) => new HttpError(404, `no element with id ${k} in array`);

/** The element of `array` whose id equals the segment numerically ("7" matches 7 and "7"). */
function elementIndex(array: JsonValue[], segment: string): number {
  const wanted = /^-?\d+(\.\d+)?$/.test(segment) ? Number(segment) : NaN;
  if (Number.isNaN(wanted)) return -1;
  return array.findIndex((el) => {
    if (!isObject(el)) return false;
    const id = el.id;
    if (typeof id === 'number') return id === wanted;
    return typeof id === 'string' && id.trim() !== '' && Number(id) === wanted;
  });
}

function child(value: JsonValue, segment: string): JsonValue {
  if (Array.isArray(value)) {
    const i = elementIndex(value, segment);
    if (i < 0) throw missingElement(segment);
    return value[i];
  }
  if (isObject(value) && Object.hasOwn(value, segment)) return value[segment];
  throw missingKey(segment);
}

export function getAt(doc: JsonValue, path: readonly string[]): JsonValue {
  return path.reduce(child, doc);
}

/** The container of the last segment, creating missing intermediate objects when asked. */
function parentOf(doc: JsonValue, path: readonly string[], create: boolean): JsonValue {
  let value = doc;
  for (const segment of path.slice(0, -1)) {
    if (create && isObject(value) && !Object.hasOwn(value, segment)) setKey(value, segment, {});
    value = child(value, segment);
  }
  return value;
}

function largestId(array: JsonValue[]): number {
  let max = 0;
  for (const el of array) {
    if (!isObject(el)) continue;
    const id = typeof el.id === 'number' ? el.id : typeof el.id === 'string' && el.id.trim() !== '' ? Number(el.id) : NaN;
    if (Number.isFinite(id) && id > max) max = id;
  }
  return max;
}

function requireObject(body: JsonValue): JsonObject {
  if (!isObject(body)) throw new HttpError(400, 'body must be a JSON object');
  return body;
}

/** POST: appends `body` to the array at `path` with the next id; returns the stored element. */
export function appendAt(doc: JsonValue, path: readonly string[], body: JsonValue): JsonObject {
  const object = requireObject(body);
  const target = getAt(doc, path);
  if (!Array.isArray(target)) throw new HttpError(400, 'target must be an array');
  const element: JsonObject = { ...object };
  setKey(element, 'id', Math.floor(largestId(target)) + 1);
  target.push(element);
  return element;
}

/** PUT: replaces the value at `path` (creating missing objects on the way); returns the new document. */
export function replaceAt(doc: JsonValue, path: readonly string[], body: JsonValue): JsonValue {
  if (path.length === 0) return body;
  const parent = parentOf(doc, path, true);
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    const i = elementIndex(parent, last);
    if (i < 0) throw missingElement(last);
    // An element keeps its identity.
    const element: JsonObject = { ...requireObject(body) };
    setKey(element, 'id', (parent[i] as JsonObject).id ?? null);
    parent[i] = element;
  } else if (isObject(parent)) {
    setKey(parent, last, body);
  } else {
    throw missingKey(last);
  }
  return doc;
}

/** RFC 7396 JSON Merge Patch: null deletes, objects merge, anything else overwrites. */
export function mergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: JsonObject = {};
  if (isObject(target)) for (const [k, v] of Object.entries(target)) setKey(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setKey(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : null, v));
  }
  return out;
}

/** PATCH: merges `body` into the object at `path` (an `id` in the patch is ignored). */
export function patchAt(doc: JsonValue, path: readonly string[], body: JsonValue): { doc: JsonValue; value: JsonObject } {
  const { id: _ignored, ...patch } = requireObject(body);
  void _ignored;
  const target = getAt(doc, path);
  if (!isObject(target)) throw new HttpError(400, 'target must be an object');
  const merged = mergePatch(target, patch) as JsonObject;
  return { doc: path.length === 0 ? merged : replaceValue(doc, path, merged), value: merged };
}

function replaceValue(doc: JsonValue, path: readonly string[], value: JsonValue): JsonValue {
  const parent = parentOf(doc, path, false);
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[elementIndex(parent, last)] = value;
  else setKey(parent as JsonObject, last, value);
  return doc;
}

/** DELETE: removes the key or array element at `path`. */
export function deleteAt(doc: JsonValue, path: readonly string[]): void {
  if (path.length === 0) throw new HttpError(400, 'cannot delete root — use PUT to replace');
  const parent = parentOf(doc, path, false);
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    const i = elementIndex(parent, last);
    if (i < 0) throw missingElement(last);
    parent.splice(i, 1);
  } else if (isObject(parent) && Object.hasOwn(parent, last)) {
    delete parent[last];
  } else {
    throw missingKey(last);
  }
}

/**
 * Compact JSON with object keys in sorted order at every level, so a document's stored bytes
 * do not depend on the order edits arrived in (the reference stored maps, which sort).
 */
export function canonicalJson(value: JsonValue): string {
  return JSON.stringify(value, (_key, v: JsonValue) => {
    if (!isObject(v)) return v;
    const sorted: JsonObject = {};
    for (const k of Object.keys(v).sort()) setKey(sorted, k, v[k]);
    return sorted;
  });
}
