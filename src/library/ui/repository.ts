// What the shared page parts read: the names pickers start with, the carrier template slots of
// list and detail pages, and the dashboard's recent items and activity feed.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Visibility } from '../auth/visibility.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Database } from '../schema/database.js';

export type PickTable = 'tags' | 'groups' | 'notes' | 'resources';
export type CarrierTable = 'categories' | 'resource_categories' | 'note_types';
export type DashboardTable = 'resources' | 'notes' | 'groups' | 'tags';

export interface ActivityRow {
  type: 'resource' | 'note' | 'group' | 'tag';
  id: number;
  name: string;
  action: 'created' | 'updated';
  at: string;
}

const ACTIVITY_SOURCES: [DashboardTable, ActivityRow['type']][] = [
  ['resources', 'resource'],
  ['notes', 'note'],
  ['groups', 'group'],
  ['tags', 'tag'],
];

/**
 * What `vis` may see of a table the pages show (companion §10.10): groups by their id,
 * resources and notes by their owner, tags everywhere. Null: no condition.
 */
function seenIn(table: PickTable | DashboardTable, vis: Visibility): RawBuilder<SqlBool> | null {
  if (table === 'tags') return null;
  return insideScope(vis, table === 'groups' ? 'groups.id' : `${table}.owner_id`);
}

const ALWAYS = sql<SqlBool>`1 = 1`;

export class PickRepository extends Repository<Database> {
  /** Id and name of the rows among `ids` that `vis` may see (one statement). */
  async names(table: PickTable, ids: readonly number[], vis: Visibility): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .where(seenIn(table, vis) ?? ALWAYS)
      .execute();
  }
}

export class CarrierSlotRepository extends Repository<Database> {
  /** A carrier's CustomCSS. */
  async css(table: CarrierTable, id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(table as 'categories')
      .select('custom_css')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.custom_css;
  }

  /** What a list filtered to one carrier shows around itself. */
  async listSlots(table: CarrierTable, id: number) {
    return this.db
      .selectFrom(table as 'categories')
      .select(['id', 'name', 'description', 'custom_list_header', 'custom_list_footer', 'custom_css'])
      .where('id', '=', id)
      .executeTakeFirst();
  }
}

export class DashboardRepository extends Repository<Database> {
  /** The newest rows of a table that `vis` may see. */
  async recent(table: DashboardTable, limit: number, vis: Visibility): Promise<{ id: number; name: string; description: string }[]> {
    return this.db
      .selectFrom(table as 'tags')
      .select(['id', 'name', 'description'])
      .where(seenIn(table, vis) ?? ALWAYS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The newest creations and edits across resources, notes, groups and tags; an edit counts
   * only when it came more than a second after the creation. Only rows `vis` may see take part.
   */
  async activity(limit: number, vis: Visibility): Promise<ActivityRow[]> {
    const edited = sql.raw(this.dialect.laterBy('updated_at', 'created_at', 1));
    const events = ACTIVITY_SOURCES.map(([table, type]) => {
      const seen = seenIn(table, vis) ?? ALWAYS;
      return sql`
        SELECT ${type} AS type, id, name, 'created' AS action, created_at AS at FROM ${sql.table(table)} WHERE ${seen}
        UNION ALL
        SELECT ${type} AS type, id, name, 'updated' AS action, updated_at AS at FROM ${sql.table(table)} WHERE ${edited} AND ${seen}`;
    });
    const r = await sql<ActivityRow>`SELECT * FROM (${sql.join(events, sql` UNION ALL `)}) a ORDER BY at DESC LIMIT ${limit}`.execute(this.db);
    return r.rows;
  }
}
