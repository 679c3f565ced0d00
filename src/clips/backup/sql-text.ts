// The database.sql of a backup (companion §10.1): one INSERT statement per row, literals NULL,
// integers, decimals without exponent, single-quoted strings with ' doubled, and X'…' blobs.
// On restore the file is parsed, never executed: anything but comments, whitespace and such
// INSERT statements is refused with its line number.

export type SqlValue = null | number | bigint | string | Buffer;

export interface InsertRow {
  table: string;
  columns: string[];
  values: SqlValue[];
}

/** Decimal text of a finite number without an exponent ("1e-7" becomes "0.0000001"). */
export function decimalText(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exp] = m;
  const digits = lead + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? decimalText(value) : 'NULL';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex').toUpperCase()}'`;
  throw new Error(`cannot write a ${typeof value} as SQL`);
}

export function insertStatement(table: string, columns: readonly string[], values: readonly unknown[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.map(sqlLiteral).join(', ')});\n`;
}

export class NotABackupStatement extends Error {
  constructor(readonly line: number) {
    super(`not a backup statement at line ${line}`);
  }
}

export class StatementTooLarge extends Error {
  constructor(readonly line: number) {
    super(`statement too large at line ${line}`);
  }
}

/**
 * Splits streamed SQL text into statements (without their ';'), keeping the line each starts
 * on. Quotes are tracked so a ';' or "--" inside a string is data; a statement longer than
 * `maxChars` is refused rather than held.
 */
export class StatementSplitter {
  private text = '';
  private pos = 0;
  private state: 'code' | 'string' | 'comment' = 'code';
  private start = -1;
  private line = 1;
  private startLine = 0;

  constructor(private readonly maxChars: number) {}

  feed(chunk: string, final = false): { sql: string; line: number }[] {
    this.text += chunk;
    const t = this.text;
    const out: { sql: string; line: number }[] = [];
    let i = this.pos;
    while (i < t.length) {
      const c = t[i];
      if (c === '\n') this.line++;
      if (this.state === 'comment') {
        if (c === '\n') this.state = 'code';
        i++;
        continue;
      }
      if (this.state === 'string') {
        if (c === "'") this.state = 'code';
        i++;
        continue;
      }
      if (c === '-' && this.start < 0) {
        if (i + 1 >= t.length && !final) break; // is it "--"? wait for the next chunk
        if (t[i + 1] === '-') {
          this.state = 'comment';
          i += 2;
          continue;
        }
      }
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
        i++;
        continue;
      }
      if (this.start < 0) {
        this.start = i;
        this.startLine = this.line;
      }
      if (c === "'") this.state = 'string';
      else if (c === ';') {
        out.push({ sql: t.slice(this.start, i), line: this.startLine });
        this.start = -1;
      }
      i++;
    }
    const keep = this.start >= 0 ? this.start : i;
    this.text = t.slice(keep);
    this.pos = i - keep;
    if (this.start >= 0) {
      this.start = 0;
      if (this.text.length > this.maxChars) throw new StatementTooLarge(this.startLine);
    }
    if (final && (this.start >= 0 || this.state === 'string')) throw new NotABackupStatement(this.start >= 0 ? this.startLine : this.line);
    return out;
  }
}

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'ident'; text: string }
  | { kind: 'punct'; text: string }
  | { kind: 'value'; value: SqlValue };

/** Tokens of one statement; null when something is not part of the dialect. */
function tokenize(sql: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (c === "'") {
      let j = i + 1;
      let text = '';
      for (;;) {
        const close = sql.indexOf("'", j);
        if (close < 0) return null;
        text += sql.slice(j, close);
        if (sql[close + 1] === "'") {
          text += "'";
          j = close + 2;
        } else {
          j = close + 1;
          break;
        }
      }
      tokens.push({ kind: 'value', value: text });
      i = j;
    } else if ((c === 'X' || c === 'x') && sql[i + 1] === "'") {
      const close = sql.indexOf("'", i + 2);
      if (close < 0) return null;
      const hex = sql.slice(i + 2, close);
      if (!/^([0-9A-Fa-f]{2})*$/.test(hex)) return null;
      tokens.push({ kind: 'value', value: Buffer.from(hex, 'hex') });
      i = close + 1;
    } else if (c === '"') {
      const close = sql.indexOf('"', i + 1);
      if (close < 0) return null;
      tokens.push({ kind: 'ident', text: sql.slice(i + 1, close) });
      i = close + 1;
    } else {
      const number = /^-?(\d+(\.\d*)?|\.\d+)/.exec(sql.slice(i, i + 400));
      if (number && !/[A-Za-z_]/.test(sql[i + number[0].length] ?? '')) {
        const text = number[0];
        if (/^-?\d+$/.test(text)) {
          const big = BigInt(text);
          tokens.push({ kind: 'value', value: big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(text) : big });
        } else {
          tokens.push({ kind: 'value', value: Number(text) });
        }
        i += text.length;
        continue;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i, i + 200));
      if (!word) return null;
      if (word[0].toUpperCase() === 'NULL') tokens.push({ kind: 'value', value: null });
      else tokens.push({ kind: 'word', text: word[0] });
      i += word[0].length;
    }
  }
  return tokens;
}

/** INSERT INTO t (c, …) VALUES (v, …) — one row — or null. */
export function parseInsert(sql: string): InsertRow | null {
  const tokens = tokenize(sql);
  if (!tokens) return null;
  let i = 0;
  const keyword = (w: string) => {
    const t = tokens[i];
    if (t?.kind === 'word' && t.text.toUpperCase() === w) {
      i++;
      return true;
    }
    return false;
  };
  const punct = (p: string) => {
    const t = tokens[i];
    if (t?.kind === 'punct' && t.text === p) {
      i++;
      return true;
    }
    return false;
  };
  const name = (): string | null => {
    const t = tokens[i];
    if (t?.kind === 'word' || t?.kind === 'ident') {
      i++;
      return t.text;
    }
    return null;
  };
  const list = <T>(item: () => T | null): T[] | null => {
    if (!punct('(')) return null;
    const items: T[] = [];
    do {
      const v = item();
      if (v === null) return null;
      items.push(v);
    } while (punct(','));
    return punct(')') ? items : null;
  };

  if (!keyword('INSERT') || !keyword('INTO')) return null;
  const table = name();
  if (!table) return null;
  const columns = list(name);
  if (!columns || !keyword('VALUES')) return null;
  const values = list<{ v: SqlValue }>(() => {
    const t = tokens[i];
    if (t?.kind !== 'value') return null;
    i++;
    return { v: t.value };
  });
  if (!values || i !== tokens.length || values.length !== columns.length) return null;
  return { table, columns, values: values.map((x) => x.v) };
}
