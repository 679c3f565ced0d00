// Note blocks: a note's rows in order, their positions, content and state, the existence of the
// entities block content names, and the two note columns the blocks keep in step (the
// description mirrors the first text block, companion §12.3).
import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Visibility } from '../auth/visibility.js';
import { entityVisible, insideScope } from '../auth/visibility.repository.js';
import { nowIso } from '../../core/db/values.js';
import type { Database, NoteBlockTable, NoteTable } from '../schema/database.js';
import type { BlockRow } from './records.js';

export type BlockNote = Pick<Selectable<NoteTable>, 'id' | 'name' | 'description' | 'note_type_id'>;
/** Tables block content may name (gallery resources, referenced groups, a table's saved query). */
export type BlockTarget = 'resources' | 'groups' | 'queries';

const ALWAYS = sql<SqlBool>`1 = 1`;

export class BlockRepository extends Repository<Database> {
  /** The note a block belongs to, with the columns block rules read, if `vis` may see it. */
  async note(id: number, vis: Visibility): Promise<BlockNote | undefined> {
    return this.db
      .selectFrom('notes')
      .select(['id', 'name', 'description', 'note_type_id'])
      .where('id', '=', id)
      .where(insideScope(vis, 'notes.owner_id') ?? ALWAYS)
      .executeTakeFirst();
  }

  /** The note's type and its owning group's category (plugin block-type filters). */
  async filterFacts(noteId: number): Promise<{ note_type_id: number | null; category_id: number | null } | undefined> {
    return this.db
      .selectFrom('notes')
      .leftJoin('groups', 'groups.id', 'notes.owner_id')
      .select(['notes.note_type_id', 'groups.category_id'])
      .where('notes.id', '=', noteId)
      .executeTakeFirst();
  }

  /** A block, if `vis` may see its note (a block is as visible as the note holding it). */
  async find(id: number, vis: Visibility): Promise<BlockRow | undefined> {
    return this.db
      .selectFrom('note_blocks')
      .selectAll()
      .where('id', '=', id)
      .where(entityVisible(vis, 'note', 'note_blocks.note_id') ?? ALWAYS)
      .executeTakeFirst();
  }

  /** A note's blocks in order (position, then id). */
  async ofNote(noteId: number): Promise<BlockRow[]> {
    return this.db.selectFrom('note_blocks').selectAll().where('note_id', '=', noteId).orderBy('position').orderBy('id').execute();
  }

  /** Ids and positions of a note's blocks, in order. */
  async positions(noteId: number): Promise<{ id: number; position: string }[]> {
    return this.db.selectFrom('note_blocks').select(['id', 'position']).where('note_id', '=', noteId).orderBy('position').orderBy('id').execute();
  }

  /** The highest position of a note, where appended blocks go after. */
  async lastPosition(noteId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('note_blocks').select('position').where('note_id', '=', noteId).orderBy('position', 'desc').limit(1).executeTakeFirst();
    return row?.position;
  }

  /** The longest position key of a note (rebalance once it grows too long). */
  async longestPosition(noteId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('note_blocks')
      .select('position')
      .where('note_id', '=', noteId)
      .orderBy(sql`length(position)`, 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.position;
  }

  /** The note's first text block (lowest position, then lowest id). */
  async firstText(noteId: number): Promise<Pick<BlockRow, 'id' | 'position' | 'content'> | undefined> {
    return this.db
      .selectFrom('note_blocks')
      .select(['id', 'position', 'content'])
      .where('note_id', '=', noteId)
      .where('type', '=', 'text')
      .orderBy('position')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }

  async insert(row: Insertable<NoteBlockTable>): Promise<number> {
    const r = await this.db.insertInto('note_blocks').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Sets columns as given (callers decide whether updated_at moves). */
  async update(id: number, patch: Updateable<NoteBlockTable>): Promise<void> {
    await this.db.updateTable('note_blocks').set(patch).where('id', '=', id).execute();
  }

  /** Moves a block of `noteId`; false when the block is not one of the note's. */
  async move(noteId: number, id: number, position: string, at: string): Promise<boolean> {
    const r = await this.db.updateTable('note_blocks').set({ position, updated_at: at }).where('id', '=', id).where('note_id', '=', noteId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('note_blocks').where('id', '=', id).execute();
  }

  /** The ids among `ids` that have a row in `table` that `vis` may see (saved queries are global). */
  async existing(table: BlockTarget, ids: readonly number[], vis: Visibility): Promise<number[]> {
    if (ids.length === 0) return [];
    const seen = table === 'queries' ? null : insideScope(vis, table === 'groups' ? 'groups.id' : 'resources.owner_id');
    const rows = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', [...ids])
      .where(seen ?? ALWAYS)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Writes the note's description when it differs (the note's updated_at moves only then). */
  async setNoteDescription(noteId: number, description: string): Promise<void> {
    await this.db.updateTable('notes').set({ description, updated_at: nowIso() }).where('id', '=', noteId).where('description', '<>', description).execute();
  }
}
