// The statements every named entity table shares (tags, categories, resource categories, note
// types, partials, saved queries, series, and the content tables for their common parts):
// lookups by id and name, the paged list with the common filters, counts, timelines, updates
// and deletes. A feature's repository extends this and adds its own statements.
import { sql, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Visibility } from '../auth/visibility.js';
import { groupByGroup, measured, smallSubtree } from '../auth/visibility.repository.js';
import { nowIso } from '../../core/db/values.js';
import type { Database } from '../schema/database.js';
import { type CommonListInput, type SortSpec } from './list.js';
import { applyCommonFilters, applySort, sortTerms } from './list.repository.js';

/** Tables whose rows have id, name, description, created_at and updated_at. */
export type NamedTable =
  | 'tags'
  | 'categories'
  | 'resource_categories'
  | 'note_types'
  | 'template_partials'
  | 'queries'
  | 'series'
  | 'groups'
  | 'notes'
  | 'resources'
  | 'group_relation_types'
  | 'group_relations';

/** Columns every NamedTable row has. */
interface NamedColumns {
  id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
export type NamedRow<T extends NamedTable> = Selectable<Database[T]> & NamedColumns;

// Kysely cannot type a query over "one of several tables" generically; every NamedTable has the
// columns used here, so the shared statements are typed against `tags` as a stand-in.
type Stand = 'tags';
export type NamedQuery = SelectQueryBuilder<Database, Stand, object>;

/** One time bucket of a timeline: [start, end). */
export interface TimeBucket {
  start: string;
  end: string;
}

/**
 * What a read or write of the table must say about who looks: nothing for the global tables
 * (tags, categories…), the caller's Visibility for the tables confined to a group subtree
 * (groups, resources, notes; companion §10.10). Passed as the trailing argument of every entry
 * point, so the compiler refuses a confined read that forgets it.
 */
export type Seen = [] | [vis: Visibility];

/** List inputs that page, sort or tune a list without narrowing its rows. */
const NOT_FILTERS = new Set(['page', 'MaxResults', 'SortBy', 'thresholds', 'mrql']);

/** Whether a list input narrows the rows (any filter given), or an MRQL filter does. */
function narrows(input: object): boolean {
  if ((input as { mrql?: unknown }).mrql) return true;
  return Object.entries(input).some(
    ([k, v]) => !NOT_FILTERS.has(k) && v !== undefined && v !== null && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
}

/**
 * The ids of a page of a small subtree, group by group: each group's first `offset + limit` rows
 * in list order (`rows` correlated with `scope_group.id`, through the owner index), then the
 * page of their union in the same order. The sort ends in the id, so the order is total and the
 * page holds the same rows as the confined list's.
 */
function byGroup(groups: SelectQueryBuilder<Database, never, object>, rows: NamedQuery, table: Stand, terms: RawBuilder<unknown>[], limit: number, offset: number) {
  const firstRows = applySort(rows.selectAll(table), terms).limit(limit + offset).as(table);
  const union = groups.innerJoinLateral(firstRows, (join) => join.onTrue()).select(sql.ref<number>(`${table}.id`).as('id'));
  return applySort(union as unknown as NamedQuery, terms).limit(limit).offset(offset);
}

export abstract class NamedRepository<T extends NamedTable, I extends CommonListInput = CommonListInput, S extends Seen = []> extends Repository<Database> {
  protected abstract readonly table: T;
  /** What SortBy may name on this table's list. */
  protected abstract readonly sort: SortSpec;

  /** Whether visibleWhere shapes its condition by a measured subtree (list pages measure it first). */
  protected readonly plansSubtree: boolean = false;

  /** The column naming the owning group of a row (confined by owner), for group-by-group pages. */
  protected readonly ownerColumn: string | null = null;

  /** The rows `seen` may see, as a condition (null: all). Confined tables override it. */
  protected visibleWhere(..._seen: S | Seen): RawBuilder<SqlBool> | null {
    return null;
  }

  /** `q` restricted to what `seen` may see. */
  protected seenBy<Q extends { where(cond: RawBuilder<SqlBool>): Q }>(q: Q, seen: S | Seen): Q {
    const cond = this.visibleWhere(...seen);
    return cond ? q.where(cond) : q;
  }

  private get t(): Stand {
    return this.table as unknown as Stand;
  }

  /**
   * The list's filtered rows before selection, sorting and paging. Tables with more than the
   * common filters override it (and everything below — list, count, timeline — follows).
   */
  protected filtered(input: I): NamedQuery {
    return applyCommonFilters(this.db.selectFrom(this.t), this.dialect, this.table, input) as NamedQuery;
  }

  async find(id: number, ...seen: S): Promise<NamedRow<T> | undefined> {
    return (await this.seenBy(this.db.selectFrom(this.t).selectAll().where(`${this.t}.id`, '=', id), seen).executeTakeFirst()) as NamedRow<T> | undefined;
  }

  async findByName(name: string): Promise<NamedRow<T> | undefined> {
    return (await this.db.selectFrom(this.t).selectAll().where('name', '=', name).orderBy('id').executeTakeFirst()) as NamedRow<T> | undefined;
  }

  /** The rows among `ids` that exist, in id order. */
  async findMany(ids: readonly number[], ...seen: S): Promise<NamedRow<T>[]> {
    if (ids.length === 0) return [];
    return (await this.seenBy(this.db.selectFrom(this.t).selectAll().where(`${this.t}.id`, 'in', [...ids]), seen).orderBy(`${this.t}.id`).execute()) as NamedRow<T>[];
  }

  /**
   * One page of the list: `limit` rows from `offset`, in SortBy order. A confined caller's
   * subtree is measured first, so a large one walks the list order (visibility.repository.ts).
   */
  async page(input: I, limit: number, offset: number, ...seen: S): Promise<NamedRow<T>[]> {
    const terms = sortTerms(this.dialect, this.table, input.SortBy, this.sort);
    const [vis] = seen as Seen;
    const planned = (vis && this.plansSubtree ? [await measured(this.db, vis, narrows(input))] : seen) as S;
    const id = sql.ref<number>(`${this.t}.id`);
    const groups = planned[0] && this.ownerColumn ? groupByGroup(planned[0], this.dialect) : null;
    let pageIds: NamedQuery | null = null;
    if (groups && this.ownerColumn) {
      pageIds = byGroup(this.db.selectFrom(groups.as('scope_group')), this.filtered(input).where(sql<SqlBool>`${sql.ref(this.ownerColumn)} = scope_group.id`), this.t, terms, limit, offset);
    } else if (planned[0] && this.ownerColumn && smallSubtree(planned[0])) {
      pageIds = applySort(this.seenBy(this.filtered(input), planned).select(id.as('id')), terms).limit(limit).offset(offset) as unknown as NamedQuery;
    }
    // A small subtree's rows are collected and sorted: sort their ids and sort keys (read from
    // the owner indexes), then read only the page's rows.
    const rows = await (pageIds
      ? applySort(this.db.selectFrom(this.t).selectAll(this.t).where(sql<SqlBool>`${id} IN ${pageIds}`), terms)
      : applySort(this.seenBy(this.filtered(input), planned).selectAll(this.t), terms).limit(limit).offset(offset)
    ).execute();
    return rows as unknown as NamedRow<T>[];
  }

  async count(input: I, ...seen: S): Promise<number> {
    const r = await this.seenBy(this.filtered(input), seen).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Rows of the filtered list created, and updated after creation, in each bucket. */
  async timeline(input: I, buckets: readonly TimeBucket[], ...seen: S): Promise<{ created: number; updated: number }[]> {
    if (buckets.length === 0) return [];
    const created = sql.ref(`${this.table}.created_at`);
    const updated = sql.ref(`${this.table}.updated_at`);
    const from = buckets[0].start;
    const to = buckets[buckets.length - 1].end;
    const sums = buckets.flatMap((b, i) => [
      sql<number>`sum(CASE WHEN ${created} >= ${b.start} AND ${created} < ${b.end} THEN 1 ELSE 0 END)`.as(`c${i}`),
      sql<number>`sum(CASE WHEN ${updated} >= ${b.start} AND ${updated} < ${b.end} AND ${updated} > ${created} THEN 1 ELSE 0 END)`.as(`u${i}`),
    ]);
    const row = (await this.seenBy(this.filtered(input), seen)
      .where(sql<boolean>`((${created} >= ${from} AND ${created} < ${to}) OR (${updated} >= ${from} AND ${updated} < ${to}))`)
      .select(sums)
      .executeTakeFirst()) as Record<string, number | null> | undefined;
    return buckets.map((_, i) => ({ created: Number(row?.[`c${i}`] ?? 0), updated: Number(row?.[`u${i}`] ?? 0) }));
  }

  /** Sets columns and bumps updated_at. */
  async update(id: number, patch: Updateable<Database[T]>, ...seen: S): Promise<void> {
    const q = this.db
      .updateTable(this.t)
      .set({ ...(patch as Updateable<Database[Stand]>), updated_at: nowIso() })
      .where(`${this.t}.id`, '=', id);
    await this.seenBy(q, seen).execute();
  }

  async remove(ids: readonly number[], ...seen: S): Promise<void> {
    if (ids.length === 0) return;
    await this.seenBy(this.db.deleteFrom(this.t).where(`${this.t}.id`, 'in', [...ids]), seen).execute();
  }
}
