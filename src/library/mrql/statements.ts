// Every SQL statement MRQL runs is built here (mrql.md §21, §22), from the prepared query and
// the translator's fragments (translate.ts, keys.ts), as text with bound values. The engine
// runs them through the repository (repository.ts); explain shows them as they are.
import type { Dialect } from '../../core/db/dialect/index.js';
import { SqlText, type Statement } from '../../core/db/sql-text.js';
import type { Expr, HavingExpr, OrderItem } from './ast.js';
import { COLUMNS, selectList, type Row } from './entities.js';
import { ENTITIES, resolveField, TABLE, type Entity } from './fields.js';
import { aggExpr, keySpecs, metaSortTerms, type KeySpec } from './keys.js';
import { conjuncts, countExpr, findAll, folded, ftsTerms, ftsWords, metaPath, similarSet, translateExpr, TRUE, type Env, type Tx } from './translate.js';
import { MAX_KEYS, type Prepared, type ScopeSpec } from './types.js';
import { aggOutput, sameKey } from './validate.js';
import { instantOf, numberOf } from './values.js';

export interface AggColumn {
  output: string;
  alias: string;
  name: string;
  kind: string;
}

/**
 * A group's subtree as `name(id, depth)`. Groups below depth 50 are not walked: hierarchies are
 * at most 50 deep (§8). Each step probes the owner index per work-table row (`probeJoin`): on
 * PostgreSQL a plain join hashes a sequential scan of every group on each of the ~30 steps of a
 * deep chain (1.3 ms at 200 groups, paid by the scope look-up and again by the query).
 */
const subtree = (dialect: Dialect, name: string, seed: string) =>
  `WITH RECURSIVE ${name}(id, depth) AS (SELECT id, 0 FROM groups WHERE ${seed} ` +
  `UNION SELECT g.id, s.depth + 1 FROM ${name} s ${dialect.probeJoin('groups', 'g', 'g.id', 'g.owner_id = s.id')} WHERE s.depth < 50) `;

function newTx(entity: Entity, env: Env): Tx {
  return { b: new SqlText(env.dialect), env, entity };
}

const whereClause = (conds: (string | null)[]) => {
  const list = conds.filter(Boolean);
  return list.length ? ` WHERE ${list.join(' AND ')}` : '';
};

const limitClause = (tx: Tx, limit: number, offset: number) => ` LIMIT ${tx.b.p(limit)}${offset ? ` OFFSET ${tx.b.p(offset)}` : ''}`;

// ------------------------------------------------------------ look-ups before translation

/** The ids of tags by lower-case name (PostgreSQL plans tag predicates with literal ids). */
export function tagLookup(dialect: Dialect, names: string[]): Statement {
  const b = new SqlText(dialect);
  return b.finish('tags', `SELECT id, lower(name) AS n FROM tags WHERE lower(name) IN (${names.map((n) => b.t(n)).join(', ')})`);
}

/** The subtree size of a group (0 = no such group) and the number of groups. */
export function scopeById(dialect: Dialect, id: number): Statement {
  const b = new SqlText(dialect);
  return b.finish('scope', `${subtree(dialect, 'st', `id = ${b.p(id)}`)}SELECT (SELECT COUNT(*) FROM st) AS n, (SELECT COUNT(*) FROM groups) AS total`);
}

/** The groups named `name` (any case), with the subtree size of the name and the number of groups. */
export function scopeByName(dialect: Dialect, name: string): Statement {
  const b = new SqlText(dialect);
  return b.finish(
    'scope',
    `${subtree(dialect, 'st', `lower(name) = ${b.t(name)}`)}` +
      `SELECT m.id, m.category_id, m.owner_id, (SELECT COUNT(*) FROM st) AS n, (SELECT COUNT(*) FROM groups) AS total FROM groups m WHERE lower(m.name) = ${b.t(name)} ORDER BY m.id`,
  );
}

