// Shape checks for block content and state: each failure is a 400 naming the offending field
// ("content.level must be an integer from 1 to 6"), and nothing is written.
import { badRequest } from '../../core/http/errors.js';
import type { JsonObject } from './records.js';

export function fail(field: string, message: string): never {
  throw badRequest(`${field} ${message}`);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objectAt(v: unknown, field: string): JsonObject {
  if (!isObject(v)) fail(field, 'must be an object');
  return v;
}

export function stringAt(v: unknown, field: string, fallback?: string): string {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'string') fail(field, 'must be a string');
  return v;
}

export function optionalString(v: unknown, field: string): string | undefined {
  return v === undefined || v === null ? undefined : stringAt(v, field);
}

export function integerAt(v: unknown, field: string, min = -Infinity, max = Infinity): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
    fail(field, min === -Infinity ? 'must be an integer' : max === Infinity ? `must be an integer of at least ${min}` : `must be an integer from ${min} to ${max}`);
  }
  return v;
}

export function booleanAt(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') fail(field, 'must be true or false');
  return v;
}

export function arrayAt(v: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(v)) fail(field, 'must be an array');
  if (v.length > max) fail(field, `may hold at most ${max} entries`);
  return v;
}

export function oneOf<T extends string>(v: unknown, field: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T)) fail(field, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** A list of positive ids, duplicates dropped, order kept. */
export function idListAt(v: unknown, field: string, max: number): number[] {
  const list = arrayAt(v, field, max).map((x, i) => integerAt(x, `${field}[${i}]`, 1));
  return [...new Set(list)];
}

export function isScalar(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An RFC 3339 timestamp (or a plain date, read as midnight UTC); returns epoch milliseconds. */
export function timestampAt(v: unknown, field: string): number {
  const text = stringAt(v, field);
  const ok = RFC3339.test(text) || DATE_ONLY.test(text);
  const ms = ok ? Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text) : NaN;
  if (Number.isNaN(ms)) fail(field, 'must be an RFC 3339 timestamp such as 2024-05-01T09:30:00Z');
  return ms;
}

/** A calendar date YYYY-MM-DD (an RFC 3339 timestamp is accepted too). */
export function dateAt(v: unknown, field: string): string {
  const text = stringAt(v, field);
  if (DATE_ONLY.test(text)) {
    const d = new Date(`${text}T00:00:00Z`);
    if (!Number.isNaN(d.getTime()) && d.toISOString().startsWith(text)) return text;
  } else if (RFC3339.test(text) && !Number.isNaN(Date.parse(text))) {
    return text;
  }
  return fail(field, 'must be a date (YYYY-MM-DD)');
}
