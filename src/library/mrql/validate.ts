// Validation (mrql.md §4, §7): resolves the entity type, checks every field, operator and value
// against the catalogue, and the ORDER BY / GROUP BY / HAVING rules, in the documented order.
import type { Aggregate, Expr, FieldRef, HavingExpr, Predicate, PredOp, Query, Value } from './ast.js';
import { validationError } from './errors.js';
import { resolveField, type Entity, type EntityOrAll, type Resolved, type ScalarKind } from './fields.js';
import { parseDateString } from './values.js';

export type Mode = 'flat' | 'aggregated' | 'bucketed';

export interface Checked {
  entity: EntityOrAll;
  mode: Mode;
  textCount: number;
  similarCount: number;
}

const ORDERING = new Set<PredOp>(['<', '<=', '>', '>=']);
const COMPARISONS = new Set<PredOp>(['=', '!=', '<', '<=', '>', '>=']);
const isRegex = (op: PredOp) => op === '~*' || op === '!~*';
const isPattern = (op: PredOp) => op === '~' || op === '!~';
const isIn = (op: PredOp) => op === 'IN' || op === 'NOT IN';
const isIs = (op: PredOp) => op.startsWith('IS ');
const isNullTest = (op: PredOp) => op === 'IS NULL' || op === 'IS NOT NULL';

const ENTITY_WORDS = new Set(['resource', 'note', 'group']);

/** The entity named by `type = X` conjuncts reachable through AND only (§4.2); null = none. */
export function typeOfChain(e: Expr | undefined): EntityOrAll | null {
  const found = new Set<string>();
  const walk = (x: Expr) => {
    if (x.k === 'and') {
      walk(x.left);
      walk(x.right);
    } else if (x.k === 'pred' && x.field.text === 'type' && x.op === '=' && x.value?.k === 'string') {
      found.add(x.value.v.toLowerCase());
    }
  };
  if (e) walk(e);
  if (found.size === 0) return null;
  if (found.size > 1) return 'unspecified';
  const [t] = found;
  return ENTITY_WORDS.has(t) ? (t as Entity) : 'unspecified';
}

export function entityOf(e: Expr | undefined): EntityOrAll {
  return typeOfChain(e) ?? 'unspecified';
}

function fieldErr(f: FieldRef, msg: string, len = f.len): never {
  throw validationError(msg, f.pos, len);
}
function valueErr(v: Value, msg: string): never {
  throw validationError(msg, v.pos, 0);
}
function opErr(p: Predicate, msg: string): never {
  throw validationError(msg, p.opPos, p.opLen);
}

type ValueKind = ScalarKind | 'relation' | 'meta';

function checkValue(field: string, kind: ValueKind, op: PredOp, v: Value): void {
  if (v.k === 'param') return;
  if (isRegex(op)) {
    if (v.k !== 'string') valueErr(v, `regex match requires a string pattern for field "${field}"`);
    return;
  }
  if (isPattern(op)) {
    if (v.k === 'reldate' || v.k === 'func') valueErr(v, `pattern match requires a text value for field "${field}"`);
    return;
  }
  if (v.k === 'bool' && ORDERING.has(op)) valueErr(v, 'boolean values only support = and !=');
  switch (kind) {
    case 'string':
    case 'relation':
      if (v.k === 'reldate' || v.k === 'func') valueErr(v, `field "${field}" cannot be compared with a date value`);
      return;
    case 'number':
      if (v.k !== 'number') valueErr(v, `field "${field}" is numeric but got a non-numeric value`);
      return;
    case 'ref':
      if (v.k !== 'number' && v.k !== 'string') valueErr(v, `field "${field}" is numeric but got a non-numeric value`);
      return;
    case 'datetime':
      if (v.k === 'number' || v.k === 'bool') valueErr(v, `field "${field}" is a datetime; use a date string, relative date (-7d), or function (NOW())`);
      if (v.k === 'string' && !parseDateString(v.v)) {
        valueErr(v, `invalid date "${v.v}"; use YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][zone], a relative date (-7d) or a function (NOW())`);
      }
      return;
    default:
      return;
  }
}

