// Fractional block positions (companion §12.3): strings compared byte-wise. Keys generated here
// are lowercase letters; a client may send any non-empty key of at most 64 bytes ("a1", "A",
// digits), as clients of the reference do. A key can always be placed after another, and between
// two lowercase keys whenever one exists; when keys grow past REBALANCE_LENGTH the note's keys
// are rewritten evenly spaced, keeping their order, so they stay short however often blocks move.
//
// Keys are read as base-26 fractions ("a" = 0 … "z" = 25). Generated keys never end in "a",
// because nothing fits between "b" and "ba".

export const MAX_POSITION_LENGTH = 64;
/** Longer keys trigger an automatic rebalance of the note. */
export const REBALANCE_LENGTH = 8;
export const FIRST_POSITION = 'n';

const A = 'a'.charCodeAt(0);
const BASE = 26;

const digit = (c: string) => c.charCodeAt(0) - A;
const char = (d: number) => String.fromCharCode(A + d);

/** A key a client may send: non-empty, at most 64 bytes of UTF-8. */
export function isValidPosition(text: string): boolean {
  return text.length >= 1 && Buffer.byteLength(text, 'utf8') <= MAX_POSITION_LENGTH;
}

/**
 * A key strictly between `lo` and `hi` (null = open end), or null when none exists (for
 * example between "b" and "ba") or when lo >= hi.
 */
export function positionBetween(lo: string | null, hi: string | null): string | null {
  const a = lo ?? '';
  if (hi !== null && !(a < hi)) return null;
  let bounded = hi !== null;
  let out = '';
  for (let i = 0; ; i++) {
    const da = i < a.length ? digit(a[i]) : 0;
    let db = BASE;
    if (bounded) {
      // hi ended while equal to our prefix: hi is a prefix of lo's padding, nothing fits.
      if (i >= hi!.length) return null;
      db = digit(hi![i]);
    }
    if (db - da > 1) return out + char(Math.floor((da + db) / 2));
    out += char(da);
    if (db - da === 1) bounded = false;
  }
}

/**
 * A short lowercase key after `last` (the first key when there is none): bumps the first
 * character that can grow (one below "a", such as a client's digit, becomes "n"), or extends a
 * key with none by "b" so the next 24 appends fit in the same length.
 */
export function positionAfter(last: string | null): string {
  if (last === null || last === '') return FIRST_POSITION;
  for (let i = 0; i < last.length; i++) {
    if (last[i] < 'a') return last.slice(0, i) + FIRST_POSITION;
    if (last[i] < 'z') return last.slice(0, i) + char(digit(last[i]) + 1);
  }
  return last + 'b';
}

/** `count` keys, evenly spaced and as short as possible, in ascending order. */
export function evenlySpaced(count: number): string[] {
  if (count <= 0) return [];
  let length = 1;
  while (BASE ** length <= count) length++;
  const step = Math.floor(BASE ** length / (count + 1));
  const keys: string[] = [];
  for (let i = 1; i <= count; i++) {
    let n = i * step;
    let key = '';
    for (let p = 0; p < length; p++) {
      key = char(n % BASE) + key;
      n = Math.floor(n / BASE);
    }
    keys.push(key.replace(/a+$/, ''));
  }
  return keys;
}

export function needsRebalance(positions: string[]): boolean {
  return positions.some((p) => p.length > REBALANCE_LENGTH);
}
