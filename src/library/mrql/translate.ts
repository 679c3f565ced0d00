// WHERE translation (mrql.md §6, §21.4, §22): every predicate becomes a boolean SQL expression
// over the entity alias `e`, with all values bound. Relation-like predicates never yield NULL, so
// their negations are exact complements.
import { SAFE_SEGMENT, type Dialect, type FullTextTerms, type JsonPathExprs } from '../../core/db/dialect/index.js';
import type { SqlText } from '../../core/db/sql-text.js';
import type { CompOp, Expr, Predicate, PredOp, Value } from './ast.js';
import { MrqlError } from './errors.js';
import { resolveField, TABLE, type Entity, type Junction, type Leaf, type Resolved, type Scalar } from './fields.js';
import { instantOf, localIso, numberOf, valueText } from './values.js';

export interface Env {
  dialect: Dialect;
  /** The server's time zone, for local-time text and date buckets. */
  zone: string;
  now: Date;
  fts: boolean;
  similarityThreshold: number;
  ahashThreshold: number;
  /** Tag names (lower case) resolved to ids before translation (PostgreSQL, §21.3). */
  tagIds?: Map<string, number[]>;
  /** The RANK term's posting profiles best first, looked up before the page (SQLite, §22.5). */
  rankProfiles?: number[];
}

export interface Tx {
  b: SqlText;
  env: Env;
  entity: Entity;
  /** When set, this TEXT predicate is satisfied by an inner join to the scored match set. */
  joinedText?: Expr;
  /** When set, this SIMILAR TO predicate is satisfied by the statement's driving join. */
  joinedSimilar?: Expr;
}

/** What a predicate every row satisfies translates to (e.g. `type = "resource"` on resources). */
export const TRUE = '1 = 1';
const FALSE = '1 = 0';
const NEGATED: Partial<Record<PredOp, PredOp>> = { '!=': '=', '!~': '~', '!~*': '~*', 'NOT IN': 'IN' };
const SQL_OP: Record<string, string> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

// ---------------------------------------------------------------- helpers

export function likePattern(text: string): string {
  const wild = /[*?]/.test(text);
  const esc = text.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%').replace(/\?/g, '_');
  return wild ? esc : `%${esc}%`;
}

/**
 * Case-insensitive LIKE of a text expression against a pattern value (already LIKE-shaped). The
 * pattern is folded here as well, as MRQL compares folded text everywhere (§6).
 */
function like(tx: Tx, expr: string, pattern: string): string {
  return tx.env.dialect.ilike(tx.b, expr, pattern.toLowerCase());
}

function folded(tx: Tx, expr: string): string {
  return tx.env.dialect.fold(expr);
}

/** The meta path of `alias.meta`; segments are re-checked before they reach SQL text (§21.1). */
function metaPath(tx: Tx, alias: string, path: string[]): JsonPathExprs {
  for (const seg of path) if (!SAFE_SEGMENT.test(seg)) throw new Error('invalid meta path segment');
  return tx.env.dialect.jsonPath(tx.b, `${alias}.meta`, path);
}

export type MetaExprs = JsonPathExprs;
export { metaPath };

// ---------------------------------------------------------------- scalar columns

function datetimeText(tx: Tx, col: string): string {
  return tx.env.dialect.localDateTime(tx.b, col, tx.env.zone);
}

function castText(tx: Tx, col: string): string {
  return tx.env.dialect.castText(col);
}

function scalarValue(tx: Tx, s: Scalar, v: Value): unknown {
  if (s.kind === 'datetime') return instantOf(v, tx.env.now)!.toISOString();
  if (s.kind === 'number') return v.k === 'number' ? numberOf(v, s.col === 'file_size') : null;
  return v;
}

/** `~*` / `!~*` (the dialect gate refused them earlier where the engine has no regex). */
function regex(tx: Tx, expr: string, op: '~*' | '!~*', value: Value): string {
  const r = tx.env.dialect.regex;
  if (!r) throw new MrqlError('translate', 'regex match (~*) requires PostgreSQL');
  return r.match(tx.b, expr, valueText(value) ?? '', op === '!~*');
}