function checkValues(p: Predicate, kind: ValueKind): void {
  const op = isIn(p.op) ? '=' : p.op;
  for (const v of p.values ?? (p.value ? [p.value] : [])) checkValue(p.field.text, kind, op, v);
}

function checkType(p: Predicate): void {
  if (isIn(p.op)) fieldErr(p.field, 'type field does not support IN operator; use type = "..." or type != "..."', 4);
  if (p.op !== '=' && p.op !== '!=') opErr(p, `type field only supports = and != operators, got "${isIs(p.op) ? 'IS' : p.opText}"`);
  const v = p.value!;
  if (v.k !== 'string') valueErr(v, 'type field requires resource, note, or group');
  if (!ENTITY_WORDS.has(v.v.toLowerCase())) {
    throw validationError(`invalid entity type value "${v.v}": must be one of resource, note, group`, v.pos, Buffer.byteLength(v.v));
  }
}

function leafValueKind(r: Extract<Resolved, { kind: 'chain' | 'recursive' }>): ValueKind {
  const l = r.leaf;
  if (l.kind === 'scalar') return l.scalar.kind;
  if (l.kind === 'tags') return 'relation';
  return 'meta';
}

function checkPredicate(p: Predicate, entity: EntityOrAll): void {
  const f = p.field;
  const r = resolveField(entity, f, isNullTest(p.op));
  const op = p.op;
  switch (r.kind) {
    case 'type':
      return checkType(p);
    case 'scalar': {
      if (isRegex(op) && r.scalar.kind !== 'string') opErr(p, `field "${f.text}" does not support regex match`);
      return checkValues(p, r.scalar.kind);
    }
    case 'shared': {
      if (isIs(op)) return;
      const v = p.value;
      if ((op !== '=' && op !== '!=') || !v || (v.k !== 'bool' && v.k !== 'param')) fieldErr(f, 'shared only supports = or != with true or false', 6);
      return;
    }
    case 'similarImages':
      if (isNullTest(op)) fieldErr(f, `use "${f.text} IS EMPTY" instead of "${f.text} IS NULL" for relation fields`);
      if (op !== 'IS EMPTY' && op !== 'IS NOT EMPTY') fieldErr(f, 'similarImages only supports IS EMPTY and IS NOT EMPTY', 13);
      return;
    case 'junction':
      if (ORDERING.has(op) || isRegex(op)) opErr(p, `field "${f.text}" is a relation and only supports =, !=, ~, !~ operators`);
      if (isNullTest(op)) fieldErr(f, `use "${f.text} IS EMPTY" instead of "${f.text} IS NULL" for relation fields`);
      return checkValues(p, 'relation');
    case 'single':
    case 'children':
      if (isIn(op)) fieldErr(f, `${f.text} does not support IN operator; use ${f.text} = "..." or ${f.text} IS EMPTY instead`);
      if (ORDERING.has(op) || isRegex(op)) opErr(p, `field "${f.text}" is a relation and only supports =, !=, ~, !~ operators`);
      return checkValues(p, 'relation');
    case 'meta':
      return checkValues(p, 'meta');
    case 'count': {
      if (!COMPARISONS.has(op)) fieldErr(f, `${f.text} only supports comparison operators (=, !=, >, >=, <, <=)`);
      const v = p.value!;
      if (v.k !== 'param' && !(v.k === 'number' && v.unit === '' && Number.isInteger(v.v) && v.v >= 0)) {
        valueErr(v, `${f.text} must be compared to a non-negative integer`);
      }
      return;
    }
    case 'bucket':
      fieldErr(f, 'date bucket fields are only valid in GROUP BY; use a date range in WHERE (created >= "2026-07-01" AND created < "2026-08-01")');
      break;
    case 'chain': {
      if (isIn(op)) fieldErr(f, `${f.text} does not support IN operator; use = or != instead`);
      if (op === 'IS EMPTY' || op === 'IS NOT EMPTY') fieldErr(f, `${f.text} does not support IS EMPTY; use the base traversal field IS EMPTY or ${f.text} = "..." instead`);
      if (isNullTest(op)) {
        if (r.leaf.kind === 'tags' && r.steps.length === 0) fieldErr(f, `${f.parts[0]}.tags IS NULL is not supported; use ${f.parts[0]}.tags = "..." for tag comparisons`);
        if (r.steps.length > 0 || r.leaf.kind === 'meta' || r.leaf.kind === 'tags') fieldErr(f, `${f.text} IS NULL is not supported for multi-level traversals`);
        return;
      }
      const kind = leafValueKind(r);
      if (isRegex(op) && kind !== 'string' && kind !== 'meta') opErr(p, `field "${f.text}" does not support regex match`);
      if (ORDERING.has(op) && kind === 'relation') opErr(p, `field "${f.text}" is a relation and only supports =, !=, ~, !~ operators`);
      return checkValues(p, kind);
    }
    case 'recursive': {
      if (isIn(op)) fieldErr(f, `${f.text} does not support IN operator; use = or != instead`);
      if (isIs(op)) fieldErr(f, `${f.text} does not support IS EMPTY/IS NULL; compare a group field instead (e.g. ${f.text} = "...")`);
      const kind = leafValueKind(r);
      if (isRegex(op) && kind !== 'string' && kind !== 'meta') opErr(p, `field "${f.text}" does not support regex match`);
      if (ORDERING.has(op) && kind === 'relation') opErr(p, `field "${f.text}" is a relation and only supports =, !=, ~, !~ operators`);
      return checkValues(p, kind);
    }
  }
}

