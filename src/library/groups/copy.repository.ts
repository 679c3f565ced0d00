// Statements that copy or move a group's relationships as a whole: clone (every link and
// relation duplicated onto the copy) and merge (every link of the losers re-pointed at the
// winner, skipping what the winner already has).
import { sql, type RawBuilder } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';

/** The link tables of a group with the column naming the linked entity. */
const LINKS = [
  ['group_tags', 'tag_id'],
  ['groups_related_resources', 'resource_id'],
  ['groups_related_notes', 'note_id'],
  ['group_related_groups', 'related_group_id'],
] as const;

/** An id bound as a value PostgreSQL can type inside a SELECT list. */
const idValue = (id: number) => sql`CAST(${id} AS integer)`;

export class GroupCopyRepository extends Repository<Database> {
  /** A timestamp bound as a value typed like the stamp columns, for SELECT lists. */
  private stamp(at: string): RawBuilder<unknown> {
    return sql`CAST(${at} AS ${sql.raw(String(this.dialect.columnType.timestamp))})`;
  }

  /** Gives `cloneId` every link of `sourceId`. */
  async copyLinks(sourceId: number, cloneId: number): Promise<void> {
    for (const [table, col] of LINKS) {
      await sql`INSERT INTO ${sql.table(table)} (group_id, ${sql.ref(col)})
        SELECT ${idValue(cloneId)}, ${sql.ref(col)} FROM ${sql.table(table)} WHERE group_id = ${sourceId}`.execute(this.db);
    }
  }

  /** Duplicates the relations of `sourceId` in both directions onto `cloneId` (not its relations to itself). */
  async copyRelations(sourceId: number, cloneId: number, now: string): Promise<void> {
    const ts = this.stamp(now);
    const c = idValue(cloneId);
    await sql`INSERT INTO group_relations (created_at, updated_at, created_by_user_id, name, description, from_group_id, to_group_id, relation_type_id)
      SELECT ${ts}, ${ts}, created_by_user_id, name, description, ${c}, to_group_id, relation_type_id FROM group_relations WHERE from_group_id = ${sourceId} AND to_group_id <> ${sourceId}`.execute(this.db);
    await sql`INSERT INTO group_relations (created_at, updated_at, created_by_user_id, name, description, from_group_id, to_group_id, relation_type_id)
      SELECT ${ts}, ${ts}, created_by_user_id, name, description, from_group_id, ${c}, relation_type_id FROM group_relations WHERE to_group_id = ${sourceId} AND from_group_id <> ${sourceId}`.execute(this.db);
  }

  /**
   * Re-points every link, owned entity and relation of the losers at the winner, skipping what
   * the winner has already and anything that would relate the winner to itself.
   */
  async moveRelationships(winner: number, losers: readonly number[]): Promise<void> {
    const w = idValue(winner);
    const l = sql.join([...losers]);
    for (const [table, col] of LINKS) {
      await sql`INSERT INTO ${sql.table(table)} (group_id, ${sql.ref(col)})
        SELECT DISTINCT ${w}, x.${sql.ref(col)} FROM ${sql.table(table)} x
        WHERE x.group_id IN (${l}) AND NOT EXISTS (SELECT 1 FROM ${sql.table(table)} y WHERE y.group_id = ${winner} AND y.${sql.ref(col)} = x.${sql.ref(col)})`.execute(this.db);
    }
    await this.db.deleteFrom('group_related_groups').where('group_id', '=', winner).where('related_group_id', 'in', [winner, ...losers]).execute();
    await sql`INSERT INTO group_related_groups (group_id, related_group_id)
      SELECT DISTINCT x.group_id, ${w} FROM group_related_groups x
      WHERE x.related_group_id IN (${l}) AND x.group_id <> ${winner} AND x.group_id NOT IN (${l})
        AND NOT EXISTS (SELECT 1 FROM group_related_groups y WHERE y.group_id = x.group_id AND y.related_group_id = ${winner})`.execute(this.db);
    for (const table of ['groups', 'notes', 'resources'] as const) {
      await this.db.updateTable(table).set({ owner_id: winner }).where('owner_id', 'in', [...losers]).where('id', '<>', winner).execute();
    }
    // Relations: re-point both ends, dropping ones that would relate the winner to itself or duplicate.
    await sql`UPDATE group_relations SET from_group_id = ${winner}
      WHERE from_group_id IN (${l}) AND to_group_id <> ${winner} AND to_group_id NOT IN (${l})
        AND NOT EXISTS (SELECT 1 FROM group_relations d WHERE d.from_group_id = ${winner} AND d.to_group_id = group_relations.to_group_id AND d.relation_type_id = group_relations.relation_type_id)`.execute(this.db);
    await sql`UPDATE group_relations SET to_group_id = ${winner}
      WHERE to_group_id IN (${l}) AND from_group_id <> ${winner} AND from_group_id NOT IN (${l})
        AND NOT EXISTS (SELECT 1 FROM group_relations d WHERE d.to_group_id = ${winner} AND d.from_group_id = group_relations.from_group_id AND d.relation_type_id = group_relations.relation_type_id)`.execute(this.db);
  }
}
