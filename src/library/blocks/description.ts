// Note description ↔ first text block (companion §12.3): the description mirrors the text of the
// note's first text block (lowest position, then lowest id); saving a new description writes it
// into that block.
import type { Kysely } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import type { Database } from '../schema/database.js';
import type { JsonObject } from './records.js';

type Db = Kysely<Database>;

export async function firstTextBlock(db: Db, noteId: number) {
  return db
    .selectFrom('note_blocks')
    .select(['id', 'content'])
    .where('note_id', '=', noteId)
    .where('type', '=', 'text')
    .orderBy('position')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

function textOf(content: string): string {
  const text = parseJson<JsonObject>(content, {}).text;
  return typeof text === 'string' ? text : '';
}

/**
 * Recomputes the description after a block change. A note that never had text blocks keeps its
 * description; one whose last text block went away (`textRemoved`) ends with an empty one.
 */
export async function mirrorDescription(db: Db, noteId: number, textRemoved = false): Promise<void> {
  const first = await firstTextBlock(db, noteId);
  if (!first && !textRemoved) return;
  const description = first ? textOf(first.content) : '';
  await db
    .updateTable('notes')
    .set({ description, updated_at: nowIso() })
    .where('id', '=', noteId)
    .where('description', '<>', description)
    .execute();
}

/** Writes a newly saved description into the first text block, when there is one. */
export async function writeDescriptionToFirstTextBlock(db: Db, noteId: number, description: string): Promise<void> {
  const first = await firstTextBlock(db, noteId);
  if (!first) return;
  const content = { ...parseJson<JsonObject>(first.content, {}), text: description };
  await db.updateTable('note_blocks').set({ content: JSON.stringify(content), updated_at: nowIso() }).where('id', '=', first.id).execute();
}

/** The current description, for seeding a new first text block that arrives empty. */
export async function currentDescription(db: Db, noteId: number): Promise<string> {
  const row = await db.selectFrom('notes').select('description').where('id', '=', noteId).executeTakeFirst();
  return row?.description ?? '';
}
