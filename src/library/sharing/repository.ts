// Share tokens on notes, the admin list of shared notes, and what the share server reads for a
// shared note: its note type's share template, and the resources it may serve (attached to the
// note or shown by one of its gallery blocks).
import type { Selectable } from 'kysely';
import { Repository } from '../../core/db/repository.js';
import type { Database, NoteTable, NoteTypeTable, ResourceTable } from '../schema/database.js';

export type SharedNoteRow = Pick<Selectable<NoteTable>, 'id' | 'name' | 'share_token' | 'share_created_at'>;
export type ShareTemplateRow = Pick<Selectable<NoteTypeTable>, 'custom_header' | 'custom_css' | 'meta_schema' | 'apply_templates_to_shares'>;
export type ServedFileRow = Pick<Selectable<ResourceTable>, 'id' | 'name' | 'content_type' | 'location' | 'storage_location'>;

export class ShareRepository extends Repository<Database> {
  async note(id: number): Promise<Pick<SharedNoteRow, 'id' | 'name' | 'share_token'> | undefined> {
    return this.db.selectFrom('notes').select(['id', 'name', 'share_token']).where('id', '=', id).executeTakeFirst();
  }

  /** Gives a still unshared note `token`; returns the token the note has afterwards. */
  async shareOnce(id: number, token: string, at: string): Promise<string | null> {
    await this.db.updateTable('notes').set({ share_token: token, share_created_at: at }).where('id', '=', id).where('share_token', 'is', null).execute();
    const row = await this.db.selectFrom('notes').select('share_token').where('id', '=', id).executeTakeFirstOrThrow();
    return row.share_token;
  }

  /** Drops the share of the listed notes that are shared; returns how many were. */
  async unshare(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db
      .updateTable('notes')
      .set({ share_token: null, share_created_at: null })
      .where('id', 'in', [...ids])
      .where('share_token', 'is not', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async byToken(token: string): Promise<Selectable<NoteTable> | undefined> {
    return this.db.selectFrom('notes').selectAll().where('share_token', '=', token).executeTakeFirst();
  }

  /** Shared notes, most recently shared first. */
  async sharedPage(limit: number, offset: number): Promise<SharedNoteRow[]> {
    return this.db
      .selectFrom('notes')
      .select(['id', 'name', 'share_token', 'share_created_at'])
      .where('share_token', 'is not', null)
      .orderBy('share_created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The note type columns a share page uses (its header template and CSS). */
  async shareTemplate(noteTypeId: number): Promise<ShareTemplateRow | undefined> {
    return this.db.selectFrom('note_types').select(['custom_header', 'custom_css', 'meta_schema', 'apply_templates_to_shares']).where('id', '=', noteTypeId).executeTakeFirst();
  }

  async resourcesWithHash(hash: string): Promise<ServedFileRow[]> {
    return this.db.selectFrom('resources').select(['id', 'name', 'content_type', 'location', 'storage_location']).where('hash', '=', hash).execute();
  }

  /** Which of `resourceIds` are attached to the note. */
  async attached(noteId: number, resourceIds: readonly number[]): Promise<number[]> {
    if (resourceIds.length === 0) return [];
    const rows = await this.db.selectFrom('resource_notes').select('resource_id').where('note_id', '=', noteId).where('resource_id', 'in', [...resourceIds]).execute();
    return rows.map((r) => r.resource_id);
  }

  /** The content of the note's gallery blocks. */
  async galleryContents(noteId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('note_blocks').select('content').where('note_id', '=', noteId).where('type', '=', 'gallery').execute();
    return rows.map((r) => r.content);
  }
}