/** A reference id from a value: numbers as such, numeric strings converted, others null. */
function refId(v: Value): number | null {
  if (v.k === 'number') return v.v;
  if (v.k === 'string' && /^\s*\d+\s*$/.test(v.v)) return Number(v.v);
  return null;
}

function scalarPred(tx: Tx, alias: string, s: Scalar, op: PredOp, value: Value | undefined, values: Value[] | undefined): string {
  const col = `${alias}.${s.col}`;
  const b = tx.b;
  if (op === 'IS NULL') return `${col} IS NULL`;
  if (op === 'IS NOT NULL') return `${col} IS NOT NULL`;
  if (op === 'IS EMPTY') return s.kind === 'string' ? `(${col} IS NULL OR ${col} = '')` : `${col} IS NULL`;
  if (op === 'IS NOT EMPTY') return s.kind === 'string' ? `(${col} IS NOT NULL AND ${col} <> '')` : `${col} IS NOT NULL`;
  if (op === '~' || op === '!~') {
    const text = s.kind === 'string' ? col : s.kind === 'datetime' ? datetimeText(tx, col) : castText(tx, col);
    const m = like(tx, text, likePattern(valueText(value!) ?? ''));
    return op === '~' ? m : `NOT (${m})`;
  }
  if (op === '~*' || op === '!~*') return regex(tx, col, op, value!);
  if (op === 'IN' || op === 'NOT IN') {
    const not = op === 'NOT IN' ? 'NOT ' : '';
    if (s.kind === 'string') return `lower(${col}) ${not}IN (${values!.map((v) => b.t((valueText(v) ?? '').toLowerCase())).join(', ')})`;
    if (s.kind === 'ref') {
      const ids = values!.map(refId).filter((n): n is number => n !== null);
      if (ids.length === 0) return op === 'IN' ? FALSE : `${col} IS NOT NULL`;
      return `${col} ${not}IN (${ids.map((n) => b.p(n)).join(', ')})`;
    }
    return `${col} ${not}IN (${values!.map((v) => b.p(scalarValue(tx, s, v))).join(', ')})`;
  }
  const sqlOp = SQL_OP[op];
  const v = value!;
  if (s.kind === 'string') {
    const text = (valueText(v) ?? '').toLowerCase();
    if (op === '=' || op === '!=') return `lower(${col}) ${sqlOp} ${b.t(text)}`;
    return `${folded(tx, col)} ${sqlOp} ${b.t(text)}`;
  }
  if (s.kind === 'ref') {
    const id = refId(v);
    if (id === null) return op === '!=' ? `${col} IS NOT NULL` : FALSE;
    return `${col} ${sqlOp} ${b.p(id)}`;
  }
  return `${col} ${sqlOp} ${b.p(scalarValue(tx, s, v))}`;
}

// ---------------------------------------------------------------- meta

