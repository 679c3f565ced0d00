import { describe, expect, it } from 'vitest';
import { ConfigError, flag, parseFlags } from './flags.js';
import { parseDuration } from './duration.js';

const specs = {
  name: flag.string('a name', 'default', { env: 'NAME' }),
  mode: flag.string('a mode', 'A', { env: 'MODE', choices: ['A', 'B'] }),
  count: flag.int('a count', 3, { env: 'COUNT', min: 0 }),
  verbose: flag.bool('be loud', 'VERBOSE'),
  wait: flag.duration('a wait', '30s', 'WAIT'),
  alt: flag.list('repeatable', 'ALT'),
};

describe('Go-style flags', () => {
  it('accepts one or two dashes, = or a separate value', () => {
    const { values } = parseFlags(specs, ['-name', 'x', '--count=7', '--mode', 'B', '-verbose', '-wait=1h30m'], {});
    expect(values).toMatchObject({ name: 'x', count: 7, mode: 'B', verbose: true, wait: 5_400_000 });
  });

  it('uses defaults, then environment, and lets flags win', () => {
    expect(parseFlags(specs, [], {}).values).toMatchObject({ name: 'default', count: 3, verbose: false, wait: 30_000, alt: [] });
    expect(parseFlags(specs, [], { NAME: 'env', COUNT: '9', VERBOSE: '1' }).values).toMatchObject({ name: 'env', count: 9, verbose: true });
    expect(parseFlags(specs, ['-name=flag'], { NAME: 'env' }).values.name).toBe('flag');
  });

  it('enables boolean environment variables only with exactly 1', () => {
    expect(parseFlags(specs, [], { VERBOSE: 'true' }).values.verbose).toBe(false);
    expect(parseFlags(specs, ['-verbose=false'], { VERBOSE: '1' }).values.verbose).toBe(false);
  });

  it('collects repeated list flags, and comma lists from the environment', () => {
    expect(parseFlags(specs, ['-alt', 'a:1', '--alt=b:2'], {}).values.alt).toEqual(['a:1', 'b:2']);
    expect(parseFlags(specs, [], { ALT: 'a:1, b:2' }).values.alt).toEqual(['a:1', 'b:2']);
  });

  it('stops on bad values of flags and environment variables alike', () => {
    const bad: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['-count', 'ten'], {}, /invalid integer value "ten" for flag -count/],
      [[], { COUNT: 'ten' }, /environment variable COUNT/],
      [['-count=-1'], {}, /out of range/],
      [['-mode=C'], {}, /expected one of A, B/],
      [['-wait=3d'], {}, /invalid duration/],
      [['-nope'], {}, /unknown flag -nope/],
      [['-name'], {}, /needs a value/],
      [['-verbose=maybe'], {}, /invalid boolean/],
    ];
    for (const [argv, env, message] of bad) {
      expect(() => parseFlags(specs, argv, env)).toThrow(ConfigError);
      expect(() => parseFlags(specs, argv, env)).toThrow(message);
    }
  });

  it('parses Go durations', () => {
    expect(parseDuration('300ms')).toBe(300);
    expect(parseDuration('720h')).toBe(720 * 3_600_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(() => parseDuration('5 minutes')).toThrow();
    expect(() => parseDuration('')).toThrow();
  });
});
