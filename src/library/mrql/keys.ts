// GROUP BY keys and aggregates (mrql.md §10): how each key is selected, joined, shown, sorted
// and matched, and the SQL of each aggregate.
import type { Aggregate, FieldRef } from './ast.js';
import { resolveField, type Entity, type Resolved } from './fields.js';
import { countExpr, datetimeText, folded, metaPath, type Tx } from './translate.js';
import { rfc3339 } from './values.js';

export interface KeySpec {
  /** Surviving key name as written. */
  name: string;
  /** Every written name that collapsed into this key. */
  names: string[];
  /** Select expressions; the first `identity` ones identify the group, the rest are shown values. */
  exprs: string[];
  joins: string[];
  /** Whether the key carries an `<name>_id` member (identity-keyed relations). */
  withId: boolean;
  /** Reads the shown key members from a row whose columns are c0, c1, … for this key. */
  shape: (vals: unknown[]) => Record<string, unknown>;
  /** Sort terms over the columns (already aliased), for the shown value and the identity. */
  shownSort: (cols: string[], desc: boolean) => string[];
  identitySort: (cols: string[]) => string[];
  /** Which expressions identify a bucket (indexes into exprs). */
  identity: number[];
}

const NULLS = (tx: Tx, desc: boolean) => tx.env.dialect.nullsLow(desc);
const dir = (desc: boolean) => (desc ? ' DESC' : '');

/** Meta sort over a (kind, text) pair: absent/null, numbers, strings (folded), false, true, then objects/arrays (§6.16). */
export function metaSortTerms(tx: Tx, kind: string, num: string, text: string, desc: boolean): string[] {
  const d = dir(desc);
  const pair = tx.env.dialect.jsonPair;
  return [`${pair.rank(kind, text)}${d}`, `(CASE WHEN ${pair.isNumber(kind)} THEN ${num} END)${d}`, `(CASE WHEN ${pair.isString(kind)} THEN ${folded(tx, text)} END)${d}`, `${text}${d}`];
}

function metaKey(tx: Tx, alias: string, path: string[], name: string, names: string[], joins: string[]): KeySpec {
  const m = metaPath(tx, alias, path);
  const pair = tx.env.dialect.jsonPair;
  return {
    name,
    names,
    exprs: [m.kind, m.value],
    joins,
    withId: false,
    identity: [0, 1],
    shape: ([k, v]) => ({ [name]: pair.read(k, v) }),
    shownSort: ([k, v], desc) => metaSortTerms(tx, k, pair.num(k, v), v, desc),
    identitySort: ([k, v]) => metaSortTerms(tx, k, pair.num(k, v), v, false),
  };
}

function shownValue(kind: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'datetime') return rfc3339(v);
  if (kind === 'number' || kind === 'ref') return Number(v);
  return v;
}

/** Builds the key specs for the GROUP BY fields, collapsing duplicates (§10.3). */
export function keySpecs(tx: Tx, entity: Entity, fields: FieldRef[]): KeySpec[] {
  const specs: KeySpec[] = [];
  const seen = new Map<string, KeySpec>();
  for (const f of fields) {
    const r = resolveField(entity, f, true);
    const identityKey = canonical(r, f);
    const dup = seen.get(identityKey);
    if (dup) {
      dup.names.push(f.text);
      continue;
    }
    const spec = keySpec(tx, entity, r, f.text, specs.length);
    seen.set(identityKey, spec);
    specs.push(spec);
  }
  return specs;
}

function canonical(r: Resolved, f: FieldRef): string {
  if (r.kind === 'junction') return `junction:${r.j.table}`;
  return f.text;
}