/** Entity rows by id (cross-entity random sampling hydrates the ids it drew). */
export function hydrate(dialect: Dialect, entity: Entity, ids: number[]): Statement {
  const b = new SqlText(dialect);
  return b.finish(TABLE[entity], `SELECT ${selectList(entity)} FROM ${TABLE[entity]} e WHERE e.id IN (${ids.map((id) => b.p(id)).join(', ')})`);
}

// ------------------------------------------------------------ parts

/** The scope CTE and condition for an entity, or nothing. */
function scopeParts(tx: Tx, scope: ScopeSpec, entity: Entity): { cte: string; cond: string | null } {
  if (scope.kind === 'none') return { cte: '', cond: null };
  if (scope.kind === 'nothing') return { cte: '', cond: '1 = 0' };
  const cte = subtree(tx.env.dialect, 'scope_tree', `id = ${tx.b.p(scope.id)}`);
  const col = entity === 'group' ? 'e.id' : 'e.owner_id';
  // Large subtrees: walk the ORDER BY index and probe membership. Small or unknown subtrees:
  // collect their rows through the owner index.
  return { cte, cond: tx.env.dialect.memberOf(col, 'SELECT id FROM scope_tree', !!scope.large) };
}

const RANGE_OPS = new Set(['=', '>', '>=', '<', '<=']);

/**
 * Whether a top-level conjunct compares a number or date column (one an index may answer, so
 * the planner may collect the matches from it and sort them; other filters are tested while
 * the ORDER BY index is walked, and reading ids first would only add a step).
 */
function indexedRange(p: Prepared, entity: Entity): boolean {
  return conjuncts(p.q.where).some((c) => {
    if (c.k !== 'pred' || !RANGE_OPS.has(c.op)) return false;
    const r = resolveField(entity, c.field);
    return r.kind === 'scalar' && (r.scalar.kind === 'number' || r.scalar.kind === 'datetime');
  });
}

/** A conjunct that only says the entity is this type (it translates to TRUE). */
function namesEntity(c: Expr, entity: Entity): boolean {
  if (c.k !== 'pred' || c.op !== '=') return false;
  try {
    return resolveField(entity, c.field).kind === 'type' && (c.value as { v: string }).v.toLowerCase() === entity;
  } catch {
    return false;
  }
}

const isRank = (it: OrderItem) => !!it.field && it.field.parts.length === 1 && it.field.text.toUpperCase() === 'RANK';

/** The TEXT predicate when it is the only filter (type checks aside) and ascending RANK the only key. */
function rankAlone(p: Prepared, entity: Entity, items: OrderItem[]): Expr | null {
  const node = findAll(p.q.where, 'text')[0];
  if (!node || items.length !== 1 || !isRank(items[0]) || items[0].desc) return null;
  return conjuncts(p.q.where).every((c) => c === node || namesEntity(c, entity)) ? node : null;
}

/**
 * The look-up an unscoped flat page ordered by RANK alone runs first (SQLite: the term's
 * posting profiles, ordered in `env.rankProfiles`), or null.
 */
export function rankProfiles(p: Prepared, entity: Entity, env: Env): Statement | null {
  const node = p.scope.kind === 'none' ? rankAlone(p, entity, p.q.orderBy ?? []) : null;
  if (!node || node.k !== 'text' || ftsWords(node.term).length === 0) return null;
  const b = new SqlText(env.dialect);
  const text = env.dialect.fullText.rankProfiles(b, TABLE[entity], ftsTerms(node.term));
  return text === null ? null : b.finish('rank profiles', text);
}

/**
 * ORDER BY terms of a flat (or bucket-item) statement and the joins they need. `top` (unscoped
 * flat pages: limit + offset) lets an ascending RANK that is the only key, over a TEXT predicate
 * that is the only filter, keep just the best `top` matches.
 */
