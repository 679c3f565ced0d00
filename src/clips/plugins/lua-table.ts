// Reads the `Plugin = { … }` table constructor of a plugin source without running it
// (companion §8.1, design choice): strings, numbers, booleans and nested tables, with
// `key =`, `["key"] =` and positional fields. Any other value (a function, an expression, a
// variable) is skipped, so the manifest is exactly what the text says, whatever the code does.

/** A Lua table as written: positional items in order, keyed fields by key. */
export interface LuaTableLiteral {
  items: LuaLiteral[];
  fields: Map<string, LuaLiteral>;
}
export type LuaLiteral = string | number | boolean | LuaTableLiteral;

export class ManifestError extends Error {}

type Token = { kind: 'name' | 'string' | 'number' | 'punct'; value: string };

const PUNCT = ['...', '..', '==', '~=', '<=', '>=', '//', '::', '<<', '>>'];

function longBracket(src: string, i: number): { level: number } | null {
  const m = /^\[(=*)\[/.exec(src.slice(i, i + 200));
  return m ? { level: m[1].length } : null;
}

function readLong(src: string, i: number, level: number): { text: string; end: number } {
  const open = 2 + level;
  const close = `]${'='.repeat(level)}]`;
  const end = src.indexOf(close, i + open);
  if (end < 0) throw new ManifestError('unfinished long string or comment');
  let text = src.slice(i + open, end);
  if (text.startsWith('\r\n')) text = text.slice(2);
  else if (text.startsWith('\n')) text = text.slice(1);
  return { text, end: end + close.length };
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', '"': '"', "'": "'", '\n': '\n' };

function readQuoted(src: string, i: number): { text: string; end: number } {
  const quote = src[i];
  let out = '';
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === quote) return { text: out, end: j + 1 };
    if (c === '\n') break;
    if (c !== '\\') {
      out += c;
      j++;
      continue;
    }
    const e = src[j + 1];
    if (e in ESCAPES) {
      out += ESCAPES[e];
      j += 2;
    } else if (e === 'z') {
      j += 2;
      while (/\s/.test(src[j] ?? '')) j++;
    } else if (e === 'x') {
      out += String.fromCharCode(parseInt(src.slice(j + 2, j + 4), 16));
      j += 4;
    } else if (/\d/.test(e)) {
      const m = /^\d{1,3}/.exec(src.slice(j + 1))!;
      out += String.fromCharCode(Number(m[0]));
      j += 1 + m[0].length;
    } else if (e === 'u') {
      const m = /^u\{([0-9a-fA-F]+)\}/.exec(src.slice(j + 1));
      if (!m) throw new ManifestError('invalid escape in string');
      out += String.fromCodePoint(parseInt(m[1], 16));
      j += 1 + m[0].length;
    } else {
      throw new ManifestError('invalid escape in string');
    }
  }
  throw new ManifestError('unfinished string');
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
    } else if (src.startsWith('--', i)) {
      const long = longBracket(src, i + 2);
      if (long) i = readLong(src, i + 2, long.level).end;
      else {
        const nl = src.indexOf('\n', i);
        i = nl < 0 ? src.length : nl + 1;
      }
    } else if (c === '"' || c === "'") {
      const s = readQuoted(src, i);
      tokens.push({ kind: 'string', value: s.text });
      i = s.end;
    } else if (c === '[' && longBracket(src, i)) {
      const s = readLong(src, i, longBracket(src, i)!.level);
      tokens.push({ kind: 'string', value: s.text });
      i = s.end;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 256))!;
      tokens.push({ kind: 'name', value: m[0] });
      i += m[0].length;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(0[xX][0-9a-fA-F.]+([pP][+-]?\d+)?|[0-9]*\.?[0-9]+([eE][+-]?\d+)?\.?)/.exec(src.slice(i, i + 256))!;
      tokens.push({ kind: 'number', value: m[0] });
      i += m[0].length;
    } else {
      const p = PUNCT.find((p) => src.startsWith(p, i)) ?? c;
      tokens.push({ kind: 'punct', value: p });
      i += p.length;
    }
  }
  return tokens;
}

const SKIP = Symbol('skip');