function validateExpr(e: Expr, entity: EntityOrAll, counts: { text: number; similar: number }): void {
  switch (e.k) {
    case 'and':
      validateExpr(e.left, entity, counts);
      validateExpr(e.right, entity, counts);
      return;
    case 'or':
      validateExpr(e.left, entity === 'unspecified' ? (typeOfChain(e.left) ?? entity) : entity, counts);
      validateExpr(e.right, entity === 'unspecified' ? (typeOfChain(e.right) ?? entity) : entity, counts);
      return;
    case 'not':
      validateExpr(e.e, entity === 'unspecified' ? (typeOfChain(e.e) ?? entity) : entity, counts);
      return;
    case 'text':
      counts.text++;
      return;
    case 'similar':
      counts.similar++;
      if (entity !== 'resource') throw validationError('SIMILAR TO requires type = "resource" — only resources have perceptual hashes', e.pos, 10);
      if (e.id <= 0) throw validationError('SIMILAR TO requires a positive resource ID', e.pos, 10);
      if (e.within !== undefined && e.within > 11) {
        throw validationError(`WITHIN ${e.within} exceeds the maximum similarity distance 11 — pairs are only stored up to distance 11`, e.pos, 10);
      }
      return;
    case 'pred':
      return checkPredicate(e, entity);
  }
}

/** Output member of an aggregate (§10.4). */
export function aggOutput(a: Aggregate): string {
  return a.name === 'COUNT' ? 'count' : `${a.name.toLowerCase()}_${a.field!.text}`;
}

const KIND_WORD: Record<string, string> = {
  string: 'a string field',
  number: 'a numeric field',
  ref: 'a numeric field',
  datetime: 'a datetime field',
  relation: 'a relation field',
  meta: 'a meta field',
};

/** The aggregate's argument kind, validated (V58–V60). */
export function checkAggregate(entity: Entity, a: Aggregate): 'number' | 'datetime' | 'meta' | 'none' {
  if (a.name === 'COUNT') return 'none';
  const f = a.field!;
  let r: Resolved;
  try {
    r = resolveField(entity, f);
  } catch {
    return fieldErr(f, `unknown field "${f.text}" for aggregate ${a.name}`);
  }
  let kind: string;
  if (r.kind === 'scalar') kind = r.scalar.kind;
  else if (r.kind === 'meta') kind = 'meta';
  else if (r.kind === 'junction' || r.kind === 'single' || r.kind === 'children') kind = 'relation';
  else return fieldErr(f, `unknown field "${f.text}" for aggregate ${a.name}`);
  const numeric = kind === 'number' || kind === 'ref' || kind === 'meta';
  if ((a.name === 'SUM' || a.name === 'AVG') && !numeric) fieldErr(f, `${a.name} requires a numeric field, but "${f.text}" is ${KIND_WORD[kind]}`);
  if ((a.name === 'MIN' || a.name === 'MAX') && !numeric && kind !== 'datetime') {
    fieldErr(f, `${a.name} requires a numeric or datetime field, but "${f.text}" is ${KIND_WORD[kind]}`);
  }
  return kind === 'datetime' ? 'datetime' : kind === 'meta' ? 'meta' : 'number';
}

