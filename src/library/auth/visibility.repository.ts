// Visibility as SQL: the condition a confined list or lookup adds, written once for every
// repository, and the lookups the plugin seam and the write checks use. The subtree is one
// recursive statement over `groups` (owner_id is indexed), walked at most 50 levels deep like
// MRQL's SCOPE, referenced once per statement and never materialised in the application.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import type { Visibility } from './visibility.js';

/** The ids of the groups inside `rootId`'s subtree, as a subquery. */
function subtree(rootId: number): RawBuilder<number> {
  return sql<number>`(WITH RECURSIVE scope_tree(id, depth) AS (SELECT id, 0 FROM "groups" WHERE id = ${rootId} UNION SELECT g.id, s.depth + 1 FROM "groups" g JOIN scope_tree s ON g.owner_id = s.id WHERE s.depth < 50) SELECT id FROM scope_tree)`;
}

/**
 * The condition "the group id in `column` is inside the subtree" (null: no condition). Used
 * with a group's own id (groups) and with an owner column (resources and notes: owner-less rows
 * are never visible, since NULL is in no set).
 */
export function insideScope(vis: Visibility, column: string): RawBuilder<SqlBool> | null {
  if (vis.kind === 'all') return null;
  if (vis.rootId === null) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} IN ${subtree(vis.rootId)}`;
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
