// Custom watch filters (companion §7.2): a JavaScript RegExp with the u flag, searched in the
// base filename. Patterns are checked when saved: backreferences and lookaround are refused
// (the RE2-compatible subset), and so are the shapes that make a backtracking engine take
// exponential time, as the safe-regex check does: a repeated group that itself contains a
// repetition ("(a+)+"), too many repetitions, or a very long pattern.
import { badRequest } from '../../core/http/errors.js';

export const MAX_PATTERN_LENGTH = 500;
export const MAX_REPETITIONS = 10;

export class UnsafePattern extends Error {}

interface Group {
  /** A repeating quantifier applies somewhere inside this group. */
  repeats: boolean;
}

/** Quantifier text at `i` ("*", "+", "?", "{n}", "{n,}", "{n,m}"), or null. */
function quantifierAt(p: string, i: number): { length: number; repeating: boolean } | null {
  const c = p[i];
  if (c === '*' || c === '+') return { length: 1, repeating: true };
  if (c === '?') return { length: 1, repeating: false };
  if (c !== '{') return null;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i));
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  return { length: m[0].length, repeating: max > 1 };
}

/** Length of the escape sequence starting at the backslash at `i`. */
function escapeLength(p: string, i: number): number {
  const next = p[i + 1];
  if (next === undefined) return 1;
  if (/[1-9]/.test(next) || next === 'k') throw new UnsafePattern('backreferences are not supported');
  if ((next === 'u' || next === 'p' || next === 'P') && p[i + 2] === '{') {
    const close = p.indexOf('}', i + 3);
    return close < 0 ? 2 : close - i + 1;
  }
  if (next === 'u') return 6;
  if (next === 'x') return 4;
  if (next === 'c') return 3;
  return 2;
}

/** Throws UnsafePattern naming the first refused construct. */
export function checkPatternSafety(p: string): void {
  if (p.length > MAX_PATTERN_LENGTH) throw new UnsafePattern(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
  const stack: Group[] = [{ repeats: false }];
  // What the next quantifier would apply to: an atom, a closed group, or nothing.
  let last: { group: Group | null } | null = null;
  let repetitions = 0;
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    const q = quantifierAt(p, i);
    if (q && last) {
      if (q.repeating) {
        if (last.group?.repeats) throw new UnsafePattern('nested repetition (a repeated group containing a repetition)');
        stack[stack.length - 1].repeats = true;
        if (++repetitions > MAX_REPETITIONS) throw new UnsafePattern(`more than ${MAX_REPETITIONS} repetitions`);
      }
      i += q.length;
      if (p[i] === '?') i++; // lazy form
      last = null;
      continue;
    }
    if (c === '\\') {
      i += escapeLength(p, i);
      last = { group: null };
    } else if (c === '[') {
      i++;
      while (i < p.length && p[i] !== ']') i += p[i] === '\\' ? 2 : 1;
      i++;
      last = { group: null };
    } else if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(p.slice(i))) throw new UnsafePattern('lookaround is not supported');
      const named = /^\(\?(:|<[^>]*>)/.exec(p.slice(i));
      i += named ? named[0].length : 1;
      stack.push({ repeats: false });
      last = null;
    } else if (c === ')') {
      const group = stack.length > 1 ? stack.pop()! : { repeats: false };
      if (group.repeats) stack[stack.length - 1].repeats = true;
      i++;
      last = { group };
    } else if (c === '|') {
      i++;
      last = null;
    } else {
      i++;
      last = { group: null };
    }
  }
}

/** Compiles a stored or submitted pattern; 400 "invalid filter_regex: <reason>" when refused. */
export function compileFilterRegex(pattern: string): RegExp {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch (e) {
    throw badRequest(`invalid filter_regex: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  try {
    checkPatternSafety(pattern);
  } catch (e) {
    throw badRequest(`invalid filter_regex: ${(e as Error).message}`);
  }
  return re;
}