function orderParts(tx: Tx, p: Prepared, entity: Entity, items: OrderItem[] | undefined, top?: number): { joins: string[]; terms: string[] } {
  const joins: string[] = [];
  const terms: string[] = [];
  const d = tx.env.dialect;
  for (const it of items ?? []) {
    const desc = it.desc ? ' DESC' : '';
    if (it.random) {
      terms.push('random()');
      continue;
    }
    const f = it.field!;
    if (isRank(it)) {
      const node = findAll(p.q.where, 'text')[0];
      if (!node || ftsWords(node.term).length === 0) continue;
      // A TEXT predicate among the top-level conjuncts may be answered by the scored join itself.
      const inner = conjuncts(p.q.where).includes(node);
      const alone = rankAlone(p, entity, items!) !== null;
      const rank = d.fullText.rank(tx.b, TABLE[entity], 'e', ftsTerms(node.term), inner, alone ? top : undefined, alone ? tx.env.rankProfiles : undefined);
      if (rank.join) {
        joins.push(rank.join);
        if (inner) tx.joinedText = node;
      }
      terms.push(`${rank.score}${desc}`);
      continue;
    }
    if (f.text === 'distance') {
      const node = findAll(p.q.where, 'similar')[0];
      joins.push(`LEFT JOIN (SELECT other_id, MIN(distance) AS distance FROM (${similarSet(tx, node.id, node.within, true)}) x GROUP BY other_id) sd ON sd.other_id = e.id`);
      terms.push(`COALESCE(sd.distance, 255)${desc}`);
      continue;
    }
    const r = resolveField(entity, f);
    if (r.kind === 'scalar') {
      const col = `e.${r.scalar.col}`;
      terms.push(`${r.scalar.kind === 'string' ? folded(tx, col) : col}${desc}${r.scalar.nullable ? d.nullsLow(it.desc) : ''}`);
    } else if (r.kind === 'shared') terms.push(`(CASE WHEN e.share_token IS NOT NULL THEN 1 ELSE 0 END)${desc}`);
    else if (r.kind === 'meta') {
      const m = metaPath(tx, 'e', r.path);
      terms.push(...metaSortTerms(tx, m.kind, m.num, m.text, it.desc));
    } else if (r.kind === 'count') terms.push(`${countExpr(tx, 'e', r.of)}${desc}`);
  }
  return { joins, terms };
}

// ------------------------------------------------------------ flat and cross-entity

/** One entity type's page of a flat query (`cols` narrows the select list). */
export function flat(p: Prepared, entity: Entity, env: Env, limit: number, offset: number, label: string, cols?: string): Statement {
  const tx = newTx(entity, env);
  return tx.b.finish(label, flatText(tx, p, entity, limit, offset, cols));
}

/**
 * The pages of several flat queries of one entity type in one statement (a shortcode's nested
 * `[mrql]` for every card of a list): each query's statement is a branch tagged with its
 * position in `mrql_batch`, its rows in its own order.
 */
export function flatBatch(ps: Prepared[], entity: Entity, env: Env): Statement {
  const b = new SqlText(env.dialect);
  const branches = ps.map((p, i) => `SELECT ${i} AS mrql_batch, x${i}.* FROM (${flatText({ b, env, entity }, p, entity, p.limit, p.offset)}) x${i}`);
  return b.finish(`${entity} batch`, branches.join(' UNION ALL '));
}

/**
 * One flat query run under many small scopes at once (the same nested `[mrql]` on every card of
 * a list): each subtree group's top rows through the owner index (`dialect.groupTopRows`), then
 * each root's top rows; `mrql_scope` names the root. Null when the query's order needs a join.
 * `columns`: the entity columns the page returns.
 */
