import { describe, expect, it } from 'vitest';
import { parseMetaPath, setMetaPath, storedMeta } from './paths.js';
import { HttpError } from '../../core/http/errors.js';

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as HttpError).status;
  }
  return 0;
};

describe('meta dot paths', () => {
  it('sets a top-level key and keeps the others', () => {
    expect(setMetaPath({ a: 1, b: 2 }, ['a'], 5)).toEqual({ a: 5, b: 2 });
  });

  it('creates missing intermediate objects and keeps siblings at every level', () => {
    const meta = { x: { keep: true, y: { keep2: 1 } }, other: 'o' };
    expect(setMetaPath(meta, ['x', 'y', 'z'], [1, 2])).toEqual({ x: { keep: true, y: { keep2: 1, z: [1, 2] } }, other: 'o' });
    expect(setMetaPath({}, ['p', 'q'], null)).toEqual({ p: { q: null } });
    expect(meta).toEqual({ x: { keep: true, y: { keep2: 1 } }, other: 'o' });
  });

  it('replaces a scalar or array standing where an object is needed', () => {
    expect(setMetaPath({ a: 3 }, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
    expect(setMetaPath({ a: [1] }, ['a', 'b'], 1)).toEqual({ a: { b: 1 } });
  });

  it('refuses empty segments and corrupt stored meta', () => {
    for (const p of ['', 'a..b', '.a', 'a.', ' ']) expect(status(() => parseMetaPath(p)), p).toBe(400);
    expect(parseMetaPath('a.b')).toEqual(['a', 'b']);
    for (const bad of ['[1]', 'nope', '3', 'null']) expect(status(() => storedMeta(bad)), bad).toBe(400);
    expect(storedMeta('')).toEqual({});
  });
});