function metaPred(tx: Tx, alias: string, path: string[], op: PredOp, value: Value | undefined, values: Value[] | undefined): string {
  const m = metaPath(tx, alias, path);
  const b = tx.b;
  if (op === 'IS NULL') return m.isNull;
  if (op === 'IS NOT NULL') return `NOT ${m.isNull}`;
  const empty = `(${m.isNull} OR ${m.isEmptyString})`;
  if (op === 'IS EMPTY') return empty;
  if (op === 'IS NOT EMPTY') return `NOT ${empty}`;
  if (op === '~' || op === '!~') {
    const p = like(tx, m.text, likePattern(valueText(value!) ?? ''));
    return op === '~' ? p : `NOT (${p})`;
  }
  if (op === '~*' || op === '!~*') return regex(tx, m.text, op, value!);
  if (op === 'IN' || op === 'NOT IN') {
    const list = values!;
    const not = op === 'NOT IN' ? 'NOT ' : '';
    if (list.every((v) => v.k === 'number')) {
      return `(CASE WHEN ${m.isNumber} THEN ${m.num} ${not}IN (${list.map((v) => b.p((v as { v: number }).v)).join(', ')}) END)`;
    }
    return `lower(${m.text}) ${not}IN (${list.map((v) => b.t((valueText(v) ?? '').toLowerCase())).join(', ')})`;
  }
  const v = value!;
  const sqlOp = SQL_OP[op];
  if (v.k === 'number') return `(CASE WHEN ${m.isNumber} THEN ${m.num} ${sqlOp} ${b.p(v.v)} END)`;
  if (v.k === 'bool') {
    const isV = v.v ? m.isTrue : m.isFalse;
    const cmp = op === '=' ? isV : `NOT (${isV})`;
    return `(CASE WHEN ${m.isNull} THEN NULL ELSE ${cmp} END)`;
  }
  if (v.k === 'reldate' || v.k === 'func') {
    const iso = localIso(instantOf(v, tx.env.now)!);
    const text = tx.env.dialect.byteOrder(m.text);
    return `${text} ${sqlOp} ${b.t(iso)}`;
  }
  const text = (valueText(v) ?? '').toLowerCase();
  if (op === '=' || op === '!=') return `lower(${m.text}) ${sqlOp} ${b.t(text)}`;
  return `${folded(tx, m.text)} ${sqlOp} ${b.t(text)}`;
}

// ---------------------------------------------------------------- relations

/** Ids of rows of `related` whose name matches the value (= or ~), as a subquery. */
function namedIds(tx: Tx, related: string, op: '=' | '~', v: Value): string {
  const a = tx.b.alias('n');
  const text = valueText(v) ?? '';
  const cond = op === '=' ? `lower(${a}.name) = ${tx.b.t(text.toLowerCase())}` : like(tx, `${a}.name`, likePattern(text));
  return `SELECT ${a}.id FROM ${related} ${a} WHERE ${cond}`;
}

/**
 * Positive junction test for one value: by id for integer numbers, else by name. The correlated
 * EXISTS probes the junction's primary key per row (§22.4); `LIMIT 1` keeps SQLite from turning
 * it into a join with a Bloom filter built over the whole junction table before the first row.
 */
function junctionMatch(tx: Tx, alias: string, j: Junction, op: '=' | '~', v: Value): string {
  const a = tx.b.alias('j');
  const head = `EXISTS (SELECT 1 FROM ${j.table} ${a} WHERE ${a}.${j.own} = ${alias}.id AND `;
  const tail = probeTail(tx);
  const resolved = j.related === 'tags' && op === '=' && v.k !== 'number' ? tx.env.tagIds?.get((valueText(v) ?? '').toLowerCase()) : undefined;
  if (resolved) {
    // Literal ids let PostgreSQL use the tag's statistics: walk the ORDER BY index for a common
    // tag, drive from the tag index for a rare one.
    if (resolved.length === 0) return FALSE;
    return `${head}${a}.${j.other} IN (${resolved.map((id) => tx.b.p(id)).join(', ')}))`;
  }
  if (op === '=' && v.k === 'number') {
    if (!Number.isInteger(v.v)) return FALSE;
    return `${head}${a}.${j.other} = ${tx.b.p(v.v)}${tail})`;
  }
  return `${head}${a}.${j.other} IN (${namedIds(tx, j.related, op, v)})${tail})`;
}

/** Keeps a correlated EXISTS a per-row probe of the junction's primary key. */
function probeTail(tx: Tx): string {
  return tx.env.dialect.existsProbeLimit;
}

