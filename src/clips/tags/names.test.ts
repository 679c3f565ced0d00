import { describe, expect, it } from 'vitest';
import { ancestorsOf, descendantRange, inSubtree, isDescendant, parentOf, rootOf, validTagName } from './names.js';

describe('tag names', () => {
  it('trims and accepts ordinary paths', () => {
    expect(validTagName('  work/client1  ')).toBe('work/client1');
    expect(validTagName('my_api')).toBe('my_api');
    expect(validTagName('é'.repeat(50))).toBe('é'.repeat(50));
  });

  it('rejects empty, long, reserved and malformed names with a reason', () => {
    expect(() => validTagName('')).toThrow('tag name cannot be empty');
    expect(() => validTagName('   ')).toThrow('tag name cannot be empty');
    expect(() => validTagName('a'.repeat(51))).toThrow('tag name too long (max 50 characters)');
    for (const bad of ['a//b', '/a', 'a/', 'a/ /b']) expect(() => validTagName(bad)).toThrow('empty path segment');
    expect(() => validTagName('x/_api')).toThrow("reserved segment '_api'");
    expect(() => validTagName('_api')).toThrow("reserved segment '_api'");
    expect(() => validTagName('a/../b')).toThrow();
    expect(() => validTagName('a\nb')).toThrow('control characters');
    expect(() => validTagName(5)).toThrow('name must be a string');
  });

  it('derives parents, ancestors and roots by exact string operations', () => {
    expect(parentOf('a/b/c')).toBe('a/b');
    expect(parentOf('a')).toBeNull();
    expect(ancestorsOf('a/b/c')).toEqual(['a', 'a/b']);
    expect(ancestorsOf('a')).toEqual([]);
    expect(rootOf('work/client1')).toBe('work');
    expect(rootOf('work')).toBe('work');
    expect(isDescendant('work/x', 'work')).toBe(true);
    expect(isDescendant('workshop', 'work')).toBe(false);
    expect(isDescendant('Work/x', 'work')).toBe(false);
    expect(inSubtree('work', 'work')).toBe(true);
  });

  it('gives a binary range that holds exactly the descendants', () => {
    const [low, high] = descendantRange('work');
    const inRange = (n: string) => n >= low && n < high;
    expect(['work/a', 'work/a/b', 'work/zz', 'work/~'].every(inRange)).toBe(true);
    expect(['work', 'workshop', 'work0', 'work.x', 'worj/x', 'Work/x'].some(inRange)).toBe(false);
  });
});
