// Request input: query string and body (JSON, form or multipart fields) merged into one bag
// whose keys match case-insensitively (companion §12.1), then coerced into the shape a route's
// TypeBox schema declares. Absent stays undefined so partial updates can tell "omitted" from
// "explicitly empty".
import type { TObject, TSchema, Static } from '@sinclair/typebox';
import { badRequest } from './errors.js';

export type ParamBag = Map<string, unknown>;

/** Builds the bag; later sources win (body over query). */
export function makeBag(...sources: unknown[]): ParamBag {
  const bag: ParamBag = new Map();
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      bag.set(key.toLowerCase(), value);
    }
  }
  return bag;
}

const TRUE = new Set(['true', '1', 'on', 'yes']);
const FALSE = new Set(['false', '0', 'off', 'no', '']);

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function toInteger(name: string, raw: unknown): number {
  const v = first(raw);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
  }
  throw badRequest(`${name} must be an integer`);
}

function toNumber(name: string, raw: unknown): number {
  const v = first(raw);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw badRequest(`${name} must be a number`);
  return n;
}

function toBoolean(name: string, raw: unknown): boolean {
  const v = first(raw);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (TRUE.has(s)) return true;
    if (FALSE.has(s)) return false;
  }
  throw badRequest(`${name} must be a boolean (true or false)`);
}

function toString(name: string, raw: unknown): string {
  const v = first(raw);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return '';
  throw badRequest(`${name} must be a string`);
}

/** Arrays come as repeated parameters, JSON arrays, or one comma-separated value. */
function toList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) {
    return raw.flatMap((v) => (typeof v === 'string' && v.includes(',') ? v.split(',') : [v])).filter((v) => v !== '');
  }
  if (typeof raw === 'string') return raw.split(',').filter((v) => v.trim() !== '');
  if (raw === null || raw === undefined) return [];
  return [raw];
}

function coerce(name: string, schema: TSchema, raw: unknown): unknown {
  const type = schema.type as string | undefined;
  switch (type) {
    case 'integer':
      return toInteger(name, raw);
    case 'number':
      return toNumber(name, raw);
    case 'boolean':
      return toBoolean(name, raw);
    case 'string': {
      const s = toString(name, raw);
      if (schema.enum && !(schema.enum as string[]).includes(s)) {
        throw badRequest(`${name} must be one of ${(schema.enum as string[]).join(', ')}`);
      }
      if (typeof schema.maxLength === 'number' && s.length > schema.maxLength) {
        throw badRequest(`${name} is longer than ${schema.maxLength} characters`);
      }
      return s;
    }
    case 'array': {
      const items = schema.items as TSchema;
      return toList(raw).map((v, i) => coerce(`${name}[${i}]`, items, v));
    }
    default:
      // Union of literals (Type.Union of Type.Literal) behaves like an enum of strings.
      if (Array.isArray(schema.anyOf)) {
        const s = toString(name, raw);
        const allowed = (schema.anyOf as TSchema[]).map((o) => o.const as string);
        if (!allowed.includes(s)) throw badRequest(`${name} must be one of ${allowed.join(', ')}`);
        return s;
      }
      return raw; // Type.Unknown / Type.Any: passed through untouched
  }
}

function isTextLike(schema: TSchema): boolean {
  return (schema.type === 'string' && !schema.enum) || schema.type === 'array' || schema.type === undefined && !schema.anyOf;
}

/** Reads and coerces every property of the schema from the bag. */
export function readParams<T extends TObject>(schema: T, bag: ParamBag): Static<T> {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties)) {
    let raw = bag.get(name.toLowerCase());
    // An empty form field means "not given" for numbers, booleans and enumerations (filter forms
    // submit every input); strings and lists keep it, since an explicit empty value clears.
    if (raw === '' && !isTextLike(prop)) raw = undefined;
    if (raw === undefined) {
      if (required.has(name)) throw badRequest(`${name} is required`);
      continue;
    }
    out[name] = coerce(name, prop, raw);
  }
  return out as Static<T>;
}
