import { describe, expect, it } from 'vitest';
import { appendAt, canonicalJson, deleteAt, getAt, mergePatch, patchAt, replaceAt, type JsonValue } from './json-doc.js';

const doc = (): JsonValue => ({ items: [{ id: 1, t: 'a' }, { id: '7', t: 's' }], meta: { v: 1 } });

describe('tag-server JSON documents', () => {
  it('navigates keys and array elements by id (numbers and numeric strings)', () => {
    expect(getAt(doc(), [])).toEqual(doc());
    expect(getAt(doc(), ['items', '1'])).toEqual({ id: 1, t: 'a' });
    expect(getAt(doc(), ['items', '7', 't'])).toBe('s');
    expect(() => getAt(doc(), ['nope'])).toThrow('key "nope" not found');
    expect(() => getAt(doc(), ['items', '3'])).toThrow('no element with id 3 in array');
    expect(() => getAt(doc(), ['items', 'x'])).toThrow('no element with id x in array');
    expect(() => getAt(doc(), ['meta', 'v', 'deeper'])).toThrow('key "deeper" not found');
  });

  it('appends with the next id (T187) and only to arrays', () => {
    const d = doc();
    expect(appendAt(d, ['items'], { t: 'b', id: 99 })).toEqual({ t: 'b', id: 8 });
    expect(appendAt({ list: [] }, ['list'], { x: 1 })).toEqual({ x: 1, id: 1 });
    expect(() => appendAt(d, [], { x: 1 })).toThrow('target must be an array');
    expect(() => appendAt(d, ['items'], [1])).toThrow('body must be a JSON object');
  });

  it('replaces values, creating missing objects, keeping element ids', () => {
    const d = doc();
    expect(replaceAt(d, ['a', 'b', 'c'], 5)).toMatchObject({ a: { b: { c: 5 } } });
    replaceAt(d, ['items', '1'], { t: 'z', id: 50 });
    expect(getAt(d, ['items', '1'])).toEqual({ t: 'z', id: 1 });
    expect(replaceAt(d, [], [1, 2])).toEqual([1, 2]);
    expect(() => replaceAt(d, ['items', '1'], 'text')).toThrow('body must be a JSON object');
  });

  it('merges patches (RFC 7396) and ignores id', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: null, b: { c: null, e: 4 }, f: [1] })).toEqual({ b: { d: 3, e: 4 }, f: [1] });
    const d = doc();
    expect(patchAt(d, ['items', '1'], { t: 'c', id: 99 }).value).toEqual({ id: 1, t: 'c' });
    expect(() => patchAt(d, ['items'], { a: 1 })).toThrow('target must be an object');
  });

  it('deletes keys and elements but not the root', () => {
    const d = doc();
    deleteAt(d, ['items', '1']);
    deleteAt(d, ['meta', 'v']);
    expect(d).toEqual({ items: [{ id: '7', t: 's' }], meta: {} });
    expect(() => deleteAt(d, [])).toThrow('cannot delete root');
    expect(() => deleteAt(d, ['gone'])).toThrow('key "gone" not found');
  });

  it('keeps "__proto__" a plain key', () => {
    const d = JSON.parse('{"x":{}}') as JsonValue;
    replaceAt(d, ['x', '__proto__'], { polluted: true });
    const merged = mergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}') as JsonValue);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(canonicalJson(d)).toBe('{"x":{"__proto__":{"polluted":true}}}');
    expect(Object.keys(merged as object)).toEqual(['__proto__']);
  });

  it('stores compact JSON with sorted keys', () => {
    expect(canonicalJson({ meta: { v: 1 }, items: [{ t: 'c', id: 2 }] })).toBe('{"items":[{"id":2,"t":"c"}],"meta":{"v":1}}');
  });
});
