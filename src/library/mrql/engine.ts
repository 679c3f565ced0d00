// The MRQL engine: parse → bind → validate → limits → scope → dialect gate → translate →
// execute → shape (mrql.md §1). One instance per library; every entry point (HTTP, list filters,
// shortcodes, benchmarks) runs queries through it. Statements come from statements.ts and run
// through the repository.
import { createHash, randomInt } from 'node:crypto';
import { profileOrder, type Dialect } from '../../core/db/dialect/index.js';
import { interpolate, type Statement } from '../../core/db/sql-text.js';
import { isScoped } from '../auth/principal.js';
import type { Expr, Query } from './ast.js';
import { COLUMNS, entityObject, LINK_COLUMNS, linkObject, type EntityObject, type Row } from './entities.js';
import { MrqlError } from './errors.js';
import { ENTITIES, type Entity } from './fields.js';
import { shapeAgg, type KeySpec } from './keys.js';
import { bindParams } from './params.js';
import { parseQuery } from './parser.js';
import type { MrqlRepository } from './repository.js';
import * as statements from './statements.js';
import { findAll, ftsWords, hasRegex, type Env } from './translate.js';
import {
  MAX_BUCKETS_PER_PAGE,
  MAX_ITEMS,
  MAX_KEYS,
  MAX_LIMIT,
  MAX_OFFSET,
  type AggregatedResult,
  type Bucket,
  type BucketedResult,
  type FlatResult,
  type MrqlResult,
  type Prepared,
  type RunOptions,
  type ScopeSpec,
  type Stats,
} from './types.js';
import { validateQuery } from './validate.js';
import { SERVER_ZONE } from './values.js';

export { MAX_LIMIT, MAX_OFFSET };
export type { AggregatedResult, Bucket, BucketedResult, FlatResult, MrqlResult, Prepared, RunOptions, ScopeSpec, Stats };

export interface MrqlSettings {
  defaultLimit: number;
  timeoutMs: number;
  similarityThreshold: number;
  ahashThreshold: number;
  pageQueryBudget: number;
}

/** Samples larger than this are drawn from a full pass (the drawn ids are bound values). */
const DRAWN_SAMPLE_MAX = 1000;
/** At most this many probe statements, of at most this many ids each, before a full pass. */
const DRAWN_SAMPLE_ROUNDS = 3;
const DRAWN_SAMPLE_PROBES = 4000;

const posInt = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);

export class MrqlEngine {
  constructor(
    private readonly repo: MrqlRepository,
    readonly dialect: Dialect,
    readonly fts: boolean,
    readonly settings: MrqlSettings,
    /** The current time of relative dates (tests freeze it). */
    public clock: () => Date = () => new Date(),
    readonly zone: string = SERVER_ZONE,
  ) {}

  env(now: Date, p?: Prepared): Env {
    return {
      dialect: this.dialect,
      zone: this.zone,
      now,
      fts: this.fts,
      similarityThreshold: this.settings.similarityThreshold,
      ahashThreshold: this.settings.ahashThreshold,
      tagIds: p?.tagIds,
    };
  }

  /** Resolves the tag names the WHERE compares with `=` to ids in one lookup, where the planner wants literal ids. */
  async resolveTags(p: Prepared, stats: Stats): Promise<void> {
    if (!this.dialect.planner.tagIdsAsLiterals || p.entity === 'unspecified') return;
    const names = new Set<string>();
    for (const pred of findAll(p.q.where, 'pred')) {
      if (pred.field.text !== 'tags' || (pred.op !== '=' && pred.op !== '!=')) continue;
      const v = pred.value!;
      if (v.k === 'string' || v.k === 'bool') names.add(String(v.k === 'string' ? v.v : v.v).toLowerCase());
    }
    if (names.size === 0) return;
    const rows = await this.run(statements.tagLookup(this.dialect, [...names]), stats);
    p.tagIds = new Map([...names].map((n) => [n, rows.filter((r) => r.n === n).map((r) => Number(r.id))]));
  }

  // ------------------------------------------------------------ preparation

  /** Parse, bind, validate, compute limits and resolve scope (stages 1–8). */
  async prepare(text: string, opts: RunOptions, stats: Stats, memo?: PrepareMemo): Promise<Prepared> {
    let base: Unscoped;
    const key = memo && requestKey(text, opts);
    const hit = key === undefined ? undefined : memo!.get(key);
    if (hit) base = hit;
    else {
      try {
        base = this.prepareText(text, opts);
      } catch (e) {
        base = { error: e };
      }
      if (key !== undefined) memo!.set(key, base);
    }
    if ('error' in base) throw base.error;
    // The scope is the only part that differs between requests of the same text and options.
    const p: Prepared = { ...base.p, scope: await this.resolveScope(base.p.q, opts, stats) };
    if (base.late) throw base.late;
    return p;
  }

