// Time buckets of the timeline endpoints (companion §9), all in UTC, oldest first; the last
// bucket contains the anchor date.

export type Granularity = 'yearly' | 'monthly' | 'weekly';

export interface Bucket {
  label: string;
  start: Date;
  end: Date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function normaliseGranularity(value: string | undefined): Granularity {
  return value === 'yearly' || value === 'weekly' ? value : 'monthly';
}

/** Anchor as a UTC midnight; unparsable or absent gives today. */
export function parseAnchor(value: string | undefined, now = new Date()): Date {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (d.getUTCMonth() === Number(m[2]) - 1) return d;
  }
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** 1–60; anything else (0, negative, above 60, not a number) means 15. */
export function normaliseColumns(value: string | number | undefined): number {
  const n = typeof value === 'number' ? value : value !== undefined && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 60 ? n : 15;
}

function startOf(g: Granularity, d: Date): Date {
  if (g === 'yearly') return new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  if (g === 'monthly') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const weekday = d.getUTCDay() === 0 ? 7 : d.getUTCDay(); // Monday = 1 … Sunday = 7
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - (weekday - 1)));
}

function step(g: Granularity, d: Date, n: number): Date {
  if (g === 'yearly') return new Date(Date.UTC(d.getUTCFullYear() + n, 0, 1));
  if (g === 'monthly') return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7 * n));
}

function label(g: Granularity, d: Date): string {
  if (g === 'yearly') return String(d.getUTCFullYear());
  if (g === 'monthly') return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, '0')}`;
}

export function buildBuckets(g: Granularity, anchor: Date, columns: number): Bucket[] {
  const last = startOf(g, anchor);
  const buckets: Bucket[] = [];
  for (let i = columns - 1; i >= 0; i--) {
    const start = step(g, last, -i);
    buckets.push({ label: label(g, start), start, end: step(g, start, 1) });
  }
  return buckets;
}
