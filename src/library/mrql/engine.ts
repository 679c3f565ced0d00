// The MRQL engine: parse → bind → validate → limits → scope → dialect gate → translate →
// execute → shape (mrql.md §1). One instance per library; every entry point (HTTP, list filters,
// shortcodes, benchmarks) runs queries through it.
import { createHash } from 'node:crypto';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { DbKind } from '../../core/db/connect.js';
import type { Principal } from '../auth/principal.js';
import type { Expr, HavingExpr, OrderItem, Query } from './ast.js';
import { entityObject, selectList, type EntityObject, type Row } from './entities.js';
import { MrqlError } from './errors.js';
import { ENTITIES, resolveField, TABLE, type Entity, type EntityOrAll } from './fields.js';
import { aggExpr, keySpecs, metaSortTerms, shapeAgg, type KeySpec } from './keys.js';
import { bindParams } from './params.js';
import { parseQuery } from './parser.js';
import { Binds, finish, interpolate, type Statement } from './sql.js';
import {
  conjuncts,
  countExpr,
  findAll,
  folded,
  ftsMatch,
  ftsWords,
  hasRegex,
  metaPath,
  similarSet,
  translateExpr,
  type Env,
  type Tx,
} from './translate.js';
import { aggOutput, sameKey, validateQuery, type Checked } from './validate.js';
import { instantOf, numberOf } from './values.js';

export const MAX_LIMIT = 10000;
export const MAX_OFFSET = 10000;
const MAX_KEYS = 1000;
const MAX_BUCKETS_PER_PAGE = 200;
const MAX_ITEMS = 10000;

export interface MrqlSettings {
  defaultLimit: number;
  timeoutMs: number;
  similarityThreshold: number;
  ahashThreshold: number;
  pageQueryBudget: number;
}

export interface RunOptions {
  limit?: number;
  page?: number;
  buckets?: number;
  offset?: number;
  params?: Record<string, unknown>;
  principal?: Principal;
  /** Shortcode scope (§19.1): a group id, or null for "an anchor that does not exist". Ignored when the query has SCOPE. */
  contextScope?: number | null;
}

export interface Stats {
  statements: number;
  rows: number;
}

/** `large`: the subtree holds a large share of all groups, so walking the ORDER BY index and probing membership beats collecting the subtree's rows. */
export type ScopeSpec = { kind: 'none' } | { kind: 'explicit' | 'forced' | 'context'; id: number; large?: boolean } | { kind: 'nothing' };

export interface Prepared {
  q: Query;
  checked: Checked;
  entity: EntityOrAll;
  limit: number;
  offset: number;
  defaultApplied: boolean;
  scope: ScopeSpec;
  bucket?: { items: number; perPage: number | null; offset: number; offsetInEffect: boolean };
  tagIds?: Map<string, number[]>;
}

