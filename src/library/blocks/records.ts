// The note block record (contract: Note block; camelCase on the wire).
import type { Selectable } from 'kysely';
import { parseJson } from '../../core/db/values.js';
import type { NoteBlockTable } from '../schema/database.js';

export type BlockRow = Selectable<NoteBlockTable>;
export type JsonObject = Record<string, unknown>;

export function blockRecord(row: BlockRow) {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    noteId: row.note_id,
    type: row.type,
    position: row.position,
    content: parseJson<JsonObject>(row.content, {}),
    state: parseJson<JsonObject>(row.state, {}),
  };
}

export type BlockRecord = ReturnType<typeof blockRecord>;
