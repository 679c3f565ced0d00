import { describe, expect, it } from 'vitest';
import { checkPatternSafety, compileFilterRegex, UnsafePattern } from './regex.js';

describe('watch filter patterns', () => {
  it('accepts the RE2-like subset with single-level repetition', () => {
    for (const p of ['', '^shot_.*\\.png$', '^(IMG|DSC)_\\d{4}\\.(jpe?g|png)$', '[(+*]+\\(x\\)', '\\u{1F600}+', '\\p{L}+\\.txt', 'a{2,5}b?', '(?:ab)+', '(?<year>\\d{4})-x']) {
      expect(() => checkPatternSafety(p), p).not.toThrow();
    }
  });

  it('refuses backreferences, lookaround and nested repetition, also behind escapes and classes', () => {
    const refused: [string, string][] = [
      ['(a)\\1', 'backreferences'],
      ['(?<n>a)\\k<n>', 'backreferences'],
      ['(?=a)', 'lookaround'],
      ['(?!a)', 'lookaround'],
      ['(?<=a)b', 'lookaround'],
      ['(?<!a)b', 'lookaround'],
      ['(a+)+', 'nested repetition'],
      ['(a*)*', 'nested repetition'],
      ['(a{2,})*', 'nested repetition'],
      ['((a+))+', 'nested repetition'],
      ['(?:x(a|b+)y){2,}', 'nested repetition'],
      ['(a|b)(c+)+', 'nested repetition'],
      ['a*'.repeat(11), 'more than 10 repetitions'],
      ['x'.repeat(501), 'longer than 500'],
    ];
    for (const [p, reason] of refused) expect(() => checkPatternSafety(p), p).toThrow(reason);
    expect(() => checkPatternSafety('(a+)+')).toThrow(UnsafePattern);
  });

  it('does not count escaped or class characters as structure', () => {
    expect(() => checkPatternSafety('\\(a+\\)+')).not.toThrow();
    expect(() => checkPatternSafety('[(]a+[)]+')).not.toThrow();
    // A quantifier of at most one repetition is not a repetition: (a+)? is linear.
    expect(() => checkPatternSafety('(a+)?x')).not.toThrow();
    expect(() => checkPatternSafety('(a+){1}x')).not.toThrow();
  });

  it('compiles with the u flag and names the reason in a 400', () => {
    expect(compileFilterRegex('^x.$').test('x😀')).toBe(true);
    expect(() => compileFilterRegex('(')).toThrow(/^invalid filter_regex: /);
    expect(() => compileFilterRegex('\\p{Nope}')).toThrow(/^invalid filter_regex: /);
    expect(() => compileFilterRegex('(a+)+$')).toThrow('invalid filter_regex: nested repetition');
  });
});