export function flatScopes(p: Prepared, roots: number[], entity: Entity, env: Env, columns = COLUMNS[entity]): Statement | null {
  if (roots.length === 0) return null;
  const tx = newTx(entity, env);
  if (entity === 'resource' && conjuncts(p.q.where).some((c) => c.k === 'similar')) return null;
  const order = orderParts(tx, p, entity, p.q.orderBy);
  if (order.joins.length) return null;
  const whereText = p.q.where ? ` AND ${translateExpr(tx, p.q.where)}` : '';
  const col = entity === 'group' ? 'id' : 'owner_id';
  const terms = order.terms.length ? order.terms : ['e.id'];
  const n = p.limit + p.offset;
  const top = env.dialect.groupTopRows({ table: TABLE[entity], cols: selectList(entity), on: `e.${col} = st.id${whereText}`, order: terms, limit: tx.b.p(n), kth: tx.b.p(n - 1) });
  const rootList = () => roots.map((r) => tx.b.p(r)).join(', ');
  if (env.dialect.planner.lateralSmallSubtree) {
    // PostgreSQL: a LATERAL per root walks that root's subtree and sorts its groups' top rows
    // with LIMIT/OFFSET (a top-N sort of ~150 ids per root); then only the page's rows are read
    // whole. One walk from all roots ranked by a window sorted every candidate at once (2,920
    // ids for the benchmark's 400) and cost twice the statement (mrql.md §23.3, nested-mrql).
    const walk =
      `WITH RECURSIVE t(id, depth) AS (SELECT r.id, 0 ` +
      `UNION SELECT g.id, t.depth + 1 FROM t ${env.dialect.probeJoin('groups', 'g', 'g.id', 'g.owner_id = t.id')} WHERE t.depth < 50) `;
    const page = `${walk}SELECT e.id FROM (SELECT DISTINCT id FROM t) st ${top} ORDER BY ${terms.join(', ')} LIMIT ${tx.b.p(p.limit)} OFFSET ${tx.b.p(p.offset)}`;
    const st = tx.b.finish(
      `${entity} scopes`,
      `SELECT r.id AS mrql_scope, ${selectList(entity, 'e', columns)} FROM groups r CROSS JOIN LATERAL (${page}) page ` +
        `JOIN ${TABLE[entity]} e ON e.id = page.id WHERE r.id IN (${rootList()}) ORDER BY r.id, ${terms.join(', ')}`,
    );
    // Every render of the same card list sends this text again: planning it took longer than
    // running it (mrql.md §23, nested-mrql), so its plan is kept.
    return { ...st, reusePlan: true };
  }
  // SQLite (no LATERAL): one walk from all the roots; each root's page is a correlated list of
  // its subtree's top ids, sorted with LIMIT (a top-N sort); a window ranking every subtree
  // group's candidates (3,000 rows for the benchmark's 400) cost more than the rest.
  const cte =
    `WITH RECURSIVE scope_tree(root, id, depth) AS (SELECT id, id, 0 FROM groups WHERE id IN (${rootList()}) ` +
    `UNION SELECT s.root, g.id, s.depth + 1 FROM scope_tree s ${env.dialect.probeJoin('groups', 'g', 'g.id', 'g.owner_id = s.id')} WHERE s.depth < 50) `;
  const page = `SELECT e.id FROM (SELECT DISTINCT id FROM scope_tree WHERE root = r.id) st ${top} ORDER BY ${terms.join(', ')} LIMIT ${tx.b.p(p.limit)} OFFSET ${tx.b.p(p.offset)}`;
  return tx.b.finish(
    `${entity} scopes`,
    `${cte}SELECT r.id AS mrql_scope, ${selectList(entity, 'e', columns)} FROM groups r CROSS JOIN ${TABLE[entity]} e ON e.id IN (${page}) ` +
      `WHERE r.id IN (${rootList()}) ORDER BY r.id, ${terms.join(', ')}`,
  );
}