  /**
   * Stages 1–6 and the checks that read only the text: everything `prepare` does but resolving
   * the scope. Errors of the later checks are returned, since a scope error is reported first.
   */
  private prepareText(text: string, opts: RunOptions): { p: Omit<Prepared, 'scope'>; late?: MrqlError } {
    let q = parseQuery(text);
    q = bindParams(q, opts.params ?? {});
    const checked = validateQuery(q);
    const entity = checked.entity;
    const defaultLimit = Math.min(this.settings.defaultLimit, MAX_LIMIT);
    const reqLimit = posInt(opts.limit);
    const page = posInt(opts.page);
    const p: Omit<Prepared, 'scope'> = { q, checked, entity, limit: 0, offset: 0, defaultApplied: false };
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
    if (!this.dialect.regex && hasRegex(q.where)) {
      const at = firstRegex(q.where)!;
      return { p, late: new MrqlError('translate', 'regex match (~*) requires PostgreSQL', at, 0) };
    }
    const rank = q.orderBy?.find((o) => o.field && o.field.parts.length === 1 && o.field.text.toUpperCase() === 'RANK');
    if (rank && !this.fts) return { p, late: new MrqlError('translate', 'ORDER BY RANK requires the full-text index (server started with FTS disabled)', rank.pos, 0) };
    return { p };
  }

  async resolveScope(q: Query, opts: RunOptions, stats: Stats): Promise<ScopeSpec> {
    const pr = opts.principal;
    if (pr && !pr.superUser && pr.scopeGroupId !== null) return { kind: 'forced', id: pr.scopeGroupId };
    // A confined principal without a scope group (a guest, a plugin's deny-all actor) sees nothing.
    if (pr && isScoped(pr)) return { kind: 'nothing' };
    const s = q.scope;
    if (!s) {
      if (opts.contextScope === undefined) return { kind: 'none' };
      return opts.contextScope === null ? { kind: 'nothing' } : { kind: 'context', id: opts.contextScope };
    }
    if (s.num !== undefined) {
      if (!Number.isInteger(s.num)) throw new MrqlError('scope', `SCOPE requires an integer group ID, got ${s.raw}`, s.pos, s.len);
      if (s.num === 0) return { kind: 'none' };
      const rows = await this.run(statements.scopeById(this.dialect, s.num), stats);
      if (Number(rows[0]?.n ?? 0) === 0) throw new MrqlError('scope', `scope group not found: id ${s.num}`, s.pos, s.len, 404);
      return { kind: 'explicit', id: s.num, large: isLarge(rows[0]) };
    }
    const rows = await this.run(statements.scopeByName(this.dialect, s.name!.toLowerCase()), stats);
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
      rows = await this.repo.rows(st, this.settings.timeoutMs);
    } catch (e) {
      if (this.dialect.isTimeout(e)) throw MrqlError.timeout(this.settings.timeoutMs);
      throw new MrqlError('execution', String((e as { message?: string }).message ?? e));
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
    if (p.scope.kind === 'nothing' || p.limit === 0) return this.flatShape(p, { [p.entity]: [] });
    const lookup = statements.rankProfiles(p, p.entity, env);
    if (lookup) env.rankProfiles = profileOrder(await this.run(lookup, stats)) ?? undefined;
    const rows = await this.run(statements.flat(p, p.entity, env, p.limit, p.offset, p.entity), stats);
    return this.flatShape(p, { [p.entity]: rows.map((r) => entityObject(p.entity as Entity, r)) });
  }