export interface FlatResult {
  entityType: string;
  resources: EntityObject[];
  notes: EntityObject[];
  groups: EntityObject[];
  counts: { resources: number; notes: number; groups: number };
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export interface AggregatedResult {
  entityType: string;
  mode: 'aggregated';
  columns: string[];
  rows: Record<string, unknown>[];
  buckets: never[];
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export interface Bucket {
  key: Record<string, unknown>;
  items: EntityObject[];
}

export interface BucketedResult {
  entityType: string;
  mode: 'bucketed';
  keyColumns: string[];
  buckets: Bucket[];
  groups: Bucket[];
  rows: never[];
  totalGroups: number;
  nextOffset?: number;
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export type MrqlResult = FlatResult | AggregatedResult | BucketedResult;

const posInt = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);

export class MrqlEngine {
  constructor(
    readonly db: Kysely<unknown>,
    readonly kind: DbKind,
    readonly fts: boolean,
    readonly settings: MrqlSettings,
    public clock: () => Date = () => new Date(),
  ) {}

  env(now: Date, p?: Prepared): Env {
    return { kind: this.kind, now, fts: this.fts, similarityThreshold: this.settings.similarityThreshold, ahashThreshold: this.settings.ahashThreshold, tagIds: p?.tagIds };
  }

  /** PostgreSQL: resolves the tag names the WHERE compares with `=` to ids in one lookup. */
  async resolveTags(p: Prepared, stats: Stats): Promise<void> {
    if (this.kind !== 'postgres' || p.entity === 'unspecified') return;
    const names = new Set<string>();
    for (const pred of findAll(p.q.where, 'pred')) {
      if (pred.field.text !== 'tags' || (pred.op !== '=' && pred.op !== '!=')) continue;
      const v = pred.value!;
      if (v.k === 'string' || v.k === 'bool') names.add(String(v.k === 'string' ? v.v : v.v).toLowerCase());
    }
    if (names.size === 0) return;
    const b = new Binds(this.kind);
    const rows = await this.run(finish('tags', `SELECT id, lower(name) AS n FROM tags WHERE lower(name) IN (${[...names].map((n) => b.t(n)).join(', ')})`, b), stats);
    p.tagIds = new Map([...names].map((n) => [n, rows.filter((r) => r.n === n).map((r) => Number(r.id))]));
  }

  // ------------------------------------------------------------ preparation

  /** Parse, bind, validate, compute limits and resolve scope (stages 1–8). */
  async prepare(text: string, opts: RunOptions, stats: Stats): Promise<Prepared> {
    let q = parseQuery(text);
    q = bindParams(q, opts.params ?? {});
    const checked = validateQuery(q);
    const entity = checked.entity;
    const defaultLimit = Math.min(this.settings.defaultLimit, MAX_LIMIT);
    const reqLimit = posInt(opts.limit);
    const page = posInt(opts.page);
    const p: Prepared = { q, checked, entity, limit: 0, offset: 0, defaultApplied: false, scope: { kind: 'none' } };
    if (checked.mode === 'bucketed') {
      const items = reqLimit ?? q.limit?.n ?? defaultLimit;
      if (items > MAX_LIMIT) throw new MrqlError('limit', `MRQL limit ${items} exceeds maximum ${MAX_LIMIT}`);
      let perPage: number | null = posInt(opts.buckets) ?? null;
      if (perPage === null && page) perPage = reqLimit ?? posInt(q.limit?.n) ?? null;
      if (perPage !== null) perPage = Math.min(perPage, MAX_KEYS);
      let offset: number;
      if (posInt(opts.offset)) offset = opts.offset!;
      else if (page) offset = (page - 1) * (perPage ?? MAX_KEYS);
      else offset = q.offset?.n ?? 0;
      if (offset > MAX_OFFSET) throw new MrqlError('limit', `MRQL offset ${offset} exceeds maximum ${MAX_OFFSET}`);
      p.limit = items;
      p.defaultApplied = !reqLimit && !q.limit;
      p.bucket = { items, perPage, offset, offsetInEffect: !!posInt(opts.offset) || !!page || q.offset !== undefined || posInt(opts.buckets) !== undefined };
    } else {
      const limit = reqLimit ?? q.limit?.n ?? defaultLimit;
      const offset = page ? (page - 1) * limit : (q.offset?.n ?? 0);
      if (limit > MAX_LIMIT) throw new MrqlError('limit', `MRQL limit ${limit} exceeds maximum ${MAX_LIMIT}`);
      if (offset > MAX_OFFSET) throw new MrqlError('limit', `MRQL offset ${offset} exceeds maximum ${MAX_OFFSET}`);
      p.limit = limit;
      p.offset = offset;
      p.defaultApplied = !reqLimit && !q.limit;
    }
    p.scope = await this.resolveScope(q, opts, stats);
    if (this.kind === 'sqlite' && hasRegex(q.where)) {
      const at = firstRegex(q.where)!;
      throw new MrqlError('translate', 'regex match (~*) requires PostgreSQL', at, 0);
    }
    const rank = q.orderBy?.find((o) => o.field && o.field.parts.length === 1 && o.field.text.toUpperCase() === 'RANK');
    if (rank && !this.fts) throw new MrqlError('translate', 'ORDER BY RANK requires the full-text index (server started with FTS disabled)', rank.pos, 0);
    return p;
  }

  async resolveScope(q: Query, opts: RunOptions, stats: Stats): Promise<ScopeSpec> {
    const pr = opts.principal;
    if (pr && !pr.superUser && pr.scopeGroupId !== null) return { kind: 'forced', id: pr.scopeGroupId };
    const s = q.scope;
    if (!s) {
      if (opts.contextScope === undefined) return { kind: 'none' };
      return opts.contextScope === null ? { kind: 'nothing' } : { kind: 'context', id: opts.contextScope };
    }
    if (s.num !== undefined) {
      if (!Number.isInteger(s.num)) throw new MrqlError('scope', `SCOPE requires an integer group ID, got ${s.raw}`, s.pos, s.len);
      if (s.num === 0) return { kind: 'none' };
      const b = new Binds(this.kind);
      const rows = await this.run(finish('scope', `${SUBTREE_SIZE(b.p(s.num), 'id = ')}`, b), stats);
      if (Number(rows[0]?.n ?? 0) === 0) throw new MrqlError('scope', `scope group not found: id ${s.num}`, s.pos, s.len, 404);
      return { kind: 'explicit', id: s.num, large: isLarge(rows[0]) };
    }
    const b = new Binds(this.kind);
    const name = s.name!.toLowerCase();
    const rows = await this.run(
      finish(
        'scope',
        `WITH RECURSIVE st(id, depth) AS (SELECT id, 0 FROM groups WHERE lower(name) = ${b.t(name)} UNION SELECT g.id, st.depth + 1 FROM groups g JOIN st ON g.owner_id = st.id WHERE st.depth < 50) ` +
          `SELECT m.id, m.category_id, m.owner_id, (SELECT COUNT(*) FROM st) AS n, (SELECT COUNT(*) FROM groups) AS total FROM groups m WHERE lower(m.name) = ${b.t(name)} ORDER BY m.id`,
        b,
      ),
      stats,
    );
    if (rows.length === 0) throw new MrqlError('scope', `scope group not found: "${s.name}"`, s.pos, s.len, 404);
    if (rows.length > 1) {
      const lines = rows.map((r) => {
        let line = `  - id=${r.id}`;
        if (r.category_id !== null) line += `, categoryId=${r.category_id}`;
        if (r.owner_id !== null) line += `, parentId=${r.owner_id}`;
        return line;
      });
      throw new MrqlError('scope', `ambiguous scope "${s.name}": found ${rows.length} groups:\n${lines.join('\n')}\nUse SCOPE <id> to specify which group.`, s.pos, s.len);
    }
    return { kind: 'explicit', id: Number(rows[0].id), large: isLarge(rows[0]) };
  }

  // ------------------------------------------------------------ execution

  /** Statements run since start (benchmarks read the difference around an HTTP call). */
  statementsRun = 0;

  async run(st: Statement, stats: Stats): Promise<Row[]> {
    stats.statements++;
    this.statementsRun++;
    let rows: Row[];
    try {
      if (this.kind === 'postgres') {
        const ms = Math.max(1, Math.floor(this.settings.timeoutMs));
        rows = await this.db.transaction().execute(async (trx) => {
          await sql.raw(`SET LOCAL statement_timeout = ${ms}`).execute(trx);
          return (await trx.executeQuery(CompiledQuery.raw(st.sql, st.params))).rows as Row[];
        });
      } else {
        rows = (await this.db.executeQuery(CompiledQuery.raw(st.sql, st.params))).rows as Row[];
      }
    } catch (e) {
      const err = e as { code?: string; message?: string };
      if (err.code === '57014') throw new MrqlError('execution', `MRQL query timed out after ${this.settings.timeoutMs} ms`);
      throw new MrqlError('execution', String(err.message ?? e));
    }
    stats.rows += rows.length;
    return rows;
  }

  async execute(text: string, opts: RunOptions = {}, stats: Stats = { statements: 0, rows: 0 }): Promise<MrqlResult> {
    const p = await this.prepare(text, opts, stats);
    return this.executePrepared(p, stats);
  }

  async executePrepared(p: Prepared, stats: Stats): Promise<MrqlResult> {
    await this.resolveTags(p, stats);
    const env = this.env(this.clock(), p);
    if (p.checked.mode === 'aggregated') return this.aggregated(p, env, stats);
    if (p.checked.mode === 'bucketed') return this.bucketed(p, env, stats);
    if (p.entity === 'unspecified') return this.crossEntity(p, env, stats);
    const rows = p.scope.kind === 'nothing' || p.limit === 0 ? [] : await this.run(this.flatStatement(p, p.entity, env, p.limit, p.offset, p.entity), stats);
    return this.flatShape(p, { [p.entity]: rows.map((r) => entityObject(p.entity as Entity, r)) });
  }

  flatShape(p: Prepared, lists: Partial<Record<Entity, EntityObject[]>>, warnings: string[] = []): FlatResult {
    const resources = lists.resource ?? [];
    const notes = lists.note ?? [];
    const groups = lists.group ?? [];
    return {
      entityType: p.entity === 'unspecified' ? 'all' : p.entity,
      resources,
      notes,
      groups,
      counts: { resources: resources.length, notes: notes.length, groups: groups.length },
      warnings,
      default_limit_applied: p.defaultApplied,
      applied_limit: p.limit,
    };
  }

  // ------------------------------------------------------------ statement builders

  newTx(entity: Entity, env: Env): Tx {
    return { b: new Binds(this.kind), env, entity };
  }

  /** The scope CTE and condition for an entity, or nothing. */
  scopeParts(tx: Tx, scope: ScopeSpec, entity: Entity): { cte: string; cond: string | null } {
    if (scope.kind === 'none') return { cte: '', cond: null };
    if (scope.kind === 'nothing') return { cte: '', cond: '1 = 0' };
    const cte = `WITH RECURSIVE scope_tree(id, depth) AS (SELECT id, 0 FROM groups WHERE id = ${tx.b.p(scope.id)} UNION SELECT g.id, s.depth + 1 FROM groups g JOIN scope_tree s ON g.owner_id = s.id WHERE s.depth < 50) `;
    const col = entity === 'group' ? 'e.id' : 'e.owner_id';
    // Large subtrees: walk the ORDER BY index and probe membership (SQLite: unary + keeps the
    // planner off the owner index). Small or unknown subtrees: collect their rows through the
    // owner index (PostgreSQL: an array lets it use the index instead of a semi-join walk).
    if (this.kind === 'sqlite') return { cte, cond: `${scope.large ? '+' : ''}${col} IN (SELECT id FROM scope_tree)` };
    return { cte, cond: scope.large ? `${col} IN (SELECT id FROM scope_tree)` : `${col} = ANY (ARRAY(SELECT id FROM scope_tree))` };
  }

  /** ORDER BY terms of a flat (or bucket-item) statement and the joins they need. */
  orderParts(tx: Tx, p: Prepared, entity: Entity, items: OrderItem[] | undefined): { joins: string[]; terms: string[] } {
    const joins: string[] = [];
    const terms: string[] = [];
    const pg = this.kind === 'postgres';
    for (const it of items ?? []) {
      const d = it.desc ? ' DESC' : '';
      const nulls = pg ? (it.desc ? ' NULLS LAST' : ' NULLS FIRST') : '';
      if (it.random) {
        terms.push('random()');
        continue;
      }
      const f = it.field!;
      if (f.parts.length === 1 && f.text.toUpperCase() === 'RANK') {
        const node = findAll(p.q.where, 'text')[0];
        if (!node || ftsWords(node.term).length === 0) continue;
        const table = TABLE[entity];
        if (pg) {
          const q1 = tx.b.t(node.term);
          const q2 = tx.b.t(node.term);
          terms.push(`(CASE WHEN e.search_vector @@ plainto_tsquery('english', ${q1}) THEN -ts_rank(e.search_vector, plainto_tsquery('english', ${q2})) ELSE 1e9 END)${d}`);
        } else {
          const inner = conjuncts(p.q.where).includes(node);
          if (inner) tx.joinedText = node;
          joins.push(`${inner ? 'JOIN' : 'LEFT JOIN'} (SELECT rowid AS fid, bm25(${table}_fts) AS score FROM ${table}_fts WHERE ${table}_fts MATCH ${tx.b.p(ftsMatch(node.term))}) f ON f.fid = e.id`);
          terms.push(`${inner ? 'f.score' : 'COALESCE(f.score, 1e9)'}${d}`);
        }
        continue;
      }
      if (f.text === 'distance') {
        const node = findAll(p.q.where, 'similar')[0];
        joins.push(`LEFT JOIN (SELECT other_id, MIN(distance) AS distance FROM (${similarSet(tx, node.id, node.within, true)}) x GROUP BY other_id) sd ON sd.other_id = e.id`);
        terms.push(`COALESCE(sd.distance, 255)${d}`);
        continue;
      }
      const r = resolveField(entity, f);
      if (r.kind === 'scalar') {
        const col = `e.${r.scalar.col}`;
        terms.push(`${r.scalar.kind === 'string' ? folded(tx, col) : col}${d}${r.scalar.nullable ? nulls : ''}`);
      } else if (r.kind === 'shared') terms.push(`(CASE WHEN e.share_token IS NOT NULL THEN 1 ELSE 0 END)${d}`);
      else if (r.kind === 'meta') {
        const m = metaPath(tx, 'e', r.path);
        terms.push(...metaSortTerms(tx, m.kind, m.num, m.text, it.desc));
      } else if (r.kind === 'count') terms.push(`${countExpr(tx, 'e', r.of)}${d}`);
    }
    return { joins, terms };
  }

  flatStatement(p: Prepared, entity: Entity, env: Env, limit: number, offset: number, label: string, cols?: string): Statement {
    const tx = this.newTx(entity, env);
    const scope = this.scopeParts(tx, p.scope, entity);
    const { cte } = scope;
    const cond = scope.cond;
    // A top-level SIMILAR TO drives the statement from the pair index (§22.11): the pairs are
    // streamed and joined to their resources, so LIMIT stops early even when the target has
    // tens of thousands of pairs. Without ORDER BY the pair order is the result order.
    const driving = entity === 'resource' ? conjuncts(p.q.where).find((c) => c.k === 'similar') : undefined;
    let from = `${TABLE[entity]} e`;
    if (driving && driving.k === 'similar') {
      from = `(${similarSet(tx, driving.id, driving.within, false)}) sim JOIN resources e ON e.id = sim.other_id`;
      tx.joinedSimilar = driving;
    }
    const smallScopePg = this.kind === 'postgres' && 'id' in p.scope && !p.scope.large;
    const order = this.orderParts(tx, p, entity, p.q.orderBy);
    if (smallScopePg && !driving && order.joins.length === 0) {
      // PostgreSQL, small subtree: the top rows of each subtree group through the owner index
      // (a LATERAL per group), merged; its planner would otherwise scan the table hoping LIMIT
      // stops early.
      const whereText = [p.q.where ? translateExpr(tx, p.q.where) : null].filter(Boolean);
      const col = entity === 'group' ? 'id' : 'owner_id';
      const orderText = order.terms.length ? ` ORDER BY ${order.terms.join(', ')}` : '';
      const inner = `SELECT ${selectList(entity)} FROM ${TABLE[entity]} e WHERE e.${col} = st.id${whereText.length ? ` AND ${whereText.join(' AND ')}` : ''}${orderText} LIMIT ${tx.b.p(limit + offset)}`;
      const text = `${cte}SELECT ${cols ?? 'e.*'} FROM (SELECT DISTINCT id FROM scope_tree) st CROSS JOIN LATERAL (${inner}) e${orderText} LIMIT ${tx.b.p(limit)}${offset ? ` OFFSET ${tx.b.p(offset)}` : ''}`;
      return finish(label, text, tx.b);
    }
    const where = [p.q.where ? translateExpr(tx, p.q.where) : null, cond].filter(Boolean);
    // Default order: ascending id where it costs nothing. Not when the pair index drives the
    // statement, nor on PostgreSQL under a small scope (it would walk the primary key instead of
    // collecting the subtree's rows through the owner index).
    const terms = order.terms.length ? order.terms : driving || smallScopePg ? [] : ['e.id'];
    const text =
      `${cte}SELECT ${cols ?? selectList(entity)} FROM ${from}${order.joins.map((j) => ` ${j}`).join('')}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''}${terms.length ? ` ORDER BY ${terms.join(', ')}` : ''} LIMIT ${tx.b.p(limit)}${offset ? ` OFFSET ${tx.b.p(offset)}` : ''}`;
    return finish(label, text, tx.b);
  }

  // ------------------------------------------------------------ cross-entity

  crossStatements(p: Prepared, env: Env): Statement[] {
    const w = p.offset + p.limit;
    const randomFirst = p.q.orderBy?.[0]?.random;
    return ENTITIES.map((entity) => {
      if (!randomFirst) return this.flatStatement(p, entity, env, w, 0, TABLE[entity]);
      const tx = this.newTx(entity, env);
      const { cte, cond } = this.scopeParts(tx, p.scope, entity);
      const where = [p.q.where ? translateExpr(tx, p.q.where) : null, cond].filter(Boolean);
      // The sample and the population in one statement: two narrow passes (the predicate can
      // be answered from covering indexes) instead of a window that materialises every match.
      const whereText = where.length ? ` WHERE ${where.join(' AND ')}` : '';
      const sample = `SELECT e.id FROM ${TABLE[entity]} e${whereText} ORDER BY random() LIMIT ${tx.b.p(w)}`;
      const tx2 = tx;
      const where2 = [p.q.where ? translateExpr(tx2, p.q.where) : null, cond].filter(Boolean);
      const population = `SELECT COUNT(*) AS population FROM ${TABLE[entity]} e${where2.length ? ` WHERE ${where2.join(' AND ')}` : ''}`;
      return finish(TABLE[entity], `${cte}SELECT s.id, c.population FROM (${sample}) s CROSS JOIN (${population}) c`, tx.b);
    });
  }

  async crossEntity(p: Prepared, env: Env, stats: Stats): Promise<FlatResult> {
    const w = p.offset + p.limit;
    if (p.scope.kind === 'nothing' || w === 0) return this.flatShape(p, {});
    const statements = this.crossStatements(p, env);
    const warnings: string[] = [];
    const perType: Row[][] = [];
    for (const [i, st] of statements.entries()) {
      try {
        perType.push(await this.run(st, stats));
      } catch (e) {
        if (e instanceof MrqlError && e.bare.includes('timed out')) {
          warnings.push(`${ENTITIES[i]} query failed: ${e.bare}`);
          perType.push([]);
        } else throw e;
      }
    }
    type Tagged = { entity: Entity; row: Row; i: number };
    let merged: Tagged[];
    if (p.q.orderBy?.[0]?.random) {
      // Uniform sample without replacement from the union: draw types weighted by what remains.
      const pools = perType.map((rows) => ({ rows, left: rows.length ? Number(rows[0].population) : 0, next: 0 }));
      merged = [];
      while (merged.length < w) {
        const total = pools.reduce((s, x) => s + (x.next < x.rows.length ? x.left : 0), 0);
        if (total <= 0) break;
        let pick = Math.random() * total;
        let t = 0;
        for (; t < 3; t++) {
          const x = pools[t];
          if (x.next >= x.rows.length) continue;
          if (pick < x.left) break;
          pick -= x.left;
        }
        if (t === 3) t = pools.findIndex((x) => x.next < x.rows.length);
        const x = pools[t];
        merged.push({ entity: ENTITIES[t], row: x.rows[x.next++], i: merged.length });
        x.left--;
      }
      merged = merged.slice(p.offset);
      // Hydrate the chosen ids (one statement per type that has any).
      for (const [t, entity] of ENTITIES.entries()) {
        const ids = merged.filter((m) => m.entity === entity).map((m) => Number(m.row.id));
        if (!ids.length) continue;
        const b = new Binds(this.kind);
        const rows = await this.run(finish(TABLE[entity], `SELECT ${selectList(entity)} FROM ${TABLE[entity]} e WHERE e.id IN (${ids.map((id) => b.p(id)).join(', ')})`, b), stats);
        const byId = new Map(rows.map((r) => [Number(r.id), r]));
        for (const m of merged) if (m.entity === entity) m.row = byId.get(Number(m.row.id)) ?? m.row;
        void t;
      }
    } else {
      merged = perType.flatMap((rows, t) => rows.map((row, i) => ({ entity: ENTITIES[t], row, i })));
      const keys = (p.q.orderBy ?? []).filter((o) => o.field && ['name', 'created', 'updated'].includes(o.field.text));
      if (keys.length) {
        const typeRank = (e: Entity) => ENTITIES.indexOf(e);
        merged.sort((a, b) => {
          for (const k of keys) {
            const f = k.field!.text;
            let c: number;
            if (f === 'name') {
              const x = String(a.row.name).toLowerCase();
              const y = String(b.row.name).toLowerCase();
              c = x < y ? -1 : x > y ? 1 : 0;
            } else {
              const col = f === 'created' ? 'created_at' : 'updated_at';
              c = new Date(String(a.row[col])).getTime() - new Date(String(b.row[col])).getTime();
            }
            if (c !== 0) return k.desc ? -c : c;
          }
          return typeRank(a.entity) - typeRank(b.entity) || a.i - b.i;
        });
      }
      merged = merged.slice(p.offset, p.offset + p.limit);
    }
    const lists: Record<Entity, EntityObject[]> = { resource: [], note: [], group: [] };
    for (const m of merged) lists[m.entity].push(entityObject(m.entity, m.row));
    return this.flatShape(p, lists, warnings);
  }

  // ------------------------------------------------------------ aggregated

  aggregatedStatement(p: Prepared, env: Env): { st: Statement; keys: KeySpec[]; aggs: { output: string; alias: string; name: string; kind: string }[] } {
    const entity = p.entity as Entity;
    const tx = this.newTx(entity, env);
    const g = p.q.groupBy!;
    const { cte, cond } = this.scopeParts(tx, p.scope, entity);
    const keys = keySpecs(tx, entity, g.fields);
    const select: string[] = [];
    keys.forEach((k, i) => k.exprs.forEach((x, j) => select.push(`${x} AS k${i}_${j}`)));
    const aggs: { output: string; alias: string; name: string; kind: string }[] = [];
    for (const a of g.aggs) {
      const output = aggOutput(a);
      if (aggs.some((x) => x.output === output)) continue;
      const { expr, kind } = aggExpr(tx, entity, a);
      const alias = `a${aggs.length}`;
      aggs.push({ output, alias, name: a.name, kind });
      select.push(`${expr} AS ${alias}`);
    }
    const where = [p.q.where ? translateExpr(tx, p.q.where) : null, cond].filter(Boolean);
    const groupCount = keys.reduce((s, k) => s + k.exprs.length, 0);
    const having = g.having ? ` HAVING ${this.havingSql(tx, entity, g.having)}` : '';
    const inner =
      `SELECT ${select.join(', ')} FROM ${TABLE[entity]} e${keys.flatMap((k) => k.joins).map((j) => ` ${j}`).join('')}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} GROUP BY ${Array.from({ length: groupCount }, (_, i) => i + 1).join(', ')}${having}`;
    const terms: string[] = [];
    for (const it of p.q.orderBy ?? []) {
      const f = it.field!;
      const ki = keys.findIndex((k) => k.names.some((n) => sameKey(n, f.text)));
      if (ki >= 0) {
        terms.push(...keys[ki].shownSort(keys[ki].exprs.map((_, j) => `sub.k${ki}_${j}`), it.desc));
        continue;
      }
      const a = aggs.find((x) => x.output === f.text);
      if (a) terms.push(`sub.${a.alias}${it.desc ? ' DESC' : ''}${this.kind === 'postgres' ? (it.desc ? ' NULLS LAST' : ' NULLS FIRST') : ''}`);
    }
    const text = `${cte}SELECT * FROM (${inner}) sub${terms.length ? ` ORDER BY ${terms.join(', ')}` : ''} LIMIT ${tx.b.p(p.limit)}${p.offset ? ` OFFSET ${tx.b.p(p.offset)}` : ''}`;
    return { st: finish(entity, text, tx.b), keys, aggs };
  }

  havingSql(tx: Tx, entity: Entity, h: HavingExpr): string {
    if (h.k === 'and' || h.k === 'or') return `(${this.havingSql(tx, entity, h.left)} ${h.k.toUpperCase()} ${this.havingSql(tx, entity, h.right)})`;
    if (h.k === 'not') return `NOT (${this.havingSql(tx, entity, h.e)})`;
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

  async aggregated(p: Prepared, env: Env, stats: Stats): Promise<AggregatedResult> {
    const { st, keys, aggs } = this.aggregatedStatement(p, env);
    const rows = p.scope.kind === 'nothing' || p.limit === 0 ? [] : await this.run(st, stats);
    const columns = [...keys.map((k) => k.name), ...aggs.map((a) => a.output)];
    return {
      entityType: p.entity,
      mode: 'aggregated',
      columns,
      rows: rows.map((r) => {
        const out: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          const shown = k.shape(k.exprs.map((_, j) => r[`k${i}_${j}`]));
          out[k.name] = shown[k.name];
        });
        for (const a of aggs) out[a.output] = a.name === 'COUNT' ? Number(r[a.alias]) : shapeAgg(a.name, a.kind, r[a.alias]);
        return out;
      }),
      buckets: [],
      warnings: [],
      default_limit_applied: p.defaultApplied,
      applied_limit: p.limit,
    };
  }

  // ------------------------------------------------------------ bucketed

  bucketKeysStatement(p: Prepared, env: Env): { st: Statement; keys: KeySpec[] } {
    const entity = p.entity as Entity;
    const tx = this.newTx(entity, env);
    const { cte, cond } = this.scopeParts(tx, p.scope, entity);
    const keys = keySpecs(tx, entity, p.q.groupBy!.fields);
    const select: string[] = [];
    keys.forEach((k, i) => k.exprs.forEach((x, j) => select.push(`${x} AS k${i}_${j}`)));
    const where = [p.q.where ? translateExpr(tx, p.q.where) : null, cond].filter(Boolean);
    // DISTINCT (not GROUP BY): SQLite answers it with a skip-ahead walk of the key's index.
    const inner =
      `SELECT DISTINCT ${select.join(', ')} FROM ${TABLE[entity]} e${keys.flatMap((k) => k.joins).map((j) => ` ${j}`).join('')}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const sorts = keys.flatMap((k, i) => k.identitySort(k.exprs.map((_, j) => `sub.k${i}_${j}`)));
    return { st: finish('bucket keys', `${cte}SELECT * FROM (${inner}) sub ORDER BY ${sorts.join(', ')} LIMIT ${tx.b.p(MAX_KEYS + 1)}`, tx.b), keys };
  }

  async bucketed(p: Prepared, env: Env, stats: Stats): Promise<BucketedResult> {
    const entity = p.entity as Entity;
    const bk = p.bucket!;
    const { st, keys } = this.bucketKeysStatement(p, env);
    const found = p.scope.kind === 'nothing' ? [] : await this.run(st, stats);
    const warnings: string[] = [];
    const discovered = found.slice(0, MAX_KEYS);
    if (found.length > MAX_KEYS && !bk.offsetInEffect) warnings.push('Only the first 1000 groups are shown. Add filters to narrow the result set.');
    const requested = discovered.slice(bk.offset, bk.perPage === null ? undefined : bk.offset + bk.perPage);
    let page = requested;
    if (page.length > MAX_BUCKETS_PER_PAGE) {
      page = page.slice(0, MAX_BUCKETS_PER_PAGE);
      warnings.push('This page is limited to 200 bucket queries; continue at the next offset for remaining groups.');
    }
    const buckets: Bucket[] = [];
    let total = 0;
    let stopped = false;
    const chunk = Math.max(1, Math.min(MAX_BUCKETS_PER_PAGE, Math.floor(MAX_ITEMS / Math.max(1, bk.items))));
    for (let start = 0; start < page.length && !stopped && bk.items > 0; start += chunk) {
      const part = page.slice(start, start + chunk);
      const rows = await this.run(this.bucketItemsStatement(p, env, keys, part, start), stats);
      const byBucket = new Map<number, Row[]>();
      for (const r of rows) {
        const b = Number(r.mrql_bucket);
        if (!byBucket.has(b)) byBucket.set(b, []);
        byBucket.get(b)!.push(r);
      }
      for (let i = 0; i < part.length; i++) {
        const items = byBucket.get(start + i) ?? [];
        if (total + items.length > MAX_ITEMS) {
          stopped = true;
          break;
        }
        total += items.length;
        buckets.push({ key: this.bucketKey(keys, part[i]), items: items.map((r) => entityObject(entity, r)) });
        if (total >= MAX_ITEMS) {
          stopped = buckets.length < page.length;
          break;
        }
      }
    }
    if (bk.items === 0) for (const k of page) buckets.push({ key: this.bucketKey(keys, k), items: [] });
    if (stopped) {
      const omitted = requested.length - buckets.length;
      warnings.push(`Results truncated at ${MAX_ITEMS} items (${buckets.length} of ${requested.length} groups shown, ${omitted} groups omitted). Narrow your query or add a filter.`);
    }
    const next = bk.offset + buckets.length;
    return {
      entityType: entity,
      mode: 'bucketed',
      keyColumns: keys.map((k) => k.name),
      buckets,
      groups: buckets,
      rows: [],
      totalGroups: discovered.length,
      ...(next < discovered.length ? { nextOffset: next } : {}),
      warnings,
      default_limit_applied: p.defaultApplied,
      applied_limit: bk.items,
    };
  }

  bucketKey(keys: KeySpec[], row: Row): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => Object.assign(out, k.shape(k.exprs.map((_, j) => row[`k${i}_${j}`]))));
    return out;
  }

  bucketItemsStatement(p: Prepared, env: Env, keys: KeySpec[], part: Row[], base: number): Statement {
    const entity = p.entity as Entity;
    const tx = this.newTx(entity, env);
    const { cte, cond } = this.scopeParts(tx, p.scope, entity);
    const specs = keySpecs(tx, entity, p.q.groupBy!.fields);
    const order = this.orderParts(tx, p, entity, p.q.orderBy?.filter((o) => !(o.field && resolveBucketField(entity, o.field.text))));
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
    void keys;
    return finish(`${entity} bucket items`, `${cte}${branches.join(' UNION ALL ')}`, tx.b);
  }

  /** The number of rows a flat query matches, ignoring LIMIT/OFFSET ({total} in shortcodes). */
  async countTotal(text: string, opts: RunOptions, stats: Stats = { statements: 0, rows: 0 }): Promise<number> {
    const p = await this.prepare(text, opts, stats);
    if (p.scope.kind === 'nothing') return 0;
    await this.resolveTags(p, stats);
    const env = this.env(this.clock(), p);
    const types = p.entity === 'unspecified' ? ENTITIES : [p.entity];
    let total = 0;
    for (const entity of types) {
      const tx = this.newTx(entity, env);
      const { cte, cond } = this.scopeParts(tx, p.scope, entity);
      const where = [p.q.where ? translateExpr(tx, p.q.where) : null, cond].filter(Boolean);
      const rows = await this.run(finish(entity, `${cte}SELECT COUNT(*) AS n FROM ${TABLE[entity]} e${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`, tx.b), stats);
      total += Number(rows[0]?.n ?? 0);
    }
    return total;
  }

  // ------------------------------------------------------------ explain

  async explain(text: string, opts: RunOptions, nativePlan: boolean): Promise<Record<string, unknown>> {
    const stats = { statements: 0, rows: 0 };
    const p = await this.prepare(text, opts, stats);
    await this.resolveTags(p, stats);
    const env = this.env(this.clock(), p);
    let strategy: string;
    let statements: Statement[];
    const shape = { plannedStatements: 0, minimumStatements: 0, maximumStatements: 0, dataDependent: false } as Record<string, unknown>;
    const warnings: string[] = [];
    if (p.checked.mode === 'aggregated') {
      strategy = 'aggregate';
      statements = [this.aggregatedStatement(p, env).st];
    } else if (p.checked.mode === 'bucketed') {
      strategy = 'bucket_fanout';
      statements = [this.bucketKeysStatement(p, env).st];
      shape.dataDependent = true;
      shape.description = 'one key-discovery statement, then the items of each page of buckets in one statement per 10,000-item chunk';
      warnings.push('Bucketed GROUP BY runs one key-discovery query, then fetches the items of a page of buckets in a single windowed query; only the key-discovery query is shown here.');
    } else if (p.entity === 'unspecified') {
      strategy = 'cross_entity';
      statements = this.crossStatements(p, env);
      if (p.q.orderBy?.[0]?.random) shape.dataDependent = true;
    } else {
      strategy = 'flat';
      statements = [this.flatStatement(p, p.entity, env, p.limit, p.offset, p.entity)];
    }
    shape.plannedStatements = statements.length;
    shape.minimumStatements = statements.length;
    shape.maximumStatements = strategy === 'bucket_fanout' ? 1 + MAX_BUCKETS_PER_PAGE : strategy === 'cross_entity' && shape.dataDependent ? 6 : statements.length;
    const out: Record<string, unknown> = {
      entityType: p.entity,
      queryFingerprint: `mrql-shape-v1:${this.fingerprint(p, strategy)}`,
      strategy,
      executionShape: { strategy, ...shape },
      statements: statements.map((s) => ({ label: s.label, sql: s.sql, vars: s.params, interpolated: interpolate(s) })),
      warnings,
      default_limit_applied: p.defaultApplied,
      applied_limit: p.limit,
    };
    if (nativePlan) out.nativePlan = await this.nativePlan(statements);
    return out;
  }

  async nativePlan(statements: Statement[]): Promise<unknown> {
    try {
      if (this.kind === 'sqlite') {
        const plan: unknown[] = [];
        for (const s of statements) {
          const r = await this.db.executeQuery(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${s.sql}`, s.params));
          plan.push(...r.rows);
        }
        return { dialect: 'sqlite', format: 'query-plan', plan };
      }
      const plans: unknown[] = [];
      for (const s of statements) {
        const r = await this.db.executeQuery(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.params));
        const v = Object.values(r.rows[0] as object)[0];
        plans.push(typeof v === 'string' ? JSON.parse(v) : v);
      }
      return { dialect: 'postgres', format: 'json', plan: plans.length === 1 ? plans[0] : plans };
    } catch (e) {
      throw new MrqlError('execution', `native query plan failed: ${(e as Error).message}`, 0, 0, 500);
    }
  }

  /** SHA-256 over the query's shape: literal values, TEXT terms and scope ids are left out. */
  fingerprint(p: Prepared, strategy: string): string {
    const strip = (_k: string, v: unknown) => {
      if (v && typeof v === 'object' && 'k' in (v as object)) {
        const x = v as Record<string, unknown>;
        if (x.k === 'string') return { k: 'string' };
        if (x.k === 'number') return { k: 'number', unit: x.unit };
        if (x.k === 'bool') return { k: 'bool' };
        if (x.k === 'reldate') return { k: 'reldate', unit: x.unit };
        if (x.k === 'text') return { k: 'text', empty: ftsWords(String(x.term)).length === 0 };
        if (x.k === 'similar') return { k: 'similar', within: x.within !== undefined };
      }
      if (_k === 'pos' || _k === 'len' || _k === 'opPos' || _k === 'opLen' || _k === 'partPos') return undefined;
      return v;
    };
    const shape = JSON.stringify({
      where: p.q.where,
      group: p.q.groupBy,
      order: p.q.orderBy,
      limit: p.limit,
      offset: p.offset,
      bucket: p.bucket,
      scope: p.scope.kind,
      entity: p.entity,
      strategy,
      dialect: this.kind,
      fts: this.fts,
      sim: [this.settings.similarityThreshold, this.settings.ahashThreshold],
    }, strip);
    return createHash('sha256').update(shape).digest('hex');
  }
}

/** One statement: the subtree size of a group (0 = no such group) and the number of groups. */
function SUBTREE_SIZE(seed: string, how: string): string {
  return (
    `WITH RECURSIVE st(id, depth) AS (SELECT id, 0 FROM groups WHERE ${how}${seed} UNION SELECT g.id, st.depth + 1 FROM groups g JOIN st ON g.owner_id = st.id WHERE st.depth < 50) ` +
    `SELECT (SELECT COUNT(*) FROM st) AS n, (SELECT COUNT(*) FROM groups) AS total`
  );
}

/** A subtree with at least a tenth of all groups counts as large. */
function isLarge(row: Row | undefined): boolean {
  return Number(row?.n ?? 0) * 10 >= Number(row?.total ?? 1);
}

function resolveBucketField(entity: Entity, text: string): boolean {
  return /\.(day|week|month|year)$/.test(text) && entity !== undefined;
}

function firstRegex(e: Expr | undefined): number | null {
  if (!e) return null;
  if (e.k === 'and' || e.k === 'or') return firstRegex(e.left) ?? firstRegex(e.right);
  if (e.k === 'not') return firstRegex(e.e);
  if (e.k === 'pred' && (e.op === '~*' || e.op === '!~*')) return e.opPos;
  return null;
}
