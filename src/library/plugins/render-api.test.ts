// The shared opening checks of mah.shortcode, mah.block_type and mah.display_type: plugin
// authors see these messages when enable fails, so they are pinned word for word.
import { describe, expect, it } from 'vitest';
import { typeHeader } from './render-api.js';

describe('typeHeader', () => {
  it('answers the table, its name and how messages name the call', () => {
    const arg = { type: 'tally', label: 'Tally' };
    expect(typeHeader(arg, 'block_type')).toEqual({ t: arg, name: 'tally', what: 'mah.block_type "tally"' });
    expect(typeHeader({ name: 'hello_x', label: 'Hi' }, 'shortcode').what).toBe('mah.shortcode "hello_x"');
  });

  it('refuses a non-table argument', () => {
    expect(() => typeHeader('x', 'display_type')).toThrow("bad argument #1 to 'display_type' (table expected)");
    expect(() => typeHeader([], 'shortcode')).toThrow("bad argument #1 to 'shortcode' (table expected)");
  });

  it('refuses a name outside its kind\'s pattern (shortcodes allow _, types do not)', () => {
    expect(() => typeHeader({ name: 'Bad', label: 'x' }, 'shortcode')).toThrow('mah.shortcode: name must match ^[a-z][a-z0-9_-]{0,49}$, got "Bad"');
    expect(() => typeHeader({ type: 'a_b', label: 'x' }, 'block_type')).toThrow('mah.block_type: type must match ^[a-z][a-z0-9-]{0,49}$, got "a_b"');
    expect(() => typeHeader({ label: 'x' }, 'display_type')).toThrow('mah.display_type: type must match ^[a-z][a-z0-9-]{0,49}$, got ""');
  });

  it('requires a non-empty label', () => {
    expect(() => typeHeader({ type: 'swatch' }, 'display_type')).toThrow('mah.display_type "swatch": label is required');
    expect(() => typeHeader({ type: 'tally', label: '' }, 'block_type')).toThrow('mah.block_type "tally": label is required');
    expect(() => typeHeader({ name: 'hello' }, 'shortcode')).toThrow('mah.shortcode "hello": label is required');
  });
});