function junctionPred(tx: Tx, alias: string, j: Junction, p: Pick<Predicate, 'op' | 'value' | 'values'>): string {
  const op = p.op;
  if (op === 'IS EMPTY' || op === 'IS NOT EMPTY') {
    const a = tx.b.alias('j');
    const ex = `EXISTS (SELECT 1 FROM ${j.table} ${a} WHERE ${a}.${j.own} = ${alias}.id)`;
    return op === 'IS EMPTY' ? `NOT ${ex}` : ex;
  }
  const positive = NEGATED[op] ?? op;
  let sqlText: string;
  if (positive === 'IN') {
    const ids = p.values!.filter((v) => v.k === 'number' && Number.isInteger(v.v));
    const names = p.values!.filter((v) => v.k !== 'number');
    const parts: string[] = [];
    const a = tx.b.alias('j');
    if (ids.length) parts.push(`${a}.${j.other} IN (${ids.map((v) => tx.b.p((v as { v: number }).v)).join(', ')})`);
    if (names.length) {
      const n = tx.b.alias('n');
      parts.push(`${a}.${j.other} IN (SELECT ${n}.id FROM ${j.related} ${n} WHERE lower(${n}.name) IN (${names.map((v) => tx.b.t((valueText(v) ?? '').toLowerCase())).join(', ')}))`);
    }
    sqlText = parts.length ? `EXISTS (SELECT 1 FROM ${j.table} ${a} WHERE ${a}.${j.own} = ${alias}.id AND (${parts.join(' OR ')})${probeTail(tx)})` : FALSE;
  } else sqlText = junctionMatch(tx, alias, j, positive as '=' | '~', p.value!);
  return positive === op ? sqlText : `NOT (${sqlText})`;
}

function singlePred(tx: Tx, alias: string, p: Pick<Predicate, 'op' | 'value'>): string {
  const col = `${alias}.owner_id`;
  const op = p.op;
  if (op === 'IS NULL' || op === 'IS EMPTY') return `${col} IS NULL`;
  if (op === 'IS NOT NULL' || op === 'IS NOT EMPTY') return `${col} IS NOT NULL`;
  const positive = (NEGATED[op] ?? op) as '=' | '~';
  const v = p.value!;
  let pos: string;
  if (positive === '=' && v.k === 'number') pos = Number.isInteger(v.v) ? `(${col} IS NOT NULL AND ${col} = ${tx.b.p(v.v)})` : FALSE;
  else pos = `(${col} IS NOT NULL AND ${col} IN (${namedIds(tx, 'groups', positive, v)}))`;
  return positive === op ? pos : `NOT ${pos}`;
}

function childrenPred(tx: Tx, alias: string, p: Pick<Predicate, 'op' | 'value'>): string {
  const c = tx.b.alias('c');
  const head = `EXISTS (SELECT 1 FROM groups ${c} WHERE ${c}.owner_id = ${alias}.id`;
  const op = p.op;
  if (op === 'IS NULL' || op === 'IS EMPTY') return `NOT ${head})`;
  if (op === 'IS NOT NULL' || op === 'IS NOT EMPTY') return `${head})`;
  const positive = (NEGATED[op] ?? op) as '=' | '~';
  const v = p.value!;
  let pos: string;
  if (positive === '=' && v.k === 'number') pos = Number.isInteger(v.v) ? `${head} AND ${c}.id = ${tx.b.p(v.v)})` : FALSE;
  else if (positive === '=') pos = `${head} AND lower(${c}.name) = ${tx.b.t((valueText(v) ?? '').toLowerCase())})`;
  else pos = `${head} AND ${like(tx, `${c}.name`, likePattern(valueText(v) ?? ''))})`;
  return positive === op ? pos : `NOT ${pos}`;
}

function countPred(tx: Tx, alias: string, of: Junction | 'children', op: PredOp, v: Value): string {
  const a = tx.b.alias('k');
  const from = of === 'children' ? `FROM groups ${a} WHERE ${a}.owner_id = ${alias}.id` : `FROM ${of.table} ${a} WHERE ${a}.${of.own} = ${alias}.id`;
  const n = (v as { v: number }).v;
  const exists = `EXISTS (SELECT 1 ${from})`;
  if ((op === '=' && n === 0) || (op === '<' && n === 1) || (op === '<=' && n === 0)) return `NOT ${exists}`;
  if ((op === '>' && n === 0) || (op === '>=' && n === 1) || (op === '!=' && n === 0)) return exists;
  if (op === '<' && n === 0) return FALSE;
  if (op === '>=' && n === 0) return TRUE;
  return `(SELECT COUNT(*) ${from}) ${SQL_OP[op]} ${tx.b.p(n)}`;
}

