// The hard parts of actions and schedules without a server: duration strings (§19.1), hidden
// params and their stripping (§17.5), and the registration rules of show_when (§17.2).
import { describe, expect, it } from 'vitest';
import { LuaFunctionRef } from '../../core/lua/index.js';
import { stripHidden, validateParams } from './action-params.js';
import { parseAction, type ActionDef } from './actions.js';
import { parseDuration } from './duration.js';

const handler = new LuaFunctionRef({ name: 't', call: async () => [], releaseFunction: () => undefined }, 1);
const action = (params: unknown[]): ActionDef => parseAction('p', { id: 'a', label: 'A', entity: 'note', handler, params }, []);

describe('parseDuration', () => {
  it('reads Go-style durations', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2.5h')).toBe(9_000_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('-1h')).toBe(-3_600_000);
  });

  it('refuses days, bare numbers and junk', () => {
    expect(() => parseDuration('366d')).toThrow('unknown unit "d"');
    expect(() => parseDuration('60')).toThrow('missing unit');
    expect(() => parseDuration('')).toThrow('invalid duration');
    expect(() => parseDuration('h')).toThrow('invalid duration');
  });
});

describe('params', () => {
  const modes = action([
    { name: 'mode', type: 'select', label: 'Mode', options: ['now', 'later'] },
    { name: 'when', type: 'text', label: 'When', required: true, show_when: { mode: 'later' } },
    { name: 'n', type: 'number', label: 'N', show_when: { mode: ['later', 'soon'] } },
  ]);

  it('strips hidden params once and checks the visible ones', () => {
    expect(stripHidden(modes, { mode: 'now', when: 'x', n: 3 })).toEqual({ mode: 'now' });
    expect(validateParams(modes, { mode: 'later' })).toEqual([{ field: 'when', message: 'When is required' }]);
    expect(validateParams(modes, { mode: 'later', when: 'x', n: 'three' })).toEqual([{ field: 'n', message: 'N must be a number' }]);
    expect(validateParams(modes, { mode: 'never' })).toEqual([{ field: 'mode', message: 'Mode must be one of the available options' }]);
  });

  it('a controller absent from the submission hides its dependents', () => {
    expect(stripHidden(modes, { when: 'x' })).toEqual({});
    expect(validateParams(modes, {})).toEqual([]);
  });

  it('a number matches its expectation whether integer or float', () => {
    const a = action([
      { name: 'k', type: 'number', label: 'K' },
      { name: 'x', type: 'text', label: 'X', show_when: { k: 2 } },
    ]);
    expect(stripHidden(a, { k: 2.0, x: 'kept' })).toEqual({ k: 2, x: 'kept' });
    expect(stripHidden(a, { k: '2', x: 'dropped' })).toEqual({ k: '2' });
  });

  it('show_when chains must repeat the controller’s conditions (arrays as sets)', () => {
    const base = [
      { name: 'a', type: 'select', label: 'A', options: ['x', 'y'] },
      { name: 'b', type: 'boolean', label: 'B', show_when: { a: ['x', 'y'] } },
    ];
    expect(() => action([...base, { name: 'c', type: 'text', label: 'C', show_when: { b: true } }])).toThrow('repeat that condition');
    expect(() => action([...base, { name: 'c', type: 'text', label: 'C', show_when: { b: true, a: ['y', 'x'] } }])).not.toThrow();
  });
});
