// Reading fields of untrusted archive JSON: every value is checked for its type and bounded;
// a wrong type falls back to the empty value rather than crashing an import (the manifest's
// own checks and the plan's warnings tell the user what was odd).
import type { TagRef } from '../archive/format.js';

export type Obj = Record<string, unknown>;

const MAX_TEXT = 10 * 1024 * 1024;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

export function str(v: unknown, fallback = ''): string {
  if (typeof v === 'string') return v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return fallback;
}

export function strOrNull(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? str(v) : null;
}

export function int(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : fallback;
}

export function bool(v: unknown): boolean {
  return v === true;
}

export function strList(v: unknown, max = 100_000): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, max) : [];
}

export function tagRefs(v: unknown): TagRef[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((t) => ({ ref: strOrNull(t.ref), name: str(t.name).trim() })).filter((t) => t.name !== '' || t.ref !== null);
}

/** An ISO timestamp from the archive, or null when it is not one. */
export function timestamp(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 64) return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export function exportIdOf(v: unknown, fallback: string): string {
  return typeof v === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(v) ? v : fallback;
}