function flatText(tx: Tx, p: Prepared, entity: Entity, limit: number, offset: number, cols?: string): string {
  const env = tx.env;
  const { cte, cond } = scopeParts(tx, p.scope, entity);
  // A top-level SIMILAR TO drives the statement from the pair index (§22.11): the pairs are
  // streamed and joined to their resources, so LIMIT stops early even when the target has
  // tens of thousands of pairs. Without ORDER BY the pair order is the result order.
  const driving = entity === 'resource' ? conjuncts(p.q.where).find((c) => c.k === 'similar') : undefined;
  let from = `${TABLE[entity]} e`;
  if (driving && driving.k === 'similar') {
    from = `(${similarSet(tx, driving.id, driving.within, false)}) sim JOIN resources e ON e.id = sim.other_id`;
    tx.joinedSimilar = driving;
  }
  const smallScope = env.dialect.planner.lateralSmallSubtree && 'id' in p.scope && !p.scope.large;
  const order = orderParts(tx, p, entity, p.q.orderBy, p.scope.kind === 'none' ? limit + offset : undefined);
  if (smallScope && !driving && order.joins.length === 0) {
    // Small subtree: the top rows of each subtree group through the owner index (a LATERAL per
    // group), merged; the planner would otherwise scan the table hoping LIMIT stops early.
    const whereText = p.q.where ? ` AND ${translateExpr(tx, p.q.where)}` : '';
    const col = entity === 'group' ? 'id' : 'owner_id';
    const orderText = order.terms.length ? ` ORDER BY ${order.terms.join(', ')}` : '';
    const inner = `SELECT ${selectList(entity)} FROM ${TABLE[entity]} e WHERE e.${col} = st.id${whereText}${orderText} LIMIT ${tx.b.p(limit + offset)}`;
    return `${cte}SELECT ${cols ?? 'e.*'} FROM (SELECT DISTINCT id FROM scope_tree) st CROSS JOIN LATERAL (${inner}) e${orderText}${limitClause(tx, limit, offset)}`;
  }
  const where = whereClause([p.q.where ? translateExpr(tx, p.q.where) : null, cond]);
  // Default order: ascending id where it costs nothing. Not when the pair index drives the
  // statement, nor under a small scope fetched group by group (it would walk the primary key
  // instead of collecting the subtree's rows through the owner index).
  const terms = order.terms.length ? order.terms : driving || smallScope ? [] : ['e.id'];
  if (env.dialect.planner.keysFirst && !driving && p.scope.kind === 'none' && order.terms.length && order.joins.length === 0 && indexedRange(p, entity)) {
    // The page's ids first, sorted from the filter's index alone, then only their rows: the
    // planner may answer the range from its index and sort every match, reading each matching
    // row whole for it (1M resources, 1 % matching: 10,000 rows for a page of 50).
    const ids = `SELECT e.id FROM ${from}${where} ORDER BY ${terms.join(', ')}${limitClause(tx, limit, offset)}`;
    return `${cte}SELECT ${cols ?? selectList(entity)} FROM ${from} WHERE e.id IN (${ids}) ORDER BY ${terms.join(', ')}`;
  }
  return (
    `${cte}SELECT ${cols ?? selectList(entity)} FROM ${from}${order.joins.map((j) => ` ${j}`).join('')}` +
    `${where}${terms.length ? ` ORDER BY ${terms.join(', ')}` : ''}${limitClause(tx, limit, offset)}`
  );
}

/** One statement per entity type: its top `offset + limit` rows, or for ORDER BY RANDOM() a sample and the population. */
export function cross(p: Prepared, env: Env): Statement[] {
  const w = p.offset + p.limit;
  const randomFirst = p.q.orderBy?.[0]?.random;
  return ENTITIES.map((entity) => {
    if (!randomFirst) return flat(p, entity, env, w, 0, TABLE[entity]);
    const tx = newTx(entity, env);
    const { cte, cond } = scopeParts(tx, p.scope, entity);
    // The sample and the population in one statement: two narrow passes (the predicate can
    // be answered from covering indexes) instead of a window that materialises every match.
    const sample = `SELECT e.id FROM ${TABLE[entity]} e${whereClause([p.q.where ? translateExpr(tx, p.q.where) : null, cond])} ORDER BY random() LIMIT ${tx.b.p(w)}`;
    const population = `SELECT COUNT(*) AS population FROM ${TABLE[entity]} e${whereClause([p.q.where ? translateExpr(tx, p.q.where) : null, cond])}`;
    return tx.b.finish(TABLE[entity], `${cte}SELECT s.id, c.population FROM (${sample}) s CROSS JOIN (${population}) c`);
  });
}

/**
 * The lowest and highest id of each entity table (two index end points each; NULL when empty).
 * Spelled as ORDER BY … LIMIT 1 rather than MIN/MAX: PostgreSQL rewrites each MIN/MAX into that
 * subquery itself while planning, which made this six-part statement slower to plan than to run.
 */