class Parser {
  pos = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  isPunct(value: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.kind === 'punct' && t.value === value;
  }

  expect(value: string): void {
    if (!this.isPunct(value)) throw new ManifestError(`expected '${value}' in the Plugin table`);
    this.pos++;
  }

  /** Skips one value expression up to the next field separator at this nesting level. */
  skipExpression(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (!t) throw new ManifestError('unfinished Plugin table');
      if (t.kind === 'punct') {
        if (depth === 0 && (t.value === ',' || t.value === ';' || t.value === '}')) return;
        if (t.value === '{' || t.value === '(' || t.value === '[') depth++;
        if (t.value === '}' || t.value === ')' || t.value === ']') depth--;
      }
      this.pos++;
    }
  }

  /** A literal value, or SKIP for anything else (then skipped whole). */
  value(): LuaLiteral | typeof SKIP {
    const start = this.pos;
    const t = this.peek();
    let v: LuaLiteral | typeof SKIP = SKIP;
    if (t?.kind === 'string') {
      this.pos++;
      v = t.value;
    } else if (t?.kind === 'number') {
      this.pos++;
      v = Number(t.value);
    } else if (t?.kind === 'punct' && t.value === '-' && this.peek(1)?.kind === 'number') {
      this.pos += 2;
      v = -Number(this.peek(-1)!.value);
    } else if (t?.kind === 'name' && (t.value === 'true' || t.value === 'false')) {
      this.pos++;
      v = t.value === 'true';
    } else if (t?.kind === 'punct' && t.value === '{') {
      v = this.table();
    }
    const next = this.peek();
    const ended = !next || (next.kind === 'punct' && [',', ';', '}'].includes(next.value));
    if (v === SKIP || !ended || (typeof v === 'number' && Number.isNaN(v))) {
      this.pos = start;
      this.skipExpression();
      return SKIP;
    }
    return v;
  }

  table(): LuaTableLiteral {
    this.expect('{');
    const out: LuaTableLiteral = { items: [], fields: new Map() };
    while (!this.isPunct('}')) {
      if (!this.peek()) throw new ManifestError('unfinished Plugin table');
      let key: string | number | null | typeof SKIP = null;
      if (this.isPunct('[')) {
        this.pos++;
        const k = this.peek();
        if ((k?.kind === 'string' || k?.kind === 'number') && this.isPunct(']', 1)) {
          key = k.kind === 'number' ? Number(k.value) : k.value;
          this.pos += 2;
        } else {
          // A computed key: skip to its closing bracket.
          let depth = 1;
          while (depth > 0) {
            const t = this.peek();
            if (!t) throw new ManifestError('unfinished Plugin table');
            if (t.kind === 'punct' && (t.value === '[' || t.value === ']')) depth += t.value === '[' ? 1 : -1;
            this.pos++;
          }
          key = SKIP;
        }
        this.expect('=');
      } else if (this.peek()?.kind === 'name' && this.isPunct('=', 1)) {
        key = this.peek()!.value;
        this.pos += 2;
      }
      const v = this.value();
      if (key === null) {
        if (v !== SKIP) out.items.push(v);
      } else if (key !== SKIP && v !== SKIP) {
        out.fields.set(String(key), v);
      }
      if (this.isPunct(',') || this.isPunct(';')) this.pos++;
      else if (!this.isPunct('}')) throw new ManifestError("expected ',' or '}' in the Plugin table");
    }
    this.pos++;
    return out;
  }
}

/**
 * The literal of the first top-level `Plugin = {` assignment, or null when the source has
 * none. Throws ManifestError when the constructor itself is malformed.
 */
export function readPluginTable(source: string): LuaTableLiteral | null {
  const tokens = tokenize(source);
  for (let i = 0; i + 2 < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'name' || t.value !== 'Plugin') continue;
    const before = tokens[i - 1];
    if (before && before.kind === 'punct' && (before.value === '.' || before.value === ':')) continue;
    if (tokens[i + 1].kind !== 'punct' || tokens[i + 1].value !== '=' || tokens[i + 2].kind !== 'punct' || tokens[i + 2].value !== '{') continue;
    const parser = new Parser(tokens);
    parser.pos = i + 2;
    return parser.table();
  }
  return null;
}