  /**
   * Runs several queries at once (the nested `[mrql]` of every card of a list): flat queries of
   * one entity type share one statement, the others run one by one. Each answer is the result
   * or the MRQL error that query alone would have given.
   */
  async executeMany(list: { text: string; opts: RunOptions }[], stats: Stats = { statements: 0, rows: 0 }): Promise<(MrqlResult | MrqlError)[]> {
    const out: (MrqlResult | MrqlError | undefined)[] = new Array(list.length);
    const fail = (i: number, e: unknown) => {
      if (!(e instanceof MrqlError)) throw e;
      out[i] = e;
    };
    const batches = new Map<Entity, { i: number; p: Prepared }[]>();
    const single: { i: number; p: Prepared }[] = [];
    // The cards of a list ask the same text: it is parsed and validated once for all of them.
    const memo: PrepareMemo = new Map();
    for (const [i, { text, opts }] of list.entries()) {
      try {
        const p = await this.prepare(text, opts, stats, memo);
        const batchable = p.checked.mode !== 'aggregated' && p.checked.mode !== 'bucketed' && p.entity !== 'unspecified' && p.scope.kind !== 'nothing' && p.limit > 0;
        if (batchable) {
          const entity = p.entity as Entity;
          if (!batches.has(entity)) batches.set(entity, []);
          batches.get(entity)!.push({ i, p });
        } else single.push({ i, p });
      } catch (e) {
        fail(i, e);
      }
    }
    for (const [entity, all] of batches) {
      const items = all;
      // The same query under many scopes (small ones, without a scope look-up): one walk for all.
      const first = items[0];
      const firstKey = requestKey(list[first.i].text, list[first.i].opts);
      const sameQuery = items.every(({ i, p }) => requestKey(list[i].text, list[i].opts) === firstKey && p.scope.kind === 'context' && !p.scope.large);
      if (items.length > 1 && sameQuery) {
        const roots = items.map(({ p }) => (p.scope as { id: number }).id);
        try {
          await this.resolveTags(first.p, stats);
          const linkOnly = list[first.i].opts.fields === 'link';
          const st = statements.flatScopes(first.p, [...new Set(roots)], entity, this.env(this.clock(), first.p), linkOnly ? LINK_COLUMNS : COLUMNS[entity]);
          if (st) {
            const rows = await this.run(st, stats);
            const by = new Map<number, Row[]>();
            for (const r of rows) {
              const root = Number(r.mrql_scope);
              if (!by.has(root)) by.set(root, []);
              by.get(root)!.push(r);
            }
            const shape = linkOnly ? linkObject : (r: Row) => entityObject(entity, r);
            items.forEach(({ i, p }, k) => (out[i] = this.flatShape(p, { [entity]: (by.get(roots[k]) ?? []).map(shape) })));
            continue;
          }
        } catch (e) {
          for (const { i } of items) fail(i, e);
          continue;
        }
      }
      if (items.length === 1) {
        single.push(items[0]);
        continue;
      }
      try {
        for (const { p } of items) await this.resolveTags(p, stats);
        // Each query's translation reads only the tag names it compares with.
        const env = this.env(this.clock());
        env.tagIds = new Map(items.flatMap(({ p }) => [...(p.tagIds ?? [])]));
        const rows = await this.run(statements.flatBatch(items.map((x) => x.p), entity, env), stats);
        const by = items.map(() => [] as Row[]);
        for (const r of rows) by[Number(r.mrql_batch)].push(r);
        items.forEach(({ i, p }, k) => (out[i] = this.flatShape(p, { [entity]: by[k].map((r) => entityObject(entity, r)) })));
      } catch (e) {
        for (const { i } of items) fail(i, e);
      }
    }
    for (const { i, p } of single) {
      try {
        out[i] = await this.executePrepared(p, stats);
      } catch (e) {
        fail(i, e);
      }
    }
    return out as (MrqlResult | MrqlError)[];
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

  // ------------------------------------------------------------ cross-entity

  async crossEntity(p: Prepared, env: Env, stats: Stats): Promise<FlatResult> {
    const w = p.offset + p.limit;
    if (p.scope.kind === 'nothing' || w === 0) return this.flatShape(p, {});
    const warnings: string[] = [];
    type Tagged = { entity: Entity; row: Row; i: number };
    let merged: Tagged[];
    if (p.q.orderBy?.[0]?.random) {
      merged = ((await this.drawnSample(p, env, stats, w)) ?? (await this.scannedSample(p, env, stats, w, warnings))).slice(p.offset);
    } else {
      const perType = await this.perType(statements.cross(p, env), stats, warnings);
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

  /** Runs one statement per entity type; a type whose statement times out contributes nothing and a warning (§11). */
  private async perType(list: Statement[], stats: Stats, warnings: string[]): Promise<Row[][]> {
    const perType: Row[][] = [];
    for (const [i, st] of list.entries()) {
      try {
        perType.push(await this.run(st, stats));
      } catch (e) {
        if (e instanceof MrqlError && e.timedOut) {
          warnings.push(`${ENTITIES[i]} query failed: ${e.bare}`);
          perType.push([]);
        } else throw e;
      }
    }
    return perType;
  }

  /**
   * A uniform sample without replacement of `w` rows from the union of every type's matches
   * (§11), drawn without reading every match: positions are drawn uniformly over the id ranges
   * of the three tables laid end to end, and a drawn id is kept when its row exists, matches
   * and was not kept before. Every matching row is equally likely at each draw, and which ids
   * were kept depends only on how many draws hit, so the kept rows, in draw order, are a
   * uniform random ordered sample, whenever the drawing stops. Returns null (nothing kept)
   * when too few draws hit: sparse ids, a selective predicate, or fewer matches than `w`; the
   * caller then samples from a full pass instead.
   */
  private async drawnSample(p: Prepared, env: Env, stats: Stats, w: number): Promise<{ entity: Entity; row: Row; i: number }[] | null> {
    if (w > DRAWN_SAMPLE_MAX) return null;
    const r = (await this.run(statements.idRanges(this.dialect), stats))[0] ?? {};
    const spans = ENTITIES.map((e) => {
      const lo = r[`${e}_min`];
      const hi = r[`${e}_max`];
      return lo === null || lo === undefined ? { lo: 0, n: 0 } : { lo: Number(lo), n: Number(hi) - Number(lo) + 1 };
    });
    const total = spans.reduce((s, x) => s + x.n, 0);
    if (total === 0 || total > 2 ** 47) return null;
    const kept: { entity: Entity; row: Row; i: number }[] = [];
    const taken = new Set<string>();
    // Round one expects dense ids that mostly match; later rounds size themselves by the hit
    // rate seen so far, and give up when it is too low to finish in a few hundred probes.
    let draws = Math.ceil(w * 1.3) + 10;
    for (let round = 0; round < DRAWN_SAMPLE_ROUNDS; round++) {
      const seq: { entity: Entity; id: number }[] = [];
      const drawn: Record<Entity, Set<number>> = { resource: new Set(), note: new Set(), group: new Set() };
      for (let k = 0; k < draws; k++) {
        let at = randomInt(total);
        let t = 0;
        while (at >= spans[t].n) at -= spans[t++].n;
        seq.push({ entity: ENTITIES[t], id: spans[t].lo + at });
        drawn[ENTITIES[t]].add(spans[t].lo + at);
      }
      let rows: Row[];
      try {
        rows = await this.run(statements.probe(p, env, { resource: [...drawn.resource], note: [...drawn.note], group: [...drawn.group] }), stats);
      } catch (e) {
        if (e instanceof MrqlError && e.timedOut) return null;
        throw e;
      }
      const found = new Map(rows.map((row) => [`${String(row.mrql_type)}:${Number(row.id)}`, row]));
      const before = kept.length;
      for (const d of seq) {
        const key = `${d.entity}:${d.id}`;
        const row = found.get(key);
        if (!row || taken.has(key)) continue;
        taken.add(key);
        kept.push({ entity: d.entity, row, i: kept.length });
        if (kept.length === w) return kept;
      }
      const rate = (kept.length - before) / draws;
      const needed = rate > 0 ? Math.ceil(((w - kept.length) / rate) * 1.3) + 10 : Infinity;
      if (needed > DRAWN_SAMPLE_PROBES) return null;
      draws = needed;
    }
    return null;
  }

  /**
   * The same sample from full passes: each type contributes a random sample and its population
   * in one statement; the merge draws types weighted by what remains, then the chosen rows
   * are loaded by id.
   */
  private async scannedSample(p: Prepared, env: Env, stats: Stats, w: number, warnings: string[]): Promise<{ entity: Entity; row: Row; i: number }[]> {
    const perType = await this.perType(statements.cross(p, env), stats, warnings);
    const pools = perType.map((rows) => ({ rows, left: rows.length ? Number(rows[0].population) : 0, next: 0 }));
    const merged: { entity: Entity; row: Row; i: number }[] = [];
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
    for (const entity of ENTITIES) {
      const ids = merged.filter((m) => m.entity === entity).map((m) => Number(m.row.id));
      if (!ids.length) continue;
      const rows = await this.run(statements.hydrate(this.dialect, entity, ids), stats);
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      for (const m of merged) if (m.entity === entity) m.row = byId.get(Number(m.row.id)) ?? m.row;
    }
    return merged;
  }

  // ------------------------------------------------------------ aggregated

  async aggregated(p: Prepared, env: Env, stats: Stats): Promise<AggregatedResult> {
    const { st, keys, aggs } = statements.aggregated(p, env);
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

  async bucketed(p: Prepared, env: Env, stats: Stats): Promise<BucketedResult> {
    const entity = p.entity as Entity;
    const bk = p.bucket!;
    const { st, keys } = statements.bucketKeys(p, env);
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
      const rows = await this.run(statements.bucketItems(p, env, part, start), stats);
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

  /** The number of rows a flat query matches, ignoring LIMIT/OFFSET ({total} in shortcodes). */
  async countTotal(text: string, opts: RunOptions, stats: Stats = { statements: 0, rows: 0 }): Promise<number> {
    const p = await this.prepare(text, opts, stats);
    if (p.scope.kind === 'nothing') return 0;
    await this.resolveTags(p, stats);
    const env = this.env(this.clock(), p);
    const types = p.entity === 'unspecified' ? ENTITIES : [p.entity];
    let total = 0;
    for (const entity of types) {
      const rows = await this.run(statements.count(p, entity, env), stats);
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
    let planned: Statement[];
    const shape = { plannedStatements: 0, minimumStatements: 0, maximumStatements: 0, dataDependent: false } as Record<string, unknown>;
    const warnings: string[] = [];
    if (p.checked.mode === 'aggregated') {
      strategy = 'aggregate';
      planned = [statements.aggregated(p, env).st];
    } else if (p.checked.mode === 'bucketed') {
      strategy = 'bucket_fanout';
      planned = [statements.bucketKeys(p, env).st];
      shape.dataDependent = true;
      shape.description = 'one key-discovery statement, then the items of each page of buckets in one statement per 10,000-item chunk';
      warnings.push('Bucketed GROUP BY runs one key-discovery query, then fetches the items of a page of buckets in a single windowed query; only the key-discovery query is shown here.');
    } else if (p.entity === 'unspecified') {
      strategy = 'cross_entity';
      planned = statements.cross(p, env);
      if (p.q.orderBy?.[0]?.random) {
        shape.dataDependent = true;
        shape.description =
          'the id ranges, then up to three primary-key probes of ids drawn over them; when too few draws hit, the statements shown (a sample and the population per type) and up to three loads by id';
      }
    } else {
      strategy = 'flat';
      planned = [statements.flat(p, p.entity, env, p.limit, p.offset, p.entity)];
    }
    shape.plannedStatements = planned.length;
    shape.minimumStatements = planned.length;
    shape.maximumStatements = strategy === 'bucket_fanout' ? 1 + MAX_BUCKETS_PER_PAGE : strategy === 'cross_entity' && shape.dataDependent ? 1 + DRAWN_SAMPLE_ROUNDS + planned.length + 3 : planned.length;
    const out: Record<string, unknown> = {
      entityType: p.entity,
      queryFingerprint: `mrql-shape-v1:${this.fingerprint(p, strategy)}`,
      strategy,
      executionShape: { strategy, ...shape },
      statements: planned.map((s) => ({ label: s.label, sql: s.sql, vars: s.params, interpolated: interpolate(s) })),
      warnings,
      default_limit_applied: p.defaultApplied,
      applied_limit: p.limit,
    };
    if (nativePlan) out.nativePlan = await this.nativePlan(planned);
    return out;
  }

  async nativePlan(planned: Statement[]): Promise<unknown> {
    try {
      const { format, plan } = this.dialect.explain.plan(await this.repo.plans(planned));
      return { dialect: this.dialect.kind, format, plan };
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
      dialect: this.dialect.kind,
      fts: this.fts,
      sim: [this.settings.similarityThreshold, this.settings.ahashThreshold],
    }, strip);
    return createHash('sha256').update(shape).digest('hex');
  }
}

/** What `prepare` computes from the text and options alone (or the error it throws). */
type Unscoped = { p: Omit<Prepared, 'scope'>; late?: MrqlError } | { error: unknown };

/** Unscoped preparations by `requestKey`, shared by the requests of one `executeMany`. */
type PrepareMemo = Map<string, Unscoped>;

/**
 * What a request's answer depends on besides its scope and principal: the text, parameters,
 * limit, page, offset, buckets and the fields asked for. Equal keys share one preparation, and
 * requests with equal keys under different small scopes share one statement.
 */
function requestKey(text: string, opts: RunOptions): string {
  return JSON.stringify([text, opts.params ?? {}, opts.limit, opts.page, opts.offset, opts.buckets, opts.fields]);
}

/** A subtree with at least a tenth of all groups counts as large. */
function isLarge(row: Row | undefined): boolean {
  return Number(row?.n ?? 0) * 10 >= Number(row?.total ?? 1);
}

function firstRegex(e: Expr | undefined): number | null {
  if (!e) return null;
  if (e.k === 'and' || e.k === 'or') return firstRegex(e.left) ?? firstRegex(e.right);
  if (e.k === 'not') return firstRegex(e.e);
  if (e.k === 'pred' && (e.op === '~*' || e.op === '!~*')) return e.opPos;
  return null;
}
