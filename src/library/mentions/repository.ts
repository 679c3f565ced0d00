// What turning mentions into links reads: an entity's description, a note's text blocks and
// the links an entity already has.
import { sql } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { ContentTable, LinkSpec } from '../common/content.js';
import type { Database } from '../schema/database.js';

export class MentionRepository extends Repository<Database> {
  async description(table: ContentTable, id: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(table as 'notes')
      .select('description')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.description;
  }

  /** The content (JSON text) of a note's text blocks. */
  async textBlocks(noteId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('note_blocks').select('content').where('note_id', '=', noteId).where('type', '=', 'text').execute();
    return rows.map((r) => r.content);
  }

  /** The far ends an entity is already linked to through `spec`. */
  async linked(spec: LinkSpec, selfId: number): Promise<number[]> {
    const r = await sql<{ other: number }>`SELECT ${sql.ref(spec.other)} AS other FROM ${sql.table(spec.table)} WHERE ${sql.ref(spec.self)} = ${selfId}`.execute(this.db);
    return r.rows.map((row) => Number(row.other));
  }
}
