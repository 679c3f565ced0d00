// Visibility as SQL: the condition a confined list or lookup adds, written once for every
// repository, and the lookups the plugin seam and the write checks use. The subtree is one
// recursive statement over `groups` (owner_id is indexed), walked at most 50 levels deep like
// MRQL's SCOPE, referenced once per statement and never materialised in the application.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../../core/db/dialect/index.js';
import { Repository, type Executor } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import type { Visibility } from './visibility.js';

/** The statement listing the ids of the groups inside `rootId`'s subtree. */
function subtreeIds(rootId: number): RawBuilder<number> {
  return sql<number>`WITH RECURSIVE scope_tree(id, depth) AS (SELECT id, 0 FROM "groups" WHERE id = ${rootId} UNION SELECT g.id, s.depth + 1 FROM "groups" g JOIN scope_tree s ON g.owner_id = s.id WHERE s.depth < 50) SELECT id FROM scope_tree`;
}

/** The same, as a subquery. */
function subtree(rootId: number): RawBuilder<number> {
  return sql<number>`(${subtreeIds(rootId)})`;
}

/**
 * The condition "the group id in `column` is inside the subtree" (null: no condition). Used
 * with a group's own id (groups) and with an owner column (resources and notes: owner-less rows
 * are never visible, since NULL is in no set).
 *
 * Given the dialect and a measured subtree (a list page, `measured`), the dialect shapes the
 * condition: for a large subtree the planner may walk the list's order and probe membership
 * row by row instead of collecting and sorting a fifth of the table through the owner index.
 */
export function insideScope(vis: Visibility, column: string, dialect?: Dialect): RawBuilder<SqlBool> | null {
  if (vis.kind === 'all') return null;
  if (vis.rootId === null) return sql<SqlBool>`1 = 0`;
  if (dialect && vis.plan) {
    // The dialect writes the membership around a placeholder set, filled with the bound subtree.
    const [before, after] = dialect.subtreeMember(column, SET, vis.plan).split(SET);
    return sql<SqlBool>`${sql.raw(before)}${subtreeIds(vis.rootId)}${sql.raw(after)}`;
  }
  return sql<SqlBool>`${sql.ref(column)} IN ${subtree(vis.rootId)}`;
}

const SET = '\u0000set\u0000';

/**
 * The subtree's group ids as a FROM item, when a list page should fetch it group by group (a
 * LATERAL per group through the owner index, `planner.lateralSmallSubtree`): a measured small
 * subtree on an engine that plans that way. Null otherwise. Without it PostgreSQL, which cannot
 * tell how many groups the recursive walk returns, walks the whole list order probing each row.
 */
export function groupByGroup(vis: Visibility, dialect: Dialect): RawBuilder<{ id: number }> | null {
  if (!smallSubtree(vis) || vis.kind !== 'subtree' || vis.rootId === null || !dialect.planner.lateralSmallSubtree) return null;
  return sql<{ id: number }>`${subtree(vis.rootId)}`;
}

/** Whether `vis` is a subtree a list page measured as small (a small share of the groups). */
export function smallSubtree(vis: Visibility): boolean {
  return vis.kind === 'subtree' && vis.rootId !== null && vis.plan !== undefined && !vis.plan.large;
}

/** A subtree holding at least a tenth of all groups counts as large. */
export function isLargeSubtree(subtreeGroups: number, allGroups: number): boolean {
  return subtreeGroups * 10 >= allGroups;
}

/**
 * `vis` with its planning hint: whether the subtree is large (one small statement: the subtree
 * walk over the group tree and the number of groups) and whether other filters narrow the
 * page. Run by list pages only, where the plan decides between collecting the subtree's rows
 * and walking the list order.
 */
export async function measured(db: Executor<Database>, vis: Visibility, narrowed: boolean): Promise<Visibility> {
  if (vis.kind === 'all' || vis.rootId === null || vis.plan) return vis;
  const r = await sql<{ n: number | string; total: number | string }>`SELECT (SELECT COUNT(*) FROM ${subtree(vis.rootId)} m) AS n, (SELECT COUNT(*) FROM "groups") AS total`.execute(db);
  const row = r.rows[0];
  return Object.freeze({ ...vis, plan: { large: isLargeSubtree(Number(row?.n ?? 0), Number(row?.total ?? 0)), narrowed } });
}

/** The entity kinds confined to a subtree; everything else (tags, categories…) is global. */
export type ConfinedKind = 'group' | 'resource' | 'note';

const COLUMN: Record<ConfinedKind, { table: 'groups' | 'resources' | 'notes'; column: string }> = {
  group: { table: 'groups', column: 'groups.id' },
  resource: { table: 'resources', column: 'resources.owner_id' },
  note: { table: 'notes', column: 'notes.owner_id' },
};

export class VisibilityRepository extends Repository<Database> {
  /** The ids among `ids` that exist and that `vis` may see, in id order. */
  async visibleIds(vis: Visibility, kind: ConfinedKind, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)].filter((n) => Number.isSafeInteger(n));
    if (unique.length === 0) return [];
    const { table, column } = COLUMN[kind];
    const idRef = sql.ref<number>(`${table}.id`);
    let q = this.db.selectFrom(table as 'groups').select(idRef.as('id')).where(idRef, 'in', unique);
    const cond = insideScope(vis, column);
    if (cond) q = q.where(cond);
    const rows = await q.orderBy(idRef).execute();
    return rows.map((r) => Number(r.id));
  }
}

/**
 * The condition "the entity of `kind` whose id is in `idColumn` is visible" (null: no
 * condition), for join rows and foreign keys: the far end of a link, a version's resource.
 */
export function entityVisible(vis: Visibility, kind: ConfinedKind | 'tag', idColumn: string): RawBuilder<SqlBool> | null {
  if (vis.kind === 'all' || kind === 'tag') return null;
  if (kind === 'group') return insideScope(vis, idColumn);
  const table = kind === 'resource' ? 'resources' : 'notes';
  return sql<SqlBool>`EXISTS (SELECT 1 FROM ${sql.table(table)} vis_e WHERE vis_e.id = ${sql.ref(idColumn)} AND ${insideScope(vis, 'vis_e.owner_id')})`;
}

/** The kind of entity a link table's far column names. */
export function kindOfTable(table: 'tags' | 'groups' | 'resources' | 'notes'): ConfinedKind | 'tag' {
  return table === 'tags' ? 'tag' : table === 'groups' ? 'group' : table === 'resources' ? 'resource' : 'note';
}
