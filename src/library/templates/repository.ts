// What the shortcode engine reads: carriers' template slots, group chains (scope anchors) and
// partials. Each method is one statement for a whole batch.
import { sql } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import type { Entity } from '../mrql/fields.js';

/** The carrier table of each entity type (categories for groups). */
export const CARRIER_TABLE = { resource: 'resource_categories', note: 'note_types', group: 'categories' } as const satisfies Record<Entity, keyof Database>;

/** Template slots every carrier has. */
const COMMON_SLOTS = [
  'custom_header',
  'custom_sidebar',
  'custom_detail_footer',
  'custom_summary',
  'custom_avatar',
  'custom_hover_card',
  'custom_list_header',
  'custom_list_footer',
  'custom_mrql_result',
  'custom_css',
] as const;

/** Every carrier's slots: the common ones and the carrier's own. */
export const CARRIER_SLOTS = {
  resource: [...COMMON_SLOTS, 'custom_preview', 'custom_lightbox', 'custom_cell'],
  note: [...COMMON_SLOTS],
  group: [...COMMON_SLOTS, 'custom_own_entities'],
} as const;

export type Slot = (typeof CARRIER_SLOTS)[Entity][number];

export interface CarrierRow {
  id: number;
  custom_mrql_result: string;
  custom_css: string;
  meta_schema: string;
}

export interface ChainRow {
  start: number;
  id: number;
  owner_id: number | null;
  depth: number;
}

export class TemplateRepository extends Repository<Database> {
  /** What rendering a result card needs of each carrier. */
  async carriers(type: Entity, ids: number[]): Promise<CarrierRow[]> {
    return this.db
      .selectFrom(CARRIER_TABLE[type] as 'categories')
      .select(['id', 'custom_mrql_result', 'custom_css', 'meta_schema'])
      .where('id', 'in', ids)
      .execute();
  }

  /** One slot's text of a carrier and its meta schema; the caller checks the carrier has the slot. */
  async slot(type: Entity, id: number, slot: Slot): Promise<{ slot: string; meta_schema: string } | undefined> {
    return this.db
      .selectFrom(CARRIER_TABLE[type] as 'categories')
      .select([sql.ref<string>(slot).as('slot'), 'meta_schema'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Each group with its ancestors, nearest first (`depth` 0 is the group itself). */
  async chains(groupIds: number[]): Promise<ChainRow[]> {
    const rows = await sql<ChainRow>`WITH RECURSIVE up(start, id, owner_id, depth) AS (
        SELECT g.id, g.id, g.owner_id, 0 FROM groups g WHERE g.id IN (${sql.join(groupIds)})
        UNION ALL SELECT up.start, g.id, g.owner_id, up.depth + 1 FROM up ${sql.raw(this.dialect.probeJoin('groups', 'g', 'g.id, g.owner_id', 'g.id = up.owner_id'))} WHERE up.depth < 50)
      SELECT start, id, owner_id, depth FROM up ORDER BY start, depth`.execute(this.db);
    return rows.rows;
  }

  /** A partial's content by exact name. */
  async partial(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('template_partials').select('content').where('name', '=', name).executeTakeFirst();
    return row?.content;
  }
}