function keySpec(tx: Tx, entity: Entity, r: Resolved, name: string, index: number): KeySpec {
  const names = [name];
  const a = `gk${index}`;
  const plain = (expr: string, kind: string, joins: string[] = []): KeySpec => ({
    name,
    names,
    exprs: [expr],
    joins,
    withId: false,
    identity: [0],
    shape: ([v]) => ({ [name]: shownValue(kind, v) }),
    shownSort: ([c], desc) => [`${kind === 'string' ? folded(tx, c) : c}${dir(desc)}${NULLS(tx, desc)}`],
    identitySort: ([c]) => [`${kind === 'string' ? folded(tx, c) : c}${NULLS(tx, false)}`],
  });
  const named = (idExpr: string, nameExpr: string, joins: string[]): KeySpec => ({
    name,
    names,
    exprs: [idExpr, nameExpr],
    joins,
    withId: true,
    identity: [0],
    shape: ([id, n]) => ({ [name]: n ?? null, [`${name}_id`]: id === null || id === undefined ? null : Number(id) }),
    shownSort: ([, n], desc) => [`${folded(tx, n)}${dir(desc)}${NULLS(tx, desc)}`],
    identitySort: ([id]) => [`${id}${NULLS(tx, false)}`],
  });
  switch (r.kind) {
    case 'scalar':
      return plain(`e.${r.scalar.col}`, r.scalar.kind);
    case 'shared':
      return { ...plain(`(CASE WHEN e.share_token IS NOT NULL THEN 1 ELSE 0 END)`, 'number'), shape: ([v]) => ({ [name]: Number(v) === 1 }) };
    case 'meta':
      return metaKey(tx, 'e', r.path, name, names, []);
    case 'bucket':
      return plain(tx.env.dialect.dateBucket(tx.b, `e.${r.scalar.col}`, r.unit, tx.env.zone), 'string');
    case 'junction': {
      const j = `${a}j`;
      const t = `${a}r`;
      const joins = [`LEFT JOIN ${r.j.table} ${j} ON ${j}.${r.j.own} = e.id`, `LEFT JOIN ${r.j.related} ${t} ON ${t}.id = ${j}.${r.j.other}`];
      if (r.j.related === 'tags') return plain(`${t}.name`, 'string', joins);
      return named(`${t}.id`, `${t}.name`, joins);
    }
    case 'single':
      return named('e.owner_id', `${a}.name`, [`LEFT JOIN groups ${a} ON ${a}.id = e.owner_id`]);
    case 'children':
      return named(`${a}.id`, `${a}.name`, [`LEFT JOIN groups ${a} ON ${a}.owner_id = e.id`]);
    case 'chain': {
      const joins: string[] = [];
      let prev = 'e';
      const steps: string[] = [r.root === 'children' ? 'children' : 'parent', ...r.steps];
      steps.forEach((s, i) => {
        const g = `${a}c${i}`;
        joins.push(s === 'children' ? `LEFT JOIN groups ${g} ON ${g}.owner_id = ${prev}.id` : `LEFT JOIN groups ${g} ON ${g}.id = ${prev}.owner_id`);
        prev = g;
      });
      const leaf = r.leaf;
      if (leaf.kind === 'scalar') return plain(`${prev}.${leaf.scalar.col}`, leaf.scalar.kind, joins);
      if (leaf.kind === 'meta') return metaKey(tx, prev, leaf.path, name, names, joins);
      const gt = `${a}gt`;
      const tt = `${a}tt`;
      joins.push(`LEFT JOIN group_tags ${gt} ON ${gt}.group_id = ${prev}.id`, `LEFT JOIN tags ${tt} ON ${tt}.id = ${gt}.tag_id`);
      return plain(`${tt}.name`, 'string', joins);
    }
    default:
      return plain('NULL', 'string');
  }
}

export interface AggSpec {
  output: string;
  expr: string;
  shape: (v: unknown) => unknown;
}

/** SQL of an aggregate call over the joined rows. */
export function aggExpr(tx: Tx, entity: Entity, a: Aggregate): { expr: string; kind: string } {
  if (a.name === 'COUNT') return { expr: 'COUNT(*)', kind: 'count' };
  const r = resolveField(entity, a.field!);
  if (r.kind === 'meta') {
    const m = metaPath(tx, 'e', r.path);
    const num = `(CASE WHEN ${m.isNumber} THEN ${m.num} END)`;
    const str = `(CASE WHEN ${m.isString} THEN ${m.value} END)`;
    if (a.name === 'SUM' || a.name === 'AVG') return { expr: `${a.name}(${num})`, kind: 'meta' };
    const numText = tx.env.dialect.unifyText(`${a.name}(${num})`);
    return { expr: a.name === 'MIN' ? `COALESCE(${numText}, MIN(${str}))` : `COALESCE(MAX(${str}), ${numText})`, kind: 'meta' };
  }
  if (r.kind === 'scalar') return { expr: `${a.name}(e.${r.scalar.col})`, kind: r.scalar.kind };
  if (r.kind === 'count') return { expr: `${a.name}(${countExpr(tx, 'e', r.of)})`, kind: 'number' };
  return { expr: 'NULL', kind: 'string' };
}

export function shapeAgg(name: string, kind: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (kind === 'datetime') return rfc3339(v);
  if (name === 'AVG') return Number(v);
  if (kind === 'meta') {
    const n = Number(v);
    return typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n) && /^-?\d/.test(v)) ? n : v;
  }
  return Number(v);
}

export { datetimeText };