export function idRanges(dialect: Dialect): Statement {
  const b = new SqlText(dialect);
  const end = (e: Entity, dir: string) => `(SELECT id FROM ${TABLE[e]} ORDER BY id ${dir} LIMIT 1)`;
  const cols = ENTITIES.flatMap((e) => [`${end(e, 'ASC')} AS ${e}_min`, `${end(e, 'DESC')} AS ${e}_max`]);
  return b.finish('id ranges', `SELECT ${cols.join(', ')}`);
}

/** Every column any entity type selects, once (the shared projection of `probe`). */
const UNION_COLUMNS = [...new Set(ENTITIES.flatMap((e) => COLUMNS[e]))];

/**
 * The rows among drawn ids (by type) that exist and match the query, in one statement: one
 * primary-key probe per id. Each type's branch selects the shared projection (NULL where the
 * type has no such column) and names its type in `mrql_type`.
 */
export function probe(p: Prepared, env: Env, drawn: Record<Entity, number[]>): Statement {
  const b = new SqlText(env.dialect);
  let cte = '';
  const branches: string[] = [];
  for (const entity of ENTITIES) {
    const ids = drawn[entity];
    if (!ids.length) continue;
    const tx: Tx = { b, env, entity };
    const scope = scopeParts(tx, p.scope, entity);
    cte ||= scope.cte;
    // A column the type lacks is read from no row of a type that has it: NULL, but typed, so
    // the branches unite on PostgreSQL too (an uncorrelated subquery runs once).
    const cols = UNION_COLUMNS.map((c) => {
      if (COLUMNS[entity].includes(c)) return `e.${c}`;
      const other = ENTITIES.find((o) => COLUMNS[o].includes(c))!;
      return `(SELECT x.${c} FROM ${TABLE[other]} x WHERE 1 = 0) AS ${c}`;
    }).join(', ');
    const where = whereClause([`e.id IN (${ids.map((id) => b.p(id)).join(', ')})`, p.q.where ? translateExpr(tx, p.q.where) : null, scope.cond]);
    branches.push(`SELECT '${entity}' AS mrql_type, ${cols} FROM ${TABLE[entity]} e${where}`);
  }
  return b.finish('sample probe', `${cte}${branches.join(' UNION ALL ')}`);
}

/** The number of rows of one entity type the query matches, ignoring LIMIT/OFFSET. */
export function count(p: Prepared, entity: Entity, env: Env): Statement {
  const tx = newTx(entity, env);
  const { cte, cond } = scopeParts(tx, p.scope, entity);
  return tx.b.finish(entity, `${cte}SELECT COUNT(*) AS n FROM ${TABLE[entity]} e${whereClause([p.q.where ? translateExpr(tx, p.q.where) : null, cond])}`);
}

// ------------------------------------------------------------ aggregated

function havingSql(tx: Tx, entity: Entity, h: HavingExpr): string {
  if (h.k === 'and' || h.k === 'or') return `(${havingSql(tx, entity, h.left)} ${h.k.toUpperCase()} ${havingSql(tx, entity, h.right)})`;
  if (h.k === 'not') return `NOT (${havingSql(tx, entity, h.e)})`;
  const op = h.op === '!=' ? '<>' : h.op;
  const v = h.value;
  const a = h.agg;
  const r = a.field ? resolveField(entity, a.field) : null;
  let expr = aggExpr(tx, entity, a).expr;
  if (r?.kind === 'meta' && v.k === 'number') {
    const m = metaPath(tx, 'e', r.path);
    expr = `${a.name}(CASE WHEN ${m.isNumber} THEN ${m.num} END)`;
  }
  if (v.k === 'number') return `${expr} ${op} ${tx.b.p(numberOf(v, r?.kind === 'scalar' && r.scalar.col === 'file_size'))}`;
  const instant = instantOf(v, tx.env.now);
  if (r?.kind === 'scalar' && r.scalar.kind === 'datetime' && instant) return `${expr} ${op} ${tx.b.p(instant.toISOString())}`;
  const text = v.k === 'string' ? v.v : v.k === 'bool' ? String(v.v) : '';
  return `${expr} ${op} ${tx.b.t(text)}`;
}

