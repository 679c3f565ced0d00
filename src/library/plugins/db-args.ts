// Argument rules of mah.db (library-plugins.md §11.2): ids are whole numbers, id lists are arrays,
// listing limits are clamped. A broken argument raises in Lua; a refused operation is nil, err.

const MAX_ID = Number.MAX_SAFE_INTEGER;

const shown = (v: unknown) => (v === null || v === undefined ? 'nil' : typeof v === 'object' ? 'table' : String(v));

export function positiveId(v: unknown, n: number, fn: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID) {
    throw new Error(`bad argument #${n} to '${fn}' (entity id must be a positive whole number, got ${shown(v)})`);
  }
  return v;
}

/** An id list (`tags`, `groups`, …): absent → undefined; an empty Lua table is an empty array. */
export function idList(v: unknown, key: string): number[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return [];
  if (!Array.isArray(v)) throw new Error(`${key} must be an array of ids`);
  for (const x of v) if (typeof x !== 'number' || !Number.isInteger(x) || x < 1) throw new Error(`${key}: entity ids must be positive whole numbers`);
  return v as number[];
}

/** An id-valued option key: 0 means "none". */
export function optId(v: unknown, key: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_ID) throw new Error(`${key} must be a whole number, got ${shown(v)}`);
  return v;
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function options(o: unknown): Record<string, unknown> {
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>) : {};
}

/** Database timestamps as RFC 3339 without milliseconds. */
export const iso = (v: unknown) => (typeof v === 'string' ? v.replace(/\.\d{3}Z$/, 'Z') : v);

export function clampLimit(v: unknown): number {
  const n = typeof v === 'number' ? Math.trunc(v) : 0;
  return n <= 0 ? 20 : Math.min(100, n);
}

export function clampOffset(v: unknown): number {
  const n = typeof v === 'number' ? Math.trunc(v) : 0;
  return Math.max(0, Math.min(10_000, n));
}

/** A non-zero id filter (zero-valued id filters are ignored, §11.4). */
export function idFilter(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** An id-list filter; anything that is not a list of ids is ignored. */
export function idsFilter(v: unknown): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const ids = v.filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0);
  return ids.length ? ids : undefined;
}