export function countExpr(tx: Tx, alias: string, of: Junction | 'children'): string {
  const a = tx.b.alias('k');
  return of === 'children'
    ? `(SELECT COUNT(*) FROM groups ${a} WHERE ${a}.owner_id = ${alias}.id)`
    : `(SELECT COUNT(*) FROM ${of.table} ${a} WHERE ${a}.${of.own} = ${alias}.id)`;
}

// ---------------------------------------------------------------- group leaves, chains, recursion

/** A positive leaf condition on a group alias. */
function leafCond(tx: Tx, g: string, leaf: Leaf, op: PredOp, value: Value | undefined): string {
  if (leaf.kind === 'scalar') return scalarPred(tx, g, leaf.scalar, op, value, undefined);
  if (leaf.kind === 'meta') return metaPred(tx, g, leaf.path, op, value, undefined);
  if (leaf.kind === 'tags') return junctionPred(tx, g, { table: 'group_tags', own: 'group_id', other: 'tag_id', related: 'tags' }, { op, value });
  return FALSE;
}

/** Ids of groups satisfying the leaf. */
function leafSet(tx: Tx, leaf: Leaf, op: PredOp, value: Value | undefined): string {
  const g = tx.b.alias('g');
  return `SELECT ${g}.id FROM groups ${g} WHERE ${leafCond(tx, g, leaf, op, value)}`;
}

/** Ids of groups from which one step (parent or children) reaches a group in `set`. */
function stepBack(tx: Tx, step: 'parent' | 'children', set: string): string {
  const g = tx.b.alias('g');
  return step === 'parent'
    ? `SELECT ${g}.id FROM groups ${g} WHERE ${g}.owner_id IN (${set})`
    : `SELECT ${g}.owner_id FROM groups ${g} WHERE ${g}.owner_id IS NOT NULL AND ${g}.id IN (${set})`;
}

function rootIn(alias: string, root: 'owner' | 'parent' | 'children', set: string, tx: Tx): string {
  if (root === 'children') return `${alias}.id IN (${stepBack(tx, 'children', set)})`;
  return `(${alias}.owner_id IS NOT NULL AND ${alias}.owner_id IN (${set}))`;
}

function chainPred(tx: Tx, alias: string, r: Extract<Resolved, { kind: 'chain' }>, p: Predicate): string {
  const op = p.op;
  if (op === 'IS NULL' || op === 'IS NOT NULL') {
    const g = tx.b.alias('g');
    let nullCond: string;
    if (r.leaf.kind === 'relnull') {
      const c = tx.b.alias('c');
      nullCond = r.leaf.rel === 'parent' ? `${g}.owner_id IS NULL` : `NOT EXISTS (SELECT 1 FROM groups ${c} WHERE ${c}.owner_id = ${g}.id)`;
    } else nullCond = `${g}.${(r.leaf as { scalar: Scalar }).scalar.col} IS NULL`;
    if (r.root === 'children') {
      const c = tx.b.alias('c');
      const kids = `SELECT 1 FROM groups ${g} WHERE ${g}.owner_id = ${alias}.id`;
      if (op === 'IS NULL') return `(NOT EXISTS (SELECT 1 FROM groups ${c} WHERE ${c}.owner_id = ${alias}.id) OR EXISTS (${kids} AND ${nullCond}))`;
      return `EXISTS (${kids} AND NOT (${nullCond}))`;
    }
    const isNull = `(${alias}.owner_id IS NULL OR ${alias}.owner_id IN (SELECT ${g}.id FROM groups ${g} WHERE ${nullCond}))`;
    return op === 'IS NULL' ? isNull : `NOT ${isNull}`;
  }
  const positive = NEGATED[op] ?? op;
  let set = leafSet(tx, r.leaf, positive, p.value);
  for (let i = r.steps.length - 1; i >= 0; i--) set = stepBack(tx, r.steps[i], set);
  const pos = rootIn(alias, r.root, set, tx);
  return positive === op ? pos : `NOT ${pos}`;
}

