import { describe, expect, it } from 'vitest';
import { postgresDialect } from './dialect/postgres.js';
import { sqliteDialect } from './dialect/sqlite.js';
import { paramValue, positionalParams } from './readonly.js';

describe('saved query placeholders', () => {
  it('turns :name into positional parameters for each engine', () => {
    expect(positionalParams('SELECT * FROM t WHERE a = :a AND b = :b_2 OR a = :a', sqliteDialect.placeholder)).toEqual({
      text: 'SELECT * FROM t WHERE a = ? AND b = ? OR a = ?',
      names: ['a', 'b_2', 'a'],
    });
    expect(positionalParams('SELECT :x, :y', postgresDialect.placeholder)).toEqual({ text: 'SELECT $1, $2', names: ['x', 'y'] });
  });

  it('leaves casts, strings, quoted identifiers and comments alone', () => {
    const sql = `SELECT id::text, ':no', "a:b" FROM t -- :comment\nWHERE x = :yes /* :block */`;
    expect(positionalParams(sql, postgresDialect.placeholder)).toEqual({ text: `SELECT id::text, ':no', "a:b" FROM t -- :comment\nWHERE x = $1 /* :block */`, names: ['yes'] });
    expect(positionalParams("SELECT ':' || :a", sqliteDialect.placeholder).names).toEqual(['a']);
    expect(positionalParams('SELECT 1:', sqliteDialect.placeholder)).toEqual({ text: 'SELECT 1:', names: [] });
  });

  it('parses parameter text as JSON when it can', () => {
    expect(paramValue('5')).toBe(5);
    expect(paramValue('true')).toBe(true);
    expect(paramValue('null')).toBeNull();
    expect(paramValue('"quoted"')).toBe('quoted');
    expect(paramValue('plain text')).toBe('plain text');
    expect(paramValue('{"a":1}')).toBe('{"a":1}');
    expect(paramValue(undefined)).toBeNull();
  });
});
