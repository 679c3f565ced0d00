// JSON shapes of notes (companion §2.1: capitalised names, camelCase share fields; unloaded
// associations serialise as null) and of the small resource records a note embeds.
import type { Selectable } from 'kysely';
import { parseJson } from '../../core/db/values.js';
import type { NoteTable, ResourceTable } from '../schema/database.js';

export type NoteRow = Selectable<NoteTable>;
export type ResourceRow = Selectable<ResourceTable>;

/** The note's own columns; associations are filled in by the caller. */
export function noteRecord(row: NoteRow) {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Name: row.name,
    Description: row.description,
    Meta: parseJson<Record<string, unknown>>(row.meta, {}),
    OwnerId: row.owner_id,
    StartDate: row.start_date,
    EndDate: row.end_date,
    NoteTypeId: row.note_type_id,
    shareToken: row.share_token,
    shareCreatedAt: row.share_created_at,
    hasShare: row.share_token !== null,
    createdByUserId: row.created_by_user_id,
    guid: row.guid,
  };
}

export type NoteRecord = ReturnType<typeof noteRecord>;

/** A resource as a note shows it (the full resource record arrives with the resources feature). */
export function resourceStub(r: Pick<ResourceRow, 'id' | 'name' | 'content_type' | 'file_size' | 'hash' | 'width' | 'height' | 'created_at'>) {
  return {
    ID: r.id,
    Name: r.name,
    ContentType: r.content_type,
    FileSize: Number(r.file_size),
    Hash: r.hash,
    Width: r.width,
    Height: r.height,
    CreatedAt: r.created_at,
  };
}

export type ResourceStub = ReturnType<typeof resourceStub>;
