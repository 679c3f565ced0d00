// JSON as plugins see it (library-plugins.md §10.6, §31.4): object keys in byte order, `<`, `>`,
// `&`, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD, NaN and infinities refused.
import { luaText } from '../../core/lua/index.js';

export class JsonValueError extends Error {}

function escapeString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function encodeJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new JsonValueError(`json: unsupported value: ${value}`);
      return JSON.stringify(value);
    case 'string':
      return escapeString(value);
    case 'object':
      break;
    default:
      return 'null';
  }
  if (value instanceof Uint8Array) return escapeString(luaText(value) ?? '');
  if (Array.isArray(value)) return `[${value.map(encodeJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort(byteOrder);
  return `{${keys.map((k) => `${escapeString(k)}:${encodeJson(obj[k])}`).join(',')}}`;
}

/** Parses JSON text; throws SyntaxError for invalid input. */
export function decodeJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}