function recursivePred(tx: Tx, alias: string, r: Extract<Resolved, { kind: 'recursive' }>, p: Predicate): string {
  const op = p.op;
  const positive = NEGATED[op] ?? op;
  const m = leafSet(tx, r.leaf, positive, p.value);
  const w = tx.b.alias('w');
  const g = tx.b.alias('g');
  // ancestors.x: bases having an ancestor in M = strict descendants of M.
  // descendants.x: bases having a descendant in M = strict ancestors of M.
  const walk =
    r.dir === 'ancestors'
      ? `WITH RECURSIVE ${w}(id, depth) AS (SELECT ${g}.id, 1 FROM groups ${g} WHERE ${g}.owner_id IN (${m}) UNION SELECT c.id, ${w}.depth + 1 FROM groups c JOIN ${w} ON c.owner_id = ${w}.id WHERE ${w}.depth < 50) SELECT id FROM ${w}`
      : `WITH RECURSIVE ${w}(id, depth) AS (SELECT ${g}.owner_id, 1 FROM groups ${g} WHERE ${g}.id IN (${m}) AND ${g}.owner_id IS NOT NULL UNION SELECT p.owner_id, ${w}.depth + 1 FROM groups p JOIN ${w} ON p.id = ${w}.id WHERE p.owner_id IS NOT NULL AND ${w}.depth < 50) SELECT id FROM ${w}`;
  const base = tx.entity === 'group' ? `${alias}.id` : `${alias}.owner_id`;
  const pos = `(${base} IS NOT NULL AND ${base} IN (${walk}))`;
  return positive === op ? pos : `NOT ${pos}`;
}

// ---------------------------------------------------------------- full text and similarity

