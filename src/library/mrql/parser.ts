// Recursive-descent MRQL parser (mrql.md §3) with the exact error catalogue of §3.11 and the
// filter-expression mode of §3.10.
import type { Aggregate, AggName, CompOp, Expr, FieldRef, HavingExpr, OrderItem, Query, Value } from './ast.js';
import { parseError } from './errors.js';
import { lex, MAX_QUERY_BYTES, MAX_TOKENS, quoteToken, toBytes, type Token } from './lexer.js';

const MAX_DEPTH = 64;
const MAX_IN = 500;
const MAX_PARTS = 8;
const MAX_REL_AMOUNT = 100000;
const COMP_OPS = new Set(['=', '!=', '>', '>=', '<', '<=', '~', '!~', '~*', '!~*']);
const HAVING_OPS = new Set(['=', '!=', '>', '>=', '<', '<=']);
const CLAUSE_STARTS = new Set(['SCOPE', 'GROUP BY', 'ORDER BY', 'LIMIT', 'OFFSET']);
const FILTER_FORBIDDEN = new Set(['ORDER BY', 'LIMIT', 'OFFSET', 'GROUP BY', 'HAVING', 'SCOPE']);

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly toks: Token[]) {}

  peek(): Token {
    const t = this.toks[this.i];
    if (this.i >= MAX_TOKENS && t.type !== 'EOF') throw parseError(`query exceeds maximum token count of ${MAX_TOKENS}`, t.pos, t.len);
    return t;
  }
  next(): Token {
    const t = this.peek();
    this.i++;
    return t;
  }
  isKw(t: Token, kw: string): boolean {
    return t.type === 'KEYWORD' && t.value === kw;
  }
  isPunct(t: Token, p: string): boolean {
    return t.type === 'PUNCT' && t.value === p;
  }
  isWord(t: Token, w: string): boolean {
    return t.type === 'IDENT' && t.value.toUpperCase() === w;
  }
  fail(msg: string, t: Token): never {
    throw parseError(msg, t.pos, t.len);
  }
  enter(t: Token): void {
    if (++this.depth > MAX_DEPTH) this.fail(`expression nesting exceeds maximum depth of ${MAX_DEPTH}`, t);
  }

  query(): Query {
    const q: Query = {};
    const first = this.peek();
    if (first.type !== 'EOF' && !(first.type === 'KEYWORD' && CLAUSE_STARTS.has(first.value))) q.where = this.expression();
    let t = this.peek();
    if (this.isKw(t, 'SCOPE')) {
      this.next();
      const v = this.next();
      if (v.type === 'NUMBER') {
        if (/[a-z]$/i.test(v.value)) this.fail(`SCOPE requires a plain integer or string, got ${quoteToken(v)}`, v);
        q.scope = { num: Number(v.value), raw: v.value, pos: v.pos, len: v.len };
      } else if (v.type === 'STRING') q.scope = { name: v.value, raw: v.value, pos: v.pos, len: v.len };
      else this.fail(`expected number or string after SCOPE, got ${quoteToken(v)}`, v);
      t = this.peek();
    }
    if (this.isKw(t, 'GROUP BY')) {
      q.groupBy = this.groupBy();
      t = this.peek();
    }
    if (this.isKw(t, 'ORDER BY')) {
      this.next();
      q.orderBy = this.orderItems();
      t = this.peek();
    }
    if (this.isKw(t, 'LIMIT')) {
      this.next();
      q.limit = this.integer('LIMIT');
      t = this.peek();
    }
    if (this.isKw(t, 'OFFSET')) {
      this.next();
      q.offset = this.integer('OFFSET');
      t = this.peek();
    }
    if (t.type !== 'EOF') {
      if (t.type === 'AGG' && !q.groupBy) this.fail(`aggregate function ${t.text} requires a preceding GROUP BY clause`, t);
      if (this.isKw(t, 'HAVING') && !q.groupBy) this.fail('HAVING requires a preceding GROUP BY clause', t);
      this.fail(`unexpected token ${quoteToken(t)} at end of query`, t);
    }
    return q;
  }

  filter(): Expr {
    const where = this.expression();
    const t = this.peek();
    if (t.type !== 'EOF') {
      if (t.type === 'KEYWORD' && FILTER_FORBIDDEN.has(t.value)) {
        this.fail(`${t.value} is not allowed in a filter expression; the list page controls sort and pagination`, t);
      }
      this.fail(`unexpected token ${quoteToken(t)} after filter expression`, t);
    }
    return where;
  }

  integer(what: 'LIMIT' | 'OFFSET'): { n: number; pos: number } {
    const v = this.next();
    if (v.type !== 'NUMBER') this.fail(`expected number after ${what}, got ${quoteToken(v)}`, v);
    if (/[a-z]$/i.test(v.value)) this.fail(`LIMIT/OFFSET requires a plain integer, got ${quoteToken(v)}`, v);
    if (v.value.includes('.')) this.fail(`LIMIT/OFFSET requires a whole number, got ${quoteToken(v)}`, v);
    return { n: Number(v.value), pos: v.pos };
  }

  expression(): Expr {
    let left = this.andExpr();
    while (this.isKw(this.peek(), 'OR')) {
      this.next();
      left = { k: 'or', left, right: this.andExpr() };
    }
    return left;
  }

  andExpr(): Expr {
    let left = this.unary();
    while (this.isKw(this.peek(), 'AND')) {
      this.next();
      left = { k: 'and', left, right: this.unary() };
    }
    return left;
  }

  unary(): Expr {
    const t = this.peek();
    if (this.isKw(t, 'NOT')) {
      this.next();
      this.enter(t);
      const e = this.unary();
      this.depth--;
      return { k: 'not', e, pos: t.pos };
    }
    return this.primary();
  }

  primary(): Expr {
    const t = this.peek();
    if (this.isPunct(t, '(')) {
      this.next();
      this.enter(t);
      const e = this.expression();
      const c = this.next();
      if (!this.isPunct(c, ')')) this.fail(`expected ')' to close '(', got ${quoteToken(c)}`, c);
      this.depth--;
      return e;
    }
    if (this.isKw(t, 'TEXT')) {
      this.next();
      const op = this.next();
      if (!(op.type === 'OP' && op.value === '~')) this.fail(`expected '~' after TEXT, got ${quoteToken(op)}`, op);
      const s = this.next();
      if (s.type !== 'STRING') this.fail(`expected string literal after TEXT ~, got ${quoteToken(s)}`, s);
      return { k: 'text', term: s.value, pos: t.pos, len: s.pos + s.len - t.pos };
    }
    if (this.isKw(t, 'SIMILAR TO')) return this.similar();
    return this.predicate();
  }

  similar(): Expr {
    const t = this.next();
    const r = this.next();
    if (!this.isWord(r, 'RESOURCE')) this.fail(`SIMILAR TO expects resource(<id>), got ${quoteToken(r)} — only resources have perceptual hashes`, r);
    const open = this.next();
    if (!this.isPunct(open, '(')) this.fail(`expected '(' after SIMILAR TO resource, got ${quoteToken(open)}`, open);
    const id = this.next();
    if (id.type !== 'NUMBER' || !/^\d+$/.test(id.value)) this.fail(`expected an integer resource ID in SIMILAR TO resource(...), got ${quoteToken(id)}`, id);
    const close = this.next();
    if (!this.isPunct(close, ')')) this.fail(`expected ')' to close SIMILAR TO resource(, got ${quoteToken(close)}`, close);
    let within: number | undefined;
    let end = close.pos + 1;
    if (this.isWord(this.peek(), 'WITHIN')) {
      this.next();
      const d = this.next();
      if (d.type !== 'NUMBER' || !/^\d+$/.test(d.value)) this.fail(`expected an integer distance after WITHIN, got ${quoteToken(d)}`, d);
      within = Number(d.value);
      end = d.pos + d.len;
    }
    return { k: 'similar', id: Number(id.value), within, pos: t.pos, len: end - t.pos };
  }

  isFieldStart(t: Token): boolean {
    return t.type === 'IDENT' || this.isKw(t, 'TYPE') || this.isKw(t, 'HAVING');
  }

  field(context: 'condition' | 'name'): FieldRef {
    const t = this.peek();
    if (!this.isFieldStart(t)) {
      if (context === 'condition') this.fail(`unexpected token ${quoteToken(t)}, expected field name or '('`, t);
      this.fail(`expected field name (identifier), got ${quoteToken(t)}`, t);
    }
    this.next();
    const parts = [t.text];
    const partPos = [t.pos];
    let end = t.pos + t.len;
    while (this.isPunct(this.peek(), '.')) {
      const dot = this.next();
      if (parts.length >= MAX_PARTS) this.fail(`traversal chain too deep (max ${MAX_PARTS} parts)`, dot);
      const p = this.next();
      if (!this.isFieldStart(p)) this.fail(`expected identifier after '.', got ${quoteToken(p)}`, p);
      parts.push(p.text);
      partPos.push(p.pos);
      end = p.pos + p.len;
    }
    return { parts, partPos, text: parts.join('.'), pos: t.pos, len: end - t.pos };
  }

  predicate(): Expr {
    const field = this.field('condition');
    const t = this.next();
    if (t.type === 'OP' && COMP_OPS.has(t.value)) {
      return { k: 'pred', field, op: t.value as CompOp, opPos: t.pos, opLen: t.len, opText: t.text, value: this.value() };
    }
    if (this.isKw(t, 'NOT')) {
      const u = this.peek();
      if (this.isKw(u, 'IN')) {
        this.next();
        return { k: 'pred', field, op: 'NOT IN', opPos: t.pos, opLen: u.pos + u.len - t.pos, opText: 'NOT IN', values: this.inList() };
      }
      if (this.isWord(u, 'BETWEEN')) {
        this.next();
        return { k: 'not', e: this.between(field, u), pos: t.pos };
      }
      this.fail(`expected IN or BETWEEN after field NOT, got ${quoteToken(u)}`, t);
    }
    if (this.isWord(t, 'BETWEEN')) return this.between(field, t);
    if (this.isKw(t, 'IN')) return { k: 'pred', field, op: 'IN', opPos: t.pos, opLen: t.len, opText: t.text, values: this.inList() };
    if (this.isKw(t, 'IS')) {
      let neg = false;
      let u = this.next();
      if (this.isKw(u, 'NOT')) {
        neg = true;
        u = this.next();
      }
      if (!(this.isKw(u, 'EMPTY') || this.isKw(u, 'NULL'))) this.fail(`expected EMPTY or NULL after IS [NOT], got ${quoteToken(u)}`, u);
      const op = `IS ${neg ? 'NOT ' : ''}${u.value}` as 'IS NULL';
      return { k: 'pred', field, op, opPos: t.pos, opLen: t.len, opText: t.text };
    }
    this.fail(`expected comparison operator, IN, or IS after field ${JSON.stringify(field.text)}, got ${quoteToken(t)}`, t);
  }

  between(field: FieldRef, word: Token): Expr {
    const lo = this.value();
    const and = this.next();
    if (!this.isKw(and, 'AND')) this.fail(`expected AND between BETWEEN bounds, got ${quoteToken(and)}`, and);
    const hi = this.value();
    const base = { k: 'pred' as const, field, opPos: word.pos, opLen: word.len, opText: word.text };
    return { k: 'and', left: { ...base, op: '>=', value: lo }, right: { ...base, op: '<=', value: hi } };
  }

  inList(): Value[] {
    const open = this.next();
    if (!this.isPunct(open, '(')) this.fail(`expected '(' after IN, got ${quoteToken(open)}`, open);
    const values: Value[] = [];
    for (;;) {
      const at = this.peek();
      const v = this.value();
      if (values.length >= MAX_IN) this.fail(`IN list exceeds maximum of ${MAX_IN} values`, at);
      values.push(v);
      const sep = this.next();
      if (this.isPunct(sep, ')')) return values;
      if (!this.isPunct(sep, ',')) this.fail(`expected ')' to close IN list, got ${quoteToken(sep)}`, sep);
    }
  }

  value(): Value {
    const t = this.next();
    switch (t.type) {
      case 'STRING':
        return { k: 'string', v: t.value, pos: t.pos, len: t.len };
      case 'NUMBER':
        return numberValue(t);
      case 'RELDATE': {
        const amount = Number(t.value.slice(1, -1));
        if (amount > MAX_REL_AMOUNT) this.fail(`invalid relative date amount in ${quoteToken(t)}`, t);
        return { k: 'reldate', amount, unit: t.value.slice(-1).toLowerCase() as 'd', raw: t.value, pos: t.pos, len: t.len };
      }
      case 'FUNC':
        return { k: 'func', name: t.value.slice(0, -2), pos: t.pos, len: t.len };
      case 'PARAM':
        return { k: 'param', name: t.value, pos: t.pos, len: t.len };
      case 'IDENT': {
        const up = t.value.toUpperCase();
        if (up === 'TRUE' || up === 'FALSE') return { k: 'bool', v: up === 'TRUE', pos: t.pos, len: t.len };
        return { k: 'string', v: t.value, pos: t.pos, len: t.len };
      }
      default:
        if (this.isKw(t, 'HAVING')) return { k: 'string', v: t.text, pos: t.pos, len: t.len };
        this.fail(`expected value (string, number, date, function, or identifier), got ${quoteToken(t)}`, t);
    }
  }

  groupBy(): NonNullable<Query['groupBy']> {
    const kw = this.next();
    const fields = [this.field('name')];
    while (this.isPunct(this.peek(), ',')) {
      this.next();
      fields.push(this.field('name'));
    }
    const aggs: Aggregate[] = [];
    while (this.peek().type === 'AGG') aggs.push(this.aggregate());
    let having: HavingExpr | undefined;
    if (this.isKw(this.peek(), 'HAVING')) {
      this.next();
      having = this.havingOr();
    }
    return { fields, aggs, having, pos: kw.pos };
  }

  aggregate(): Aggregate {
    const t = this.next();
    this.next(); // the "(" the lexer saw right after the name
    const name = t.value as AggName;
    if (name === 'COUNT') {
      const c = this.next();
      if (!this.isPunct(c, ')')) this.fail(`COUNT() takes no arguments; expected ')', got ${quoteToken(c)}`, c);
      return { name, written: t.text, pos: t.pos, len: c.pos + 1 - t.pos };
    }
    if (this.isPunct(this.peek(), ')')) this.fail(`${name}() requires a field argument`, this.peek());
    const field = this.field('name');
    const c = this.next();
    if (!this.isPunct(c, ')')) this.fail(`expected ')' after ${name} field argument, got ${quoteToken(c)}`, c);
    return { name, written: t.text, field, pos: t.pos, len: c.pos + 1 - t.pos };
  }

  havingOr(): HavingExpr {
    let left = this.havingAnd();
    while (this.isKw(this.peek(), 'OR')) {
      this.next();
      left = { k: 'or', left, right: this.havingAnd() };
    }
    return left;
  }
  havingAnd(): HavingExpr {
    let left = this.havingUnary();
    while (this.isKw(this.peek(), 'AND')) {
      this.next();
      left = { k: 'and', left, right: this.havingUnary() };
    }
    return left;
  }
  havingUnary(): HavingExpr {
    const t = this.peek();
    if (this.isKw(t, 'NOT')) {
      this.next();
      this.enter(t);
      const e = this.havingUnary();
      this.depth--;
      return { k: 'not', e };
    }
    if (this.isPunct(t, '(')) {
      this.next();
      this.enter(t);
      const e = this.havingOr();
      const c = this.next();
      if (!this.isPunct(c, ')')) this.fail(`expected ')' to close '(' in HAVING, got ${quoteToken(c)}`, c);
      this.depth--;
      return e;
    }
    if (t.type !== 'AGG') this.fail('HAVING conditions must use aggregate functions; filter plain fields in the WHERE clause instead', t);
    const agg = this.aggregate();
    const op = this.next();
    if (!(op.type === 'OP' && HAVING_OPS.has(op.value))) {
      this.fail(`expected comparison operator (=, !=, >, >=, <, <=) after ${agg.name} in HAVING, got ${quoteToken(op)}`, op);
    }
    return { k: 'cmp', agg, op: op.value as CompOp, value: this.value() };
  }

  orderItems(): OrderItem[] {
    const items: OrderItem[] = [];
    for (;;) {
      const t = this.peek();
      if (this.isWord(t, 'RANDOM') && this.isPunct(this.toks[this.i + 1], '(')) {
        this.next();
        this.next();
        const c = this.next();
        if (!this.isPunct(c, ')')) this.fail(`expected ')' after RANDOM(, got ${quoteToken(c)}`, c);
        const d = this.peek();
        if (this.isKw(d, 'ASC') || this.isKw(d, 'DESC')) this.fail('RANDOM() does not take a direction', d);
        items.push({ random: true, desc: false, pos: t.pos, len: 6 });
      } else {
        const field = this.field('name');
        let desc = false;
        const d = this.peek();
        if (this.isKw(d, 'ASC') || this.isKw(d, 'DESC')) {
          this.next();
          desc = d.value === 'DESC';
        }
        items.push({ field, desc, pos: field.pos, len: field.len });
      }
      if (!this.isPunct(this.peek(), ',')) return items;
      this.next();
    }
  }
}

function numberValue(t: Token): Value {
  const m = /^(\d+(?:\.\d+)?)([kmg]b)?$/i.exec(t.value)!;
  const unit = (m[2]?.toLowerCase() ?? '') as '' | 'kb';
  return { k: 'number', v: Number(m[1]), raw: t.value, unit, pos: t.pos, len: t.len };
}

function sizeCheck(bytes: Buffer): void {
  if (bytes.length > MAX_QUERY_BYTES) throw parseError(`query exceeds maximum size of ${MAX_QUERY_BYTES} bytes`, MAX_QUERY_BYTES, 0);
}

/** Parses a full query (stages 1–3 of the pipeline). */
export function parseQuery(text: string): Query {
  const bytes = toBytes(text);
  sizeCheck(bytes);
  return new Parser(lex(bytes)).query();
}

/** Parses a filter expression (§3.10); blank text is the error `empty filter expression`. */
export function parseFilter(text: string): Expr {
  const bytes = toBytes(text);
  sizeCheck(bytes);
  if (text.trim() === '') throw parseError('empty filter expression', 0, 0);
  return new Parser(lex(bytes)).filter();
}