/**
 * Whether the per-content-type count table (migration 013, kept by triggers) answers the query
 * exactly: every resource counted once under its content type, so only `GROUP BY contentType`
 * with nothing but `COUNT()` over all resources — no WHERE beyond `type = "resource"`, no HAVING, no scope (a confined
 * principal's forced scope included: its counts come from its subtree's rows).
 */
function countedByContentType(p: Prepared, filter: string | null, keys: KeySpec[]): boolean {
  const g = p.q.groupBy!;
  return (
    p.entity === 'resource' &&
    p.scope.kind === 'none' &&
    (filter === null || filter === TRUE) &&
    !g.having &&
    keys.length === 1 &&
    keys[0].exprs.length === 1 &&
    keys[0].exprs[0] === 'e.content_type' &&
    keys[0].joins.length === 0 &&
    g.aggs.every((a) => a.name === 'COUNT' && !a.field)
  );
}

/** GROUP BY with aggregates: one statement; keys and aggregate columns tell how to read its rows. */
export function aggregated(p: Prepared, env: Env): { st: Statement; keys: KeySpec[]; aggs: AggColumn[] } {
  const entity = p.entity as Entity;
  const tx = newTx(entity, env);
  const g = p.q.groupBy!;
  const { cte, cond } = scopeParts(tx, p.scope, entity);
  const keys = keySpecs(tx, entity, g.fields);
  const select: string[] = [];
  keys.forEach((k, i) => k.exprs.forEach((x, j) => select.push(`${x} AS k${i}_${j}`)));
  const aggs: AggColumn[] = [];
  for (const a of g.aggs) {
    const output = aggOutput(a);
    if (aggs.some((x) => x.output === output)) continue;
    const { expr, kind } = aggExpr(tx, entity, a);
    const alias = `a${aggs.length}`;
    aggs.push({ output, alias, name: a.name, kind });
    select.push(`${expr} AS ${alias}`);
  }
  const filter = p.q.where ? translateExpr(tx, p.q.where) : null;
  const where = whereClause([filter, cond]);
  const groupCount = keys.reduce((s, k) => s + k.exprs.length, 0);
  const having = g.having ? ` HAVING ${havingSql(tx, entity, g.having)}` : '';
  const inner = countedByContentType(p, filter, keys)
    ? `SELECT content_type AS k0_0, ${aggs.map((a) => `n AS ${a.alias}`).join(', ')} FROM resource_content_type_counts WHERE n > 0`
    : `SELECT ${select.join(', ')} FROM ${TABLE[entity]} e${keys.flatMap((k) => k.joins).map((j) => ` ${j}`).join('')}` +
      `${where} GROUP BY ${Array.from({ length: groupCount }, (_, i) => i + 1).join(', ')}${having}`;
  const terms: string[] = [];
  for (const it of p.q.orderBy ?? []) {
    const f = it.field!;
    const ki = keys.findIndex((k) => k.names.some((n) => sameKey(n, f.text)));
    if (ki >= 0) {
      terms.push(...keys[ki].shownSort(keys[ki].exprs.map((_, j) => `sub.k${ki}_${j}`), it.desc));
      continue;
    }
    const a = aggs.find((x) => x.output === f.text);
    if (a) terms.push(`sub.${a.alias}${it.desc ? ' DESC' : ''}${env.dialect.nullsLow(it.desc)}`);
  }
  const text = `${cte}SELECT * FROM (${inner}) sub${terms.length ? ` ORDER BY ${terms.join(', ')}` : ''}${limitClause(tx, p.limit, p.offset)}`;
  return { st: tx.b.finish(entity, text), keys, aggs };
}

// ------------------------------------------------------------ bucketed

/** Indexed key columns with few distinct values, whose distinct values a skip scan lists. */
const SKIP_SCAN: Record<Entity, string[]> = {
  resource: ['e.content_type', 'e.resource_category_id', 'e.owner_id'],
  note: ['e.note_type_id', 'e.owner_id'],
  group: ['e.category_id', 'e.owner_id'],
};