function checkHaving(entity: Entity, h: HavingExpr): void {
  if (h.k === 'and' || h.k === 'or') {
    checkHaving(entity, h.left);
    checkHaving(entity, h.right);
    return;
  }
  if (h.k === 'not') return checkHaving(entity, h.e);
  const kind = checkAggregate(entity, h.agg);
  const v = h.value;
  if (v.k === 'param' || kind === 'meta') return;
  const label = h.agg.name === 'COUNT' ? 'COUNT()' : `${h.agg.name}(${h.agg.field!.text})`;
  const dateOk = kind === 'datetime' && (v.k === 'reldate' || v.k === 'func' || (v.k === 'string' && parseDateString(v.v) !== null));
  if (v.k !== 'number' && !dateOk) valueErr(v, `HAVING ${label} requires a numeric value`);
}

function firstHavingAgg(h: HavingExpr): Aggregate {
  if (h.k === 'cmp') return h.agg;
  if (h.k === 'not') return firstHavingAgg(h.e);
  return firstHavingAgg(h.left);
}

/** Whether two GROUP BY / ORDER BY fields denote the same key (`group` ≡ `groups`). */
export function sameKey(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/^group(?=$|\.)/, 'groups');
  return norm(a) === norm(b);
}

export function validateQuery(q: Query): Checked {
  const entity = entityOf(q.where);
  const counts = { text: 0, similar: 0 };
  if (q.where) validateExpr(q.where, entity, counts);
  const g = q.groupBy;
  const mode: Mode = !g ? 'flat' : g.aggs.length > 0 ? 'aggregated' : 'bucketed';
  // ORDER BY: special keys, and ordinary keys outside aggregated mode.
  for (const item of q.orderBy ?? []) {
    if (item.random) {
      if (g) throw validationError('ORDER BY RANDOM() is not supported with GROUP BY', item.pos, 6);
      continue;
    }
    const f = item.field!;
    if (f.parts.length === 1 && f.text.toUpperCase() === 'RANK') {
      if (entity === 'unspecified') fieldErr(f, 'ORDER BY RANK requires a single entity type (add a type = ... filter)');
      if (g) fieldErr(f, 'ORDER BY RANK is not supported with GROUP BY');
      if (counts.text === 0) fieldErr(f, 'ORDER BY RANK requires a TEXT ~ predicate in the query');
      if (counts.text > 1) fieldErr(f, 'ORDER BY RANK is ambiguous with multiple TEXT predicates; use exactly one');
      continue;
    }
    if (f.text === 'distance') {
      if (entity !== 'resource') fieldErr(f, 'ORDER BY distance requires type = "resource" with a SIMILAR TO predicate', 8);
      if (g) fieldErr(f, 'ORDER BY distance is not supported with GROUP BY', 8);
      if (counts.similar === 0) fieldErr(f, 'ORDER BY distance requires a SIMILAR TO predicate in the query', 8);
      if (counts.similar > 1) fieldErr(f, 'ORDER BY distance is ambiguous with multiple SIMILAR TO predicates; use exactly one', 8);
      continue;
    }
    if (mode === 'aggregated') continue;
    checkOrderField(entity, f, g?.fields ?? []);
  }
  if (g) {
    if (entity === 'unspecified') throw validationError('GROUP BY requires an explicit entity type (e.g. type = "resource")', g.fields[0].pos, 0);
    for (const f of g.fields) checkGroupField(entity, f);
    for (const a of g.aggs) checkAggregate(entity, a);
    if (g.having) {
      if (g.aggs.length === 0) {
        throw validationError('HAVING requires at least one aggregate function in GROUP BY (e.g. GROUP BY hash COUNT() HAVING COUNT() > 1)', firstHavingAgg(g.having).pos, 0);
      }
      checkHaving(entity, g.having);
    }
    if (mode === 'aggregated') {
      const names = new Set([...g.aggs.map(aggOutput)]);
      for (const item of q.orderBy ?? []) {
        const f = item.field;
        if (!f || item.random || f.text.toUpperCase() === 'RANK' || f.text === 'distance') continue;
        if (names.has(f.text) || g.fields.some((k) => sameKey(k.text, f.text))) continue;
        fieldErr(f, `ORDER BY "${f.text}" is not valid in aggregated GROUP BY; use a group-by field or aggregate key (e.g. count, sum_fileSize)`);
      }
    }
  }
  return { entity, mode, textCount: counts.text, similarCount: counts.similar };
}

