// Byte-oriented MRQL lexer (mrql.md §2). Positions and lengths are UTF-8 byte offsets into the
// text as submitted; non-ASCII bytes are legal only inside string literals.

export type TokenType =
  | 'STRING'
  | 'NUMBER'
  | 'RELDATE'
  | 'FUNC'
  | 'PARAM'
  | 'IDENT'
  | 'KEYWORD'
  | 'AGG'
  | 'OP'
  | 'PUNCT'
  | 'ILLEGAL'
  | 'EOF';

export interface Token {
  type: TokenType;
  /** STRING: unescaped content; PARAM: name without $; KEYWORD: canonical upper-case word(s); others: source text. */
  value: string;
  /** Source text as written (for keywords, case as typed). */
  text: string;
  pos: number;
  len: number;
}

export const MAX_QUERY_BYTES = 32768;
export const MAX_TOKENS = 2048;

const RESERVED = new Set(['AND', 'OR', 'NOT', 'IN', 'IS', 'EMPTY', 'NULL', 'ASC', 'DESC', 'LIMIT', 'OFFSET', 'TEXT', 'SCOPE', 'TYPE', 'HAVING']);
const FUNCS = new Set(['NOW', 'START_OF_DAY', 'START_OF_WEEK', 'START_OF_MONTH', 'START_OF_YEAR']);
const AGGS = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);
const PAIRS: Record<string, string> = { ORDER: 'BY', GROUP: 'BY', SIMILAR: 'TO' };

const isAlpha = (b: number) => (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b === 95;
const isDigit = (b: number) => b >= 48 && b <= 57;
const isIdent = (b: number) => isAlpha(b) || isDigit(b);
const isSpace = (b: number) => b === 32 || (b >= 9 && b <= 13);

export function toBytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** Lexes the whole input; the last token is EOF. */
export function lex(input: string | Buffer): Token[] {
  const buf = typeof input === 'string' ? toBytes(input) : input;
  const n = buf.length;
  const out: Token[] = [];
  const slice = (a: number, b: number) => buf.toString('utf8', a, b);
  const push = (type: TokenType, value: string, pos: number, end: number) => out.push({ type, value, text: slice(pos, end), pos, len: end - pos });
  let i = 0;
  while (i < n) {
    const b = buf[i];
    if (isSpace(b)) {
      i++;
      continue;
    }
    const start = i;
    if (b === 34) {
      // string literal
      const parts: number[] = [];
      i++;
      let closed = false;
      while (i < n) {
        const c = buf[i];
        if (c === 92 && i + 1 < n && (buf[i + 1] === 34 || buf[i + 1] === 92)) {
          parts.push(buf[i + 1]);
          i += 2;
        } else if (c === 34) {
          closed = true;
          i++;
          break;
        } else {
          parts.push(c);
          i++;
        }
      }
      const value = Buffer.from(parts).toString('utf8');
      out.push({ type: closed ? 'STRING' : 'ILLEGAL', value, text: slice(start, i), pos: start, len: i - start });
      continue;
    }
    if (isDigit(b)) {
      while (i < n && isDigit(buf[i])) i++;
      if (i + 1 < n && buf[i] === 46 && isDigit(buf[i + 1])) {
        i++;
        while (i < n && isDigit(buf[i])) i++;
      }
      if (i + 1 < n && /[kmgKMG]/.test(String.fromCharCode(buf[i])) && (buf[i + 1] === 98 || buf[i + 1] === 66) && !(i + 2 < n && isIdent(buf[i + 2]))) i += 2;
      push('NUMBER', slice(start, i), start, i);
      continue;
    }
    if (b === 45) {
      // relative date: -digits unit
      let j = i + 1;
      while (j < n && isDigit(buf[j])) j++;
      if (j > i + 1) {
        if (j < n && /[dwmyDWMY]/.test(String.fromCharCode(buf[j])) && !(j + 1 < n && isIdent(buf[j + 1]))) {
          push('RELDATE', slice(start, j + 1), start, j + 1);
          i = j + 1;
        } else {
          push('ILLEGAL', slice(start, j), start, j);
          i = j;
        }
        continue;
      }
      push('ILLEGAL', '-', start, start + 1);
      i++;
      continue;
    }
    if (isAlpha(b)) {
      while (i < n && isIdent(buf[i])) i++;
      const word = slice(start, i);
      const upper = word.toUpperCase();
      if (FUNCS.has(upper) && buf[i] === 40 && buf[i + 1] === 41) {
        i += 2;
        push('FUNC', upper + '()', start, i);
        continue;
      }
      if (AGGS.has(upper) && buf[i] === 40) {
        push('AGG', upper, start, i);
        continue;
      }
      const second = PAIRS[upper];
      if (second) {
        let j = i;
        while (j < n && isSpace(buf[j])) j++;
        const k = j + second.length;
        if (j > i && k <= n && slice(j, k).toUpperCase() === second && !(k < n && isIdent(buf[k]))) {
          push('KEYWORD', `${upper} ${second}`, start, k);
          i = k;
          continue;
        }
      }
      if (RESERVED.has(upper)) push('KEYWORD', upper, start, i);
      else push('IDENT', word, start, i);
      continue;
    }
    if (b === 36) {
      if (i + 1 < n && isAlpha(buf[i + 1])) {
        i++;
        while (i < n && isIdent(buf[i])) i++;
        push('PARAM', slice(start + 1, i), start, i);
      } else {
        push('ILLEGAL', '$', start, start + 1);
        i++;
      }
      continue;
    }
    const c2 = i + 1 < n ? buf[i + 1] : -1;
    const c3 = i + 2 < n ? buf[i + 2] : -1;
    if (b === 33) {
      // ! forms
      if (c2 === 126 && c3 === 42) {
        push('OP', '!~*', start, i + 3);
        i += 3;
      } else if (c2 === 126) {
        push('OP', '!~', start, i + 2);
        i += 2;
      } else if (c2 === 61) {
        push('OP', '!=', start, i + 2);
        i += 2;
      } else {
        push('ILLEGAL', '!', start, i + 1);
        i++;
      }
      continue;
    }
    if (b === 126) {
      if (c2 === 42) {
        push('OP', '~*', start, i + 2);
        i += 2;
      } else {
        push('OP', '~', start, i + 1);
        i++;
      }
      continue;
    }
    if (b === 62 || b === 60) {
      const op = b === 62 ? '>' : '<';
      if (c2 === 61) {
        push('OP', op + '=', start, i + 2);
        i += 2;
      } else {
        push('OP', op, start, i + 1);
        i++;
      }
      continue;
    }
    if (b === 61) {
      push('OP', '=', start, i + 1);
      i++;
      continue;
    }
    if (b === 40 || b === 41 || b === 44 || b === 46) {
      push('PUNCT', String.fromCharCode(b), start, i + 1);
      i++;
      continue;
    }
    // Any other byte (including a whole non-ASCII sequence's lead byte) is illegal, length 1.
    out.push({ type: 'ILLEGAL', value: b < 128 ? String.fromCharCode(b) : slice(i, i + 1), text: slice(i, i + 1), pos: i, len: 1 });
    i++;
  }
  out.push({ type: 'EOF', value: '', text: '', pos: n, len: 0 });
  return out;
}

/** The token as quoted in messages: its value JSON-escaped in double quotes. */
export function quoteToken(t: Token): string {
  if (t.type === 'EOF') return '""';
  const v = t.type === 'KEYWORD' || t.type === 'AGG' || t.type === 'FUNC' ? t.text : t.value;
  return JSON.stringify(v);
}
