// The order FTS5's bm25() gives the posting profiles of one word (migration 014, mrql.md §22.5).
// For a one-phrase query FTS5 computes (fts5_aux.c, no column weights: each instance counts 1)
//   -idf × (f × (k1 + 1)) / (f + k1 × (1 − b + b × D / avgdl)),  k1 = 1.2, b = 0.75,
// with f the word's frequency in the row, D the row's token count (all columns) and avgdl the
// table's token total over its row count. idf is positive (FTS5 clamps it to 1e-6) and the
// same for every row, and multiplying by it keeps the order (ties may merge, never swap), so
// ordering profiles by the fraction alone — computed with the same double operations — is
// ordering them as bm25() does.

const K1 = 1.2;
const B = 0.75;

/** One SQLite varint (1–9 bytes, big-endian 7-bit groups, the 9th byte whole) at `at`. */
function varint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[at + i];
    if (byte === undefined) throw new Error('truncated FTS5 totals record');
    if (i === 8) return { value: value * 256 + byte, next: at + 9 };
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return { value, next: at + i + 1 };
  }
  throw new Error('unreachable');
}

/** The average row length FTS5 uses: the totals record (`<table>_fts_data` id 1) is the row count, then each column's token total. */
export function averageLength(record: Uint8Array): number {
  const first = varint(record, 0);
  let next = first.next;
  let tokens = 0;
  while (next < record.length) {
    const v = varint(record, next);
    tokens += v.value;
    next = v.next;
  }
  return tokens / first.value;
}

/** A profile packs the word's frequency in the row and the row's token count. */
export const profileOf = (frequency: number, length: number) => frequency * 2 ** 32 + length;

/** bm25's row-dependent fraction of a profile (same double operations as fts5_aux.c). */
function fraction(profile: number, avgdl: number): number {
  const f = Math.floor(profile / 2 ** 32);
  const d = profile % 2 ** 32;
  return (f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl));
}

/** The profiles with their fractions, best first (the larger fraction is the better bm25). */
function scored(profiles: readonly number[], avgdl: number): { p: number; s: number }[] {
  return profiles.map((p) => ({ p, s: fraction(p, avgdl) })).sort((x, y) => y.s - x.s || x.p - y.p);
}

/** The profiles, best bm25 first. */
export function bm25Order(profiles: readonly number[], avgdl: number): number[] {
  return scored(profiles, avgdl).map((x) => x.p);
}

/**
 * The profiles in groups of equal bm25, best group first — for callers that must reproduce
 * FTS5's order exactly (rows of one group by rowid). Equal fractions give equal scores; two
 * fractions further apart than a few units in the last place stay apart after the multiplication
 * by idf (each rounding moves a product by at most 2⁻⁵³ of itself). Closer ones might merge or
 * not, which only idf decides: null then, and the caller ranks every match instead.
 */
export function bm25Groups(profiles: readonly number[], avgdl: number): number[][] | null {
  const groups: number[][] = [];
  let last: number | null = null;
  for (const { p, s } of scored(profiles, avgdl)) {
    if (last !== null && s === last) groups[groups.length - 1].push(p);
    else if (last !== null && last - s <= last * 2 ** -50) return null;
    else groups.push([p]);
    last = s;
  }
  return groups;
}

/** Profiles one page statement reads as UNION ALL branches (SQLite allows 500 per compound). */
export const MAX_PROFILES = 400;

/**
 * The term's posting profiles and FTS5's average row length from `rankProfiles`' rows, or null
 * when the page should rank every match: too many profiles for one compound statement, or no
 * totals record.
 */
function readProfiles(rows: readonly Record<string, unknown>[]): { profiles: number[]; avgdl: number } | null {
  const profiles = rows.filter((r) => r.profile !== null).map((r) => Number(r.profile));
  const block = rows.find((r) => r.block !== null)?.block;
  if (profiles.length > MAX_PROFILES || !(block instanceof Uint8Array)) return null;
  return { profiles, avgdl: averageLength(block) };
}

// The readers of `rankProfiles`' rows. Only SQLite has that statement (PostgreSQL's returns
// null, so its callers never reach these), which is why they are functions, not dialect members.

/** The profiles best first, as `rank` takes them, or null when the page should rank every match. */
export function profileOrder(rows: readonly Record<string, unknown>[]): number[] | null {
  const read = readProfiles(rows);
  return read && bm25Order(read.profiles, read.avgdl);
}

/**
 * The same profiles in groups of equal relevance best first, for a caller that must keep the
 * engine's exact order (rows of a group by id); null when the page should rank every match.
 */
export function profileGroups(rows: readonly Record<string, unknown>[]): number[][] | null {
  const read = readProfiles(rows);
  return read && bm25Groups(read.profiles, read.avgdl);
}