/** The distinct bucket keys, in key order, one more than MAX_KEYS. */
export function bucketKeys(p: Prepared, env: Env): { st: Statement; keys: KeySpec[] } {
  const entity = p.entity as Entity;
  const tx = newTx(entity, env);
  const { cte, cond } = scopeParts(tx, p.scope, entity);
  const keys = keySpecs(tx, entity, p.q.groupBy!.fields);
  const select: string[] = [];
  keys.forEach((k, i) => k.exprs.forEach((x, j) => select.push(`${x} AS k${i}_${j}`)));
  const where = p.q.where ? translateExpr(tx, p.q.where) : null;
  const sorts = keys.flatMap((k, i) => k.identitySort(k.exprs.map((_, j) => `sub.k${i}_${j}`)));
  const tail = ` sub ORDER BY ${sorts.join(', ')} LIMIT ${tx.b.p(MAX_KEYS + 1)}`;
  const col = keys.length === 1 && keys[0].exprs.length === 1 && keys[0].joins.length === 0 ? keys[0].exprs[0] : null;
  if (env.dialect.planner.skipScanDistinct && col && SKIP_SCAN[entity].includes(col) && !cte && (where === null || where === '1 = 1')) {
    // One index probe per distinct value (a few), instead of reading every index entry.
    const t = TABLE[entity];
    const walk =
      `WITH RECURSIVE k(v) AS (SELECT MIN(${col}) FROM ${t} e UNION ALL SELECT (SELECT MIN(${col}) FROM ${t} e WHERE ${col} > k.v) FROM k WHERE k.v IS NOT NULL) ` +
      `SELECT v AS k0_0 FROM k WHERE v IS NOT NULL UNION ALL SELECT NULL WHERE EXISTS (SELECT 1 FROM ${t} e WHERE ${col} IS NULL)`;
    return { st: tx.b.finish('bucket keys', `SELECT * FROM (${walk})${tail}`), keys };
  }
  // DISTINCT (not GROUP BY): SQLite answers it with a skip-ahead walk of the key's index.
  const inner =
    `SELECT DISTINCT ${select.join(', ')} FROM ${TABLE[entity]} e${keys.flatMap((k) => k.joins).map((j) => ` ${j}`).join('')}` + whereClause([where, cond]);
  return { st: tx.b.finish('bucket keys', `${cte}SELECT * FROM (${inner})${tail}`), keys };
}

/** The items of a run of buckets (rows of the key statement), each tagged with its bucket number from `base`. */
export function bucketItems(p: Prepared, env: Env, part: Row[], base: number): Statement {
  const entity = p.entity as Entity;
  const tx = newTx(entity, env);
  const { cte, cond } = scopeParts(tx, p.scope, entity);
  const specs = keySpecs(tx, entity, p.q.groupBy!.fields);
  const order = orderParts(tx, p, entity, p.q.orderBy?.filter((o) => !(o.field && isBucketField(o.field.text))));
  const whereBase = p.q.where ? translateExpr(tx, p.q.where) : null;
  const joins = [...specs.flatMap((k) => k.joins), ...order.joins].map((j) => ` ${j}`).join('');
  const branches = part.map((row, i) => {
    const conds = [whereBase, cond].filter(Boolean) as string[];
    specs.forEach((k, ki) => {
      for (const j of k.identity) {
        const v = row[`k${ki}_${j}`];
        conds.push(v === null || v === undefined ? `${k.exprs[j]} IS NULL` : `${k.exprs[j]} = ${tx.b.p(v)}`);
      }
    });
    const terms = order.terms.length ? order.terms : ['e.id'];
    return `SELECT * FROM (SELECT ${selectList(entity)}, ${tx.b.p(base + i)} AS mrql_bucket FROM ${TABLE[entity]} e${joins} WHERE ${conds.join(' AND ')} ORDER BY ${terms.join(', ')} LIMIT ${tx.b.p(p.bucket!.items)}) b${i}`;
  });
  return tx.b.finish(`${entity} bucket items`, `${cte}${branches.join(' UNION ALL ')}`);
}

function isBucketField(text: string): boolean {
  return /\.(day|week|month|year)$/.test(text);
}
