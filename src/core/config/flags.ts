// Go-style command-line flags with environment fallbacks, shared by both services.
// Every flag is accepted as -name or --name, with "=value" or a separate value; booleans are
// true when present. A flag wins over its environment variable; a bad value of either stops
// start-up with a message naming the flag (companion §1.1, Decision 6).
import { parseDuration } from './duration.js';

export class ConfigError extends Error {}

type FlagKind = 'string' | 'bool' | 'int' | 'duration' | 'list';

export interface FlagBase<K extends FlagKind, T> {
  kind: K;
  env?: string;
  help: string;
  default: T;
  /** Allowed values (string flags only); compared case-sensitively. */
  choices?: readonly string[];
  min?: number;
  /** The default as -help shows it, in the form the flag accepts ("30s", not 30000). */
  shown?: string;
}

export type FlagSpec =
  | FlagBase<'string', string>
  | FlagBase<'bool', boolean>
  | FlagBase<'int', number>
  | FlagBase<'duration', number>
  | FlagBase<'list', string[]>;

export type FlagSpecs = Record<string, FlagSpec>;

type ValueOf<S extends FlagSpec> = S['default'];
export type FlagValues<S extends FlagSpecs> = { [K in keyof S]: ValueOf<S[K]> };

export const flag = {
  string: (help: string, def = '', extra: { env?: string; choices?: readonly string[] } = {}): FlagBase<'string', string> => ({
    kind: 'string',
    help,
    default: def,
    ...extra,
  }),
  bool: (help: string, env?: string): FlagBase<'bool', boolean> => ({ kind: 'bool', help, default: false, env }),
  int: (help: string, def: number, extra: { env?: string; min?: number } = {}): FlagBase<'int', number> => ({
    kind: 'int',
    help,
    default: def,
    ...extra,
  }),
  duration: (help: string, def: string, env?: string): FlagBase<'duration', number> => ({
    kind: 'duration',
    help,
    default: parseDuration(def),
    shown: def,
    env,
  }),
  list: (help: string, env?: string): FlagBase<'list', string[]> => ({ kind: 'list', help, default: [], env }),
};

function convert(name: string, spec: FlagSpec, raw: string, source: string): unknown {
  const where = source === 'flag' ? `flag -${name}` : `environment variable ${spec.env}`;
  switch (spec.kind) {
    case 'string':
      if (spec.choices && !spec.choices.includes(raw)) {
        throw new ConfigError(`invalid value "${raw}" for ${where}: expected one of ${spec.choices.join(', ')}`);
      }
      return raw;
    case 'bool':
      if (source === 'env') return raw === '1';
      if (['true', '1', 't', 'TRUE', 'True', 'T'].includes(raw)) return true;
      if (['false', '0', 'f', 'FALSE', 'False', 'F'].includes(raw)) return false;
      throw new ConfigError(`invalid boolean value "${raw}" for ${where}`);
    case 'int': {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`invalid integer value "${raw}" for ${where}`);
      const n = Number(raw);
      if (!Number.isSafeInteger(n) || (spec.min !== undefined && n < spec.min)) {
        throw new ConfigError(`value ${raw} for ${where} is out of range`);
      }
      return n;
    }
    case 'duration':
      try {
        return parseDuration(raw);
      } catch (e) {
        throw new ConfigError(`invalid duration "${raw}" for ${where}: ${(e as Error).message}`);
      }
    case 'list':
      return [raw];
  }
}

/** Parses argv (without the program and subcommand names) against the specs. */
export function parseFlags<S extends FlagSpecs>(
  specs: S,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { values: FlagValues<S>; positionals: string[] } {
  const values: Record<string, unknown> = {};
  const fromFlags = new Set<string>();
  const positionals: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const spec = specs[name];
    if (!spec) throw new ConfigError(`unknown flag -${name} (see --help)`);
    let raw: string;
    if (eq >= 0) raw = body.slice(eq + 1);
    else if (spec.kind === 'bool') raw = 'true';
    else {
      if (i + 1 >= argv.length) throw new ConfigError(`flag -${name} needs a value`);
      raw = argv[++i];
    }
    const value = convert(name, spec, raw, 'flag');
    if (spec.kind === 'list' && fromFlags.has(name)) (values[name] as string[]).push(raw);
    else values[name] = value;
    fromFlags.add(name);
  }

  for (const [name, spec] of Object.entries(specs)) {
    if (fromFlags.has(name)) continue;
    const raw = spec.env ? env[spec.env] : undefined;
    if (raw !== undefined && raw !== '') {
      values[name] = spec.kind === 'list' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : convert(name, spec, raw, 'env');
    } else {
      values[name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    }
  }
  return { values: values as FlagValues<S>, positionals };
}

/** Help text listing every flag with its variable and default. */
export function flagHelp(specs: FlagSpecs): string {
  return Object.entries(specs)
    .map(([name, s]) => {
      const def = s.kind === 'bool' ? '' : ` (default ${s.shown ?? JSON.stringify(s.default)})`;
      const env = s.env ? ` [${s.env}]` : '';
      return `  -${name}${env}\n      ${s.help}${def}`;
    })
    .join('\n');
}
