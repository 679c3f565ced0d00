// The ownership tree: ancestors, children pages, and cycle detection, each one recursive SQL
// statement (UNION, not UNION ALL, so even a corrupted cycle in old data terminates).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema/database.js';
import type { GroupRow } from './records.js';

type Db = Kysely<Database>;

/** Ancestors of a group, most distant first, the group itself last. */
export async function ancestorsOf(db: Db, id: number): Promise<GroupRow[]> {
  const r = await sql<GroupRow & { depth: number }>`
    WITH RECURSIVE chain(id, owner_id, depth) AS (
      SELECT id, owner_id, 0 FROM "groups" WHERE id = ${id}
      UNION
      SELECT g.id, g.owner_id, chain.depth + 1 FROM "groups" g JOIN chain ON g.id = chain.owner_id WHERE chain.depth < 10000
    )
    SELECT g.*, chain.depth FROM chain JOIN "groups" g ON g.id = chain.id ORDER BY chain.depth DESC`.execute(db);
  return r.rows;
}

/** True when making `ownerId` the parent of `groupId` would close a loop (incl. self-ownership). */
export async function wouldCreateCycle(db: Db, groupId: number, ownerId: number): Promise<boolean> {
  if (groupId === ownerId) return true;
  const r = await sql<{ hit: number }>`
    WITH RECURSIVE chain(id, owner_id) AS (
      SELECT id, owner_id FROM "groups" WHERE id = ${ownerId}
      UNION
      SELECT g.id, g.owner_id FROM "groups" g JOIN chain ON g.id = chain.owner_id
    )
    SELECT 1 AS hit FROM chain WHERE id = ${groupId} LIMIT 1`.execute(db);
  return r.rows.length > 0;
}

/** The group and every descendant's id. */
export async function subtreeIds(db: Db, id: number): Promise<number[]> {
  const r = await sql<{ id: number }>`
    WITH RECURSIVE tree(id) AS (
      SELECT id FROM "groups" WHERE id = ${id}
      UNION
      SELECT g.id FROM "groups" g JOIN tree ON g.owner_id = tree.id
    )
    SELECT id FROM tree`.execute(db);
  return r.rows.map((row) => row.id);
}

export interface TreeChild {
  id: number;
  name: string;
  categoryName: string | null;
  childCount: number;
  ownerId: number | null;
}

/** One page of a parent's children (parentId 0 = root groups) with their own child counts. */
export async function treeChildren(db: Db, parentId: number, limit: number): Promise<TreeChild[]> {
  const parent = parentId === 0 ? sql`g.owner_id IS NULL` : sql`g.owner_id = ${parentId}`;
  const r = await sql<TreeChild>`
    SELECT g.id, g.name, c.name AS "categoryName", g.owner_id AS "ownerId",
      (SELECT count(*) FROM "groups" k WHERE k.owner_id = g.id) AS "childCount"
    FROM "groups" g LEFT JOIN categories c ON c.id = g.category_id
    WHERE ${parent}
    ORDER BY lower(g.name), g.id
    LIMIT ${limit}`.execute(db);
  return r.rows.map((row) => ({ ...row, childCount: Number(row.childCount), categoryName: row.categoryName ?? null }));
}
