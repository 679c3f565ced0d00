// What the shared page parts read: the names pickers start with, the carrier template slots of
// list and detail pages, and the dashboard's recent items and activity feed.
import { sql } from 'kysely';
import { Repository } from '../../core/db/repository.js';
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

export class PickRepository extends Repository<Database> {
  /** Id and name of the rows among `ids` (one statement). */
  async names(table: PickTable, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom(table).select(['id', 'name']).where('id', 'in', [...ids]).execute();
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
  /** The newest rows of a table. */
  async recent(table: DashboardTable, limit: number): Promise<{ id: number; name: string; description: string }[]> {
    return this.db
      .selectFrom(table as 'tags')
      .select(['id', 'name', 'description'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The newest creations and edits across resources, notes, groups and tags; an edit counts
   * only when it came more than a second after the creation.
   */
  async activity(limit: number): Promise<ActivityRow[]> {
    const edited = sql.raw(this.dialect.laterBy('updated_at', 'created_at', 1));
    const events = ACTIVITY_SOURCES.map(
      ([table, type]) => sql`
        SELECT ${type} AS type, id, name, 'created' AS action, created_at AS at FROM ${sql.table(table)}
        UNION ALL
        SELECT ${type} AS type, id, name, 'updated' AS action, updated_at AS at FROM ${sql.table(table)} WHERE ${edited}`,
    );
    const r = await sql<ActivityRow>`SELECT * FROM (${sql.join(events, sql` UNION ALL `)}) a ORDER BY at DESC LIMIT ${limit}`.execute(this.db);
    return r.rows;
  }
}