function checkOrderField(entity: EntityOrAll, f: FieldRef, groupFields: FieldRef[]): void {
  const r = resolveField(entity, f);
  switch (r.kind) {
    case 'type':
      return fieldErr(f, 'cannot ORDER BY type', 4);
    case 'junction':
    case 'single':
    case 'children':
    case 'similarImages':
      return fieldErr(f, `cannot ORDER BY ${f.text}: relation fields are not sortable`);
    case 'chain':
    case 'recursive':
      return fieldErr(f, `cannot ORDER BY ${f.text}: traversal fields are not sortable`);
    case 'bucket':
      if (!groupFields.some((k) => k.text === f.text)) {
        fieldErr(f, 'date bucket fields are only valid in GROUP BY; use a date range in WHERE (created >= "2026-07-01" AND created < "2026-08-01")');
      }
      return;
    default:
      return;
  }
}

function checkGroupField(entity: Entity, f: FieldRef): void {
  if (f.text === 'type') fieldErr(f, 'cannot GROUP BY type: it is a filter pseudo-field, not a data column', 4);
  const r = resolveField(entity, f, true);
  if (r.kind === 'recursive') fieldErr(f, `cannot GROUP BY ${f.text}: ancestors/descendants are filter-only and not groupable`);
  if (r.kind === 'count' || r.kind === 'similarImages') fieldErr(f, `cannot GROUP BY ${f.text}: it is not a groupable field`);
  if (r.kind === 'chain' && r.leaf.kind === 'relnull') fieldErr(f, `${f.text} is not supported; only scalar fields and tags are valid as traversal leaf fields`);
}

/** Filter-mode checks (§3.10 rules 3–4), then validation with the implied type. */
export function validateFilter(where: Expr, entity: Entity): Checked {
  const preds: Predicate[] = [];
  const walk = (e: Expr) => {
    if (e.k === 'and' || e.k === 'or') {
      walk(e.left);
      walk(e.right);
    } else if (e.k === 'not') walk(e.e);
    else if (e.k === 'pred') preds.push(e);
  };
  walk(where);
  for (const p of preds) {
    if (p.field.text === 'type') throw validationError('the type field is implied by the page and cannot be used in a filter expression', p.field.pos, 4);
  }
  for (const p of preds) {
    for (const v of p.values ?? (p.value ? [p.value] : [])) {
      if (v.k === 'param') throw validationError(`parameter placeholder $${v.name} is not allowed in a filter expression`, v.pos, v.len);
    }
  }
  const counts = { text: 0, similar: 0 };
  validateExpr(where, entity, counts);
  return { entity, mode: 'flat', textCount: counts.text, similarCount: counts.similar };
}

/** Placeholder names in order of first appearance (WHERE, then HAVING). */
export function listParams(q: Query): string[] {
  const names: string[] = [];
  const add = (v: Value | undefined) => {
    if (v?.k === 'param' && !names.includes(v.name)) names.push(v.name);
  };
  const walk = (e: Expr) => {
    if (e.k === 'and' || e.k === 'or') {
      walk(e.left);
      walk(e.right);
    } else if (e.k === 'not') walk(e.e);
    else if (e.k === 'pred') (e.values ?? [e.value]).forEach(add);
  };
  const walkH = (h: HavingExpr) => {
    if (h.k === 'and' || h.k === 'or') {
      walkH(h.left);
      walkH(h.right);
    } else if (h.k === 'not') walkH(h.e);
    else add(h.value);
  };
  if (q.where) walk(q.where);
  if (q.groupBy?.having) walkH(q.groupBy.having);
  return names;
}