export function ftsWords(term: string): string[] {
  return term.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The terms of a TEXT predicate for the dialect's full-text members. */
export function ftsTerms(term: string): FullTextTerms {
  return { term, words: ftsWords(term) };
}

function textPred(tx: Tx, alias: string, term: string): string {
  if (ftsWords(term).length === 0) return TRUE;
  const table = TABLE[tx.entity];
  if (!tx.env.fts) {
    const pattern = `%${term.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return `(${like(tx, `${alias}.name`, pattern)} OR ${like(tx, `${alias}.description`, pattern)})`;
  }
  return tx.env.dialect.fullText.matches(tx.b, table, alias, ftsTerms(term));
}

/** The UNION of pair partners of `target` within the threshold (§6.20). */
export function similarSet(tx: Tx, target: number, within: number | undefined, withDistance: boolean): string {
  const threshold = within ?? tx.env.similarityThreshold;
  const parts = (self: string, other: string) => {
    const a = tx.b.alias('s');
    const ah = tx.env.ahashThreshold > 0 ? ` AND (${a}.a_distance IS NULL OR ${a}.a_distance <= ${tx.b.p(tx.env.ahashThreshold)})` : '';
    const d = `COALESCE(${a}.p_distance, ${a}.hamming_distance)`;
    return `SELECT ${a}.${other} AS other_id${withDistance ? `, ${d} AS distance` : ''} FROM resource_similarities ${a} WHERE ${a}.${self} = ${tx.b.p(target)} AND ${d} <= ${tx.b.p(threshold)}${ah}`;
  };
  return `${parts('resource_id1', 'resource_id2')} UNION ALL ${parts('resource_id2', 'resource_id1')}`;
}

function similarImages(alias: string, op: PredOp): string {
  const ex = `EXISTS (SELECT 1 FROM image_hashes ih WHERE ih.resource_id = ${alias}.id AND ih.d_hash <> '' AND EXISTS (SELECT 1 FROM image_hashes o WHERE o.d_hash = ih.d_hash AND o.resource_id <> ih.resource_id))`;
  return op === 'IS EMPTY' ? `NOT ${ex}` : ex;
}

// ---------------------------------------------------------------- the expression

function predicate(tx: Tx, alias: string, p: Predicate): string {
  let r: Resolved;
  try {
    r = resolveField(tx.entity, p.field, p.op === 'IS NULL' || p.op === 'IS NOT NULL');
  } catch (e) {
    // Cross-entity: a field of another entity type is FALSE for this one (§4.4).
    if (e instanceof MrqlError) return FALSE;
    throw e;
  }
  switch (r.kind) {
    case 'type': {
      const named = (p.value as { v: string }).v.toLowerCase() === tx.entity;
      return (p.op === '=') === named ? TRUE : FALSE;
    }
    case 'scalar':
      return scalarPred(tx, alias, r.scalar, p.op, p.value, p.values);
    case 'shared': {
      let shared: boolean;
      if (p.op.startsWith('IS ')) shared = p.op.startsWith('IS NOT');
      else shared = (p.op === '=') === (p.value as { v: boolean }).v;
      return shared ? `${alias}.share_token IS NOT NULL` : `${alias}.share_token IS NULL`;
    }
    case 'similarImages':
      return similarImages(alias, p.op);
    case 'junction':
      return junctionPred(tx, alias, r.j, p);
    case 'single':
      return singlePred(tx, alias, p);
    case 'children':
      return childrenPred(tx, alias, p);
    case 'meta':
      return metaPred(tx, alias, r.path, p.op, p.value, p.values);
    case 'count':
      return countPred(tx, alias, r.of, p.op as CompOp, p.value!);
    case 'chain':
      return chainPred(tx, alias, r, p);
    case 'recursive':
      return recursivePred(tx, alias, r, p);
    default:
      return FALSE;
  }
}

export function translateExpr(tx: Tx, e: Expr, alias = 'e'): string {
  switch (e.k) {
    case 'and':
      return `(${translateExpr(tx, e.left, alias)} AND ${translateExpr(tx, e.right, alias)})`;
    case 'or':
      return `(${translateExpr(tx, e.left, alias)} OR ${translateExpr(tx, e.right, alias)})`;
    case 'not':
      return `NOT (${translateExpr(tx, e.e, alias)})`;
    case 'text':
      if (tx.joinedText === e) return TRUE;
      return textPred(tx, alias, e.term);
    case 'similar':
      if (tx.entity !== 'resource') return FALSE;
      if (tx.joinedSimilar === e) return TRUE;
      return `${alias}.id IN (SELECT other_id FROM (${similarSet(tx, e.id, e.within, false)}) sim)`;
    case 'pred':
      return predicate(tx, alias, e);
  }
}

/** Whether the query text contains a regex operator anywhere in the WHERE expression. */
export function hasRegex(e: Expr | undefined): boolean {
  if (!e) return false;
  if (e.k === 'and' || e.k === 'or') return hasRegex(e.left) || hasRegex(e.right);
  if (e.k === 'not') return hasRegex(e.e);
  return e.k === 'pred' && (e.op === '~*' || e.op === '!~*');
}

/** Top-level AND conjuncts of the expression. */
export function conjuncts(e: Expr | undefined): Expr[] {
  if (!e) return [];
  if (e.k === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

export function findAll<K extends Expr['k']>(e: Expr | undefined, k: K): Extract<Expr, { k: K }>[] {
  const out: Expr[] = [];
  const walk = (x: Expr) => {
    if (x.k === k) out.push(x);
    if (x.k === 'and' || x.k === 'or') {
      walk(x.left);
      walk(x.right);
    } else if (x.k === 'not') walk(x.e);
  };
  if (e) walk(e);
  return out as Extract<Expr, { k: K }>[];
}

export { folded, datetimeText, scalarValue };
