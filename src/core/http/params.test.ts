import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { makeBag, readParams } from './params.js';
import { HttpError } from './errors.js';

const schema = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Name: Type.Optional(Type.String()),
  Tags: Type.Optional(Type.Array(Type.Integer())),
  Flag: Type.Optional(Type.Boolean()),
  Level: Type.Optional(Type.String({ enum: ['info', 'error'] })),
  Need: Type.Integer(),
});

function read(...sources: unknown[]) {
  return readParams(schema, makeBag(...sources));
}

function status(fn: () => unknown): number {
  try {
    fn();
    return 0;
  } catch (e) {
    return (e as HttpError).status;
  }
}

describe('request parameters', () => {
  it('matches names case-insensitively and lets the body win over the query', () => {
    expect(read({ id: '3', need: '1' }, { NAME: 'x', Id: 4 })).toEqual({ ID: 4, Name: 'x', Need: 1 });
  });

  it('reads integer lists from repeats, JSON arrays and comma lists', () => {
    expect(read({ Need: 1, Tags: ['1', '2'] }).Tags).toEqual([1, 2]);
    expect(read({ Need: 1, Tags: [3, 4] }).Tags).toEqual([3, 4]);
    expect(read({ Need: 1, Tags: '5,6' }).Tags).toEqual([5, 6]);
    expect(read({ Need: 1, Tags: '' }).Tags).toEqual([]);
  });

  it('keeps absent parameters absent and empty text empty', () => {
    const r = read({ Need: 1, Name: '' });
    expect(r).toEqual({ Need: 1, Name: '' });
    expect('ID' in r).toBe(false);
    expect(read({ Need: 1, ID: '', Level: '', Flag: '' })).toEqual({ Need: 1 });
  });

  it('parses booleans the way forms send them', () => {
    for (const v of ['true', '1', 'on', true]) expect(read({ Need: 1, Flag: v }).Flag).toBe(true);
    for (const v of ['false', '0', false]) expect(read({ Need: 1, Flag: v }).Flag).toBe(false);
  });

  it('answers 400 for wrong types, bad enum values and missing required parameters', () => {
    expect(status(() => read({ Need: 'x' }))).toBe(400);
    expect(status(() => read({ Need: 1.5 }))).toBe(400);
    expect(status(() => read({ Need: 1, Tags: ['1', 'b'] }))).toBe(400);
    expect(status(() => read({ Need: 1, Flag: 'maybe' }))).toBe(400);
    expect(status(() => read({ Need: 1, Level: 'loud' }))).toBe(400);
    expect(status(() => read({}))).toBe(400);
    expect(status(() => read({ Need: '99999999999999999999' }))).toBe(400);
    expect(status(() => read({ Need: 1, Name: { nested: true } }))).toBe(400);
  });
});
